/**
 * Crafted DSH session logs for tests: events typed by `@deepseek-ai/dsh-session`'s own `SessionEvent` (so a change of
 * shape in DSH fails the typecheck), written as DSH writes them, a header line then JSON Lines, one zstd frame per
 * append batch. The end-to-end suite checks the reader against logs the real CLI wrote.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { CallId, type UserMessage } from '@deepseek-ai/dsh-llm'
import { packChunkRuns, SessionId, type SessionEvent, type SessionHeader } from '@deepseek-ai/dsh-session'

/** A session event before the log numbers and times it (each variant of the union, as it is). */
type NewEvent = SessionEvent extends infer E ? E extends SessionEvent ? Omit<E, 'seq' | 'time'> : never : never

/** A step's token usage as the provider reports it (null in `respond`: the log has none). */
type Usage = { inputTokens: number; outputTokens: number }

/** A call the model makes, its result, and the notice a plugin attached to it, if any. */
export interface ScriptedCall {
  readonly name: string
  readonly args: unknown
  readonly result: string
  readonly isError?: boolean
  /** The failure info DSH logs with a failed result (`ABORTED_BEFORE_DISPATCH` for a call it never ran). */
  readonly error?: { readonly name: string; readonly code: string }
  readonly notice?: UserMessage
}

/** A call DSH cancelled before running it, with the result it logs for such a call. */
export function skippedCall(name: string, args: unknown): ScriptedCall {
  return {
    name, args, result: 'Error: tool call aborted before dispatch', isError: true,
    error: { name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH' },
  }
}

/** A session being written: each method appends the events DSH logs for it. */
export class SessionScript {
  readonly events: SessionEvent[] = []
  private turn = 0
  private step = 0
  private calls = 0

  readonly header: SessionHeader

  constructor(header: SessionHeader) {
    this.header = header
  }

  private add(event: NewEvent): void {
    this.events.push({ ...event, seq: this.events.length, time: 1_800_000_000_000 + this.events.length })
  }

  /** A person's prompt: a new turn whose first step claims it (and `contexts`). */
  prompt(text: string, contexts: readonly UserMessage[] = []): this {
    this.add({ type: 'turn/start', data: { turn: ++this.turn } })
    this.step = 0
    return this.openStep([message(text, { kind: 'user' }), ...contexts])
  }

  /** A later step of the turn, claiming `claimed` (what the last calls' decisions added). */
  openStep(claimed: readonly UserMessage[] = []): this {
    this.add({ type: 'step/start', data: { turn: this.turn, step: ++this.step } })
    for (const claim of claimed) this.add({ type: 'user/message', data: claim, surfaceOp: 'append' })
    return this
  }

  /**
   * The step's model output: these calls (in parallel when several), each with its result; `notices` are attached
   * to the result of the call at their index, as a post-execute listener does (an inbox splice after the result).
   */
  respond(calls: readonly ScriptedCall[], usage: Usage | null = { inputTokens: 1000, outputTokens: 20 }): this {
    const ids = calls.map(() => CallId(`call_${++this.calls}`))
    this.add({
      type: 'assistant/message',
      data: {
        turn: this.turn, step: this.step, ...usage === null ? {} : { usage },
        message: {
          role: 'assistant', id: crypto.randomUUID(), source: { kind: 'model', provider: 'scripted', model: 'scripted' },
          content: calls.map((call, index) => ({ type: 'tool-call', id: ids[index]!, name: call.name, arguments: JSON.stringify(call.args) })),
        } as never,
      },
      surfaceOp: 'append',
    })
    calls.forEach((call, index) => {
      this.add({ type: 'tool/call', data: { turn: this.turn, step: this.step, callId: ids[index]!, name: call.name, arguments: JSON.stringify(call.args) } })
    })
    calls.forEach((call, index) => {
      this.add({
        type: 'tool/result',
        data: {
          turn: this.turn, step: this.step, ...call.error === undefined ? {} : { error: call.error },
          message: {
            role: 'user', id: crypto.randomUUID() as never, source: { kind: 'tool', callId: ids[index]! },
            content: [{ type: 'tool-result', toolCallId: ids[index]!, content: [{ type: 'text', text: call.result }], isError: call.isError ?? false }],
          } as never,
        },
        surfaceOp: 'append',
      })
      if (call.notice !== undefined) this.raw({ type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, inserted: [call.notice] } })
    })
    this.add({ type: 'step/end', data: { turn: this.turn, step: this.step } })
    return this
  }

  /**
   * The step's response streaming before its message: each block's deltas as `assistant/chunk` events (DSH packs runs
   * of them into storage rows when it writes the log, and so does {@link bytes}), then the finish.
   */
  stream(blocks: readonly { part: 'text' | 'reasoning'; deltas: readonly string[] }[], finish = 'stop'): this {
    const chunk = (data: unknown): void => this.add({ type: 'assistant/chunk', data: { turn: this.turn, step: this.step, chunk: data as never } })
    blocks.forEach(({ part, deltas }, index) => {
      chunk({ type: 'block-start', index, blockType: part })
      for (const text of deltas) chunk({ type: part === 'text' ? 'text-delta' : 'reasoning-delta', index, text })
      chunk({ type: 'block-end', index, block: { type: part, text: deltas.join('') } })
    })
    chunk({ type: 'finish', reason: { kind: finish } })
    return this
  }

  /** A line of any type, as a plugin or a newer DSH might log it. */
  raw(event: { type: string; data: unknown }): this {
    this.add(event as never)
    return this
  }

  end(): this {
    this.add({ type: 'turn/end', data: { turn: this.turn, reason: { kind: 'completed' } } })
    return this
  }

  /** The log's bytes: the header, then the events (runs of deltas packed, as DSH stores them), in frames of `batch` lines. */
  bytes(batch = 3): Buffer {
    const lines = [JSON.stringify({ type: 'session', ...this.header }), ...packChunkRuns(this.events).map(event => JSON.stringify(event))]
    const frames: Buffer[] = []
    for (let i = 0; i < lines.length; i += batch) frames.push(zstdCompressSync(Buffer.from(`${lines.slice(i, i + batch).join('\n')}\n`)))
    return Buffer.concat(frames)
  }
}

/** A header for a fresh top-level session (or a subagent's, with `parent`). */
export function header(id: string, parent?: string): SessionHeader {
  return {
    version: 0, id: SessionId(id), createdAt: 1_800_000_000_000, cwd: '/work',
    ...parent === undefined ? {} : { parentSession: SessionId(parent), origin: 'subagent' as const, delegationDepth: 1 },
  }
}

/** A user-role message from `source`. */
export function message(text: string, source: UserMessage['source']): UserMessage {
  return { content: [{ type: 'text', text }], source, role: 'user', id: crypto.randomUUID() } as UserMessage
}

/** A notice as the brake words its source. */
export function brakeNotice(summary: string): UserMessage {
  return message(`[notice] ${summary}`, { kind: 'plugin', plugin: 'dsh-brake', form: 'notice', summary })
}

/** Write `bytes` as `<home>/sessions/<folder>/session-<id>/session.jsonl.zstd`; returns the file. */
export function writeLog(home: string, id: string, bytes: Buffer): string {
  const dir = join(home, 'sessions', '--work--', id)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'session.jsonl.zstd')
  writeFileSync(file, bytes)
  return file
}

/** A read of a.txt with its result. */
export const read = (result: string): ScriptedCall => ({ name: 'read', args: { file_path: 'a.txt' }, result })

/** A session with three identical reads, a notice attached to the third, and a fourth read in the next step. */
export function readsWithNotice(): SessionScript {
  return new SessionScript(header('session-1'))
    .prompt('Fix it.', [message('Current runtime context.', { kind: 'runtime-context' } as never)])
    .respond([read('one'), read('one')])
    .openStep()
    .respond([{ ...read('one'), notice: brakeNotice('read × 3, same result') }])
    .openStep([brakeNotice('read × 3, same result')])
    .respond([read('one')], { inputTokens: 500, outputTokens: 10 })
    .end()
}
