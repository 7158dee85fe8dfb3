/**
 * A scripted model server of our own for the end-to-end tests: it speaks the OpenAI-compatible chat-completions
 * protocol DSH's DeepSeek provider uses (POST …/chat/completions, always streamed as server-sent events, closed with
 * `data: [DONE]`), plays a script of responses (tool calls, parallel tool calls, final text), and records every
 * request so a test can read exactly what the model was sent. The session-title request DSH sends beside the first
 * step (no tools, a title-writing system prompt) gets a title and does not consume the script. Loopback only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Text streamed in one piece, or delta by delta (slowly, as a provider streams a long response). */
export type Deltas = string | readonly string[]

/** One scripted answer: tool calls (several are parallel) or a final text, either after its reasoning. */
export type Answer =
  | { readonly calls: readonly { readonly name: string; readonly args: unknown }[]; readonly text?: Deltas; readonly reasoning?: Deltas }
  | { readonly text: Deltas; readonly reasoning?: Deltas }

/** How one response's stream went, at the server's side. */
export interface Streamed {
  /** Server-sent events written, out of `total` the answer has. */
  readonly written: number
  readonly total: number
  /** Whether the client closed the request before the server ended the stream. */
  readonly closedEarly: boolean
}

/** A message as the model receives it. */
export interface WireMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool'
  readonly content?: string | { type: string; text?: string }[]
  readonly tool_call_id?: string
  readonly tool_calls?: { id: string; function: { name: string; arguments: string } }[]
}

/** One request as the model server received it. */
export interface WireRequest {
  readonly path: string
  readonly messages: readonly WireMessage[]
  readonly tools: readonly { function: { name: string } }[]
}

export interface ModelServer {
  /** The base URL to give DSH as DEEPSEEK_BASE_URL. */
  readonly url: string
  /** Every main (non-title) request, in order. */
  readonly requests: WireRequest[]
  /** How many title requests came in. */
  readonly titles: number
  /** How each main request's stream went, in order (complete once its response has closed). */
  readonly streams: Streamed[]
  close(): Promise<void>
}

let callSeq = 0

function chunk(delta: object, finish: string | null = null, usage?: object): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }], ...usage === undefined ? {} : { usage } })}\n\n`
}

/** The server-sent events of one answer, in order, `[DONE]` last. */
function events(answer: Answer): string[] {
  const pieces = (deltas: Deltas | undefined): readonly string[] => deltas === undefined ? [] : typeof deltas === 'string' ? [deltas] : deltas
  const out = [
    ...pieces(answer.reasoning).map(text => chunk({ role: 'assistant', reasoning_content: text })),
    ...pieces(answer.text).map(text => chunk({ role: 'assistant', content: text })),
  ]
  if ('calls' in answer) {
    answer.calls.forEach((call, index) => {
      out.push(chunk({
        tool_calls: [{ index, id: `call_${++callSeq}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }],
      }))
    })
  }
  out.push(chunk({}, 'calls' in answer ? 'tool_calls' : 'stop', { prompt_tokens: 10, completion_tokens: 5 }), 'data: [DONE]\n\n')
  return out
}

/** Events written between two pauses: a long answer streams over time, as a provider's does, so a client can stop it. */
const BURST = 8

/** Stream `answer`, noting in `record` (for a main request) how far it got and whether the client left early. */
async function stream(response: ServerResponse, answer: Answer, record?: { -readonly [K in keyof Streamed]: Streamed[K] }): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const all = events(answer)
  if (record !== undefined) {
    record.total = all.length
    response.on('close', () => {
      if (!response.writableFinished) record.closedEarly = true
    })
  }
  for (const [index, event] of all.entries()) {
    if (response.destroyed) return
    response.write(event)
    if (record !== undefined) record.written++
    if (all.length > BURST && index % BURST === BURST - 1) await new Promise(resolve => setTimeout(resolve, 1))
  }
  response.end()
}

async function body(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = []
  for await (const part of request) parts.push(part as Buffer)
  return JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>
}

function isTitleRequest(payload: Record<string, unknown>): boolean {
  const [first] = (payload['messages'] as WireMessage[] | undefined) ?? []
  const text = typeof first?.content === 'string' ? first.content : ''
  return payload['tools'] === undefined && text.startsWith('Create a concise title')
}

/** Start a model server on 127.0.0.1 that plays `script`; once it runs out, it answers "done". */
export async function startModelServer(script: Answer[]): Promise<ModelServer> {
  const requests: WireRequest[] = []
  const streams: Streamed[] = []
  let titles = 0
  const queue = [...script]
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404).end()
        return
      }
      const payload = await body(request)
      if (isTitleRequest(payload)) {
        titles++
        await stream(response, { text: 'Scripted session' })
        return
      }
      requests.push({
        path: request.url,
        messages: payload['messages'] as WireMessage[],
        tools: (payload['tools'] as WireRequest['tools'] | undefined) ?? [],
      })
      const record = { written: 0, total: 0, closedEarly: false }
      streams.push(record)
      await stream(response, queue.shift() ?? { text: 'done' }, record)
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error))
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get titles() { return titles },
    streams,
    close: () => new Promise<void>(resolve => server.close(() => resolve())),
  }
}

/** The text of a message's content. */
export function textOf(message: WireMessage): string {
  const content = message.content
  if (typeof content === 'string') return content
  return (content ?? []).map(part => part.text ?? '').join('')
}
