/**
 * A scripted model server of our own for the end-to-end tests: it speaks the OpenAI-compatible chat-completions
 * protocol DSH's DeepSeek provider uses (POST …/chat/completions, always streamed as server-sent events, closed with
 * `data: [DONE]`), plays a script of responses (tool calls, parallel tool calls, final text), and records every
 * request so a test can read exactly what the model was sent. The session-title request DSH sends beside the first
 * step (no tools, a title-writing system prompt) gets a title and does not consume the script. Loopback only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted answer: tool calls (several are parallel), or a final text. */
export type Answer =
  | { readonly calls: readonly { readonly name: string; readonly args: unknown }[] }
  | { readonly text: string }

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
  close(): Promise<void>
}

let callSeq = 0

function chunk(delta: object, finish: string | null = null, usage?: object): string {
  return `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }], ...usage === undefined ? {} : { usage } })}\n\n`
}

function stream(response: ServerResponse, answer: Answer): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  if ('text' in answer) {
    response.write(chunk({ role: 'assistant', content: answer.text }))
    response.write(chunk({}, 'stop', { prompt_tokens: 10, completion_tokens: 5 }))
  } else {
    answer.calls.forEach((call, index) => {
      response.write(chunk({
        tool_calls: [{ index, id: `call_${++callSeq}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }],
      }))
    })
    response.write(chunk({}, 'tool_calls', { prompt_tokens: 10, completion_tokens: 5 }))
  }
  response.end('data: [DONE]\n\n')
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
        stream(response, { text: 'Scripted session' })
        return
      }
      requests.push({
        path: request.url,
        messages: payload['messages'] as WireMessage[],
        tools: (payload['tools'] as WireRequest['tools'] | undefined) ?? [],
      })
      stream(response, queue.shift() ?? { text: 'done' })
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
    close: () => new Promise<void>(resolve => server.close(() => resolve())),
  }
}

/** The text of a message's content. */
export function textOf(message: WireMessage): string {
  const content = message.content
  if (typeof content === 'string') return content
  return (content ?? []).map(part => part.text ?? '').join('')
}
