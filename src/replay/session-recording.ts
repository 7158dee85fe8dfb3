/**
 * From a DSH session log to what its agent did and what the brake said, for `dsh-brake analyze`.
 *
 * A session log is one agent's: the main agent's, or a subagent's (its header has `origin: 'subagent'` and the
 * delegating session as `parentSession`). Read in order:
 *
 * - `step/start` opens a model step (its step 1 opens a turn); the `user/message` events up to the step's model
 *   output are the messages it claimed. A person's message (`source.kind: 'user'`, which is also how a parent's task
 *   reaches a subagent) becomes a `user` event; the others are the step's contexts, except this brake's own notices,
 *   which are what it said.
 * - `tool/call` gives a call's name and raw arguments; its `tool/result` (in the order the brake saw the results)
 *   gives the result, and makes the call. A result with the error code `ABORTED_BEFORE_DISPATCH` is for a call DSH
 *   never ran (it cancelled the step first): its call is marked `skipped`, as no tool hook saw it live.
 * - `assistant/message` carries the step's token usage, where the provider reported it, and closes the step's
 *   response, whose text and reasoning streamed before it: `assistant/chunk` events (`text-delta`,
 *   `reasoning-delta`, and the `finish`, whose kind is `dsh-brake/cut` where this brake cut the response) and, on
 *   disk, the storage rows DSH packs runs of deltas into (`text-chunks`, `reasoning-chunks`).
 * - `session/end-seed` (written when a restarted DSH reopens the log) and a `request/header` whose reason is
 *   `'resume'` (the first request of a new agent over an existing log) each mark a resume: DSH built a fresh agent
 *   there, so the brake's state started empty. One restart often writes both, with no call between: one `resume`.
 * - `agent/inbox/spliced` shows which call's result a notice was attached to; `turn/end` shows a turn a hook
 *   cancelled; `compaction/end` and `compaction/prune` are compactions, as the plugin itself reads them.
 * - Every other event type is skipped, so a log from a newer DSH with event types this reader does not know still
 *   reads. So is an event whose data does not have the shape expected of its type.
 *
 * The events a session inherited from its parent through a seed (the header's `seedLength`) were the parent's work:
 * they are skipped, as a fresh agent's brake never saw them.
 * @module dsh-brake/replay/session-recording
 */
import type { SessionEventMap } from '@deepseek-ai/dsh-session'
import { isCompaction } from '../dsh/compaction.js'
import { contentText } from '../dsh/observe.js'
import { isRefusalResult, isStopReason } from '../messages.js'
import { byCall, type Action } from './actions.js'
import type { AgentEvent, ContextMessage } from './agent-events.js'
import type { SessionLog } from '../session-logs/decode.js'

/** The error code DSH logs with the result it makes up for a call it cancelled before running it. */
const ABORTED_BEFORE_DISPATCH = 'ABORTED_BEFORE_DISPATCH'

/** Token usage of one model step, as the provider reported it. */
export interface StepUsage {
  readonly inputTokens: number
  readonly outputTokens: number
}

/** One model response as the log recorded it (0-based `index` within the agent): its text and reasoning as streamed. */
export interface RecordedResponse {
  readonly index: number
  /** Calls the agent had made before it. */
  readonly callsBefore: number
  /** Its text and reasoning blocks, in the order they began, each as the deltas it streamed in. */
  readonly blocks: readonly { readonly part: 'text' | 'reasoning'; readonly deltas: readonly string[] }[]
  /** How it ended: the finish's kind (`stop`, `tool-calls`, `max-tokens`, `dsh-brake/cut`, …), if it was logged. */
  readonly finish: string | undefined
  /** The output tokens the provider reported for it, if it did. */
  readonly outputTokens: number | undefined
}

/** One call as the log recorded it (0-based `index` within the agent). */
export interface RecordedCall {
  readonly index: number
  readonly tool: string
  readonly args: unknown
  readonly isError: boolean
  /** The result's text (text blocks joined; other blocks by their type). */
  readonly text: string
  /** The raw arguments' length in characters, for a cost estimate where the log has no usage. */
  readonly argumentChars: number
  /** The model step that asked for it, and how many calls that step asked for. */
  readonly step: string
  /** Whether the brake refused it in the live run (its result is the refusal). */
  readonly refused: boolean
}

/** What one session log holds for the analyzer. */
export interface SessionRecording {
  readonly file: string
  readonly session: string
  /** The delegating session, for a subagent's log. */
  readonly parentSession: string | undefined
  readonly subagent: boolean
  readonly header: Readonly<Record<string, unknown>>
  /** The agent's events, for the replay and the labelling rule; the agent is named by the session id. */
  readonly events: readonly AgentEvent[]
  readonly calls: readonly RecordedCall[]
  /** Usage per model step (`turn/step`), where the log has it. */
  readonly usage: ReadonlyMap<string, StepUsage>
  /** How many calls each model step asked for. */
  readonly callsPerStep: ReadonlyMap<string, number>
  /** What the brake did in the live run: its notices, the calls it refused, the turns it stopped, in call order. */
  readonly said: readonly Action[]
  /** The model's responses that streamed text or reasoning, in order (numbered among all of them). */
  readonly responses: readonly RecordedResponse[]
}

interface Message {
  readonly id?: unknown
  readonly content?: readonly { readonly type?: unknown; readonly text?: unknown }[]
  readonly source?: { readonly kind?: unknown; readonly plugin?: unknown; readonly summary?: unknown }
}

/** Rebuild what the log's agent did. `brake` is the plugin name whose notices are "what the brake said". */
export function recordingOf(log: SessionLog, brake: string): SessionRecording {
  const header = log.header as unknown as Readonly<Record<string, unknown>>
  const session = log.header.id
  const events: AgentEvent[] = []
  const calls: RecordedCall[] = []
  const usage = new Map<string, StepUsage>()
  const callsPerStep = new Map<string, number>()
  const said: Action[] = []
  const responses: RecordedResponse[] = []
  // The response streaming in the current step: its blocks by stream index, and its finish.
  let blocks = new Map<number, { part: 'text' | 'reasoning'; deltas: string[] }>()
  let finish: string | undefined
  let responseCount = 0
  const requested = new Map<string, { name: string; arguments: string }>()
  // The call each of the brake's notices was attached to, by message id, from the inbox splices.
  const attachedTo = new Map<string, number>()
  let claimed: Message[] = []
  // The number of calls at the last resume (or the start): a resume with no call since changes nothing.
  let callsAtResume = 0
  let stepOpen = false
  let step = '0/0'
  let stepNumber = 0

  /** The messages a step claimed, as the replay's events; the brake's own are what it said. */
  function closeStep(): void {
    if (!stepOpen) return
    stepOpen = false
    const contexts: ContextMessage[] = []
    for (const message of claimed) {
      const source = message.source ?? {}
      const texts = textsOf(message)
      if (source.kind === 'user') {
        events.push({ kind: 'user', agent: session, text: texts.join('\n') })
      } else if (source.kind === 'plugin' && source.plugin === brake) {
        const id = String(message.id)
        said.push({ kind: 'notice', agent: session, call: attachedTo.get(id) ?? calls.length - 1, text: stringOr(source.summary), plugin: brake })
      } else {
        contexts.push({ id: String(message.id), source: sourceOf(source), texts })
      }
    }
    claimed = []
    events.push({ kind: 'step', agent: session, contexts, ...stepNumber === 1 ? { opensTurn: true } : {} })
  }

  /** One delta (or a packed run of them) of the current response, given its block's stream index. */
  function streamed(part: 'text' | 'reasoning', index: unknown, deltas: readonly unknown[]): void {
    if (typeof index !== 'number') return
    let block = blocks.get(index)
    if (block === undefined) blocks.set(index, block = { part, deltas: [] })
    for (const delta of deltas) if (typeof delta === 'string') block.deltas.push(delta)
  }

  /**
   * The step's response is complete (`message`: it reached its `assistant/message`, which numbers it): keep it, if
   * it streamed anything.
   */
  function closeResponse(message: boolean, outputTokens: number | undefined): void {
    const streamedAny = blocks.size > 0 || finish !== undefined
    if (message || streamedAny) responseCount++
    if (streamedAny) {
      responses.push({ index: responseCount - 1, callsBefore: calls.length, blocks: [...blocks.values()], finish, outputTokens })
    }
    blocks = new Map()
    finish = undefined
  }

  /** A fresh agent from here on, unless nothing happened since the last one began. */
  function resume(): void {
    if (calls.length === callsAtResume) return
    callsAtResume = calls.length
    events.push({ kind: 'resume', agent: session })
  }

  const seeded = typeof header['seedLength'] === 'number' ? header['seedLength'] : 0
  for (const event of log.events.slice(seeded)) {
    if (typeof event.data !== 'object' || event.data === null) continue
    const data = event.data as Record<string, unknown>
    switch (event.type) {
      case 'step/start': {
        closeStep()
        // A response that never reached its message (the turn was cancelled mid-stream) ends with its step.
        closeResponse(false, undefined)
        const { turn, step: number } = data as SessionEventMap['step/start']
        step = `${turn}/${number}`
        stepNumber = number
        stepOpen = true
        break
      }
      case 'user/message':
        claimed.push(data)
        break
      case 'assistant/message': {
        closeStep()
        const { turn, step: number, usage: used } = data as Partial<SessionEventMap['assistant/message']>
        const reported = used !== undefined && Number.isFinite(used.inputTokens) && Number.isFinite(used.outputTokens)
        if (reported) usage.set(`${turn}/${number}`, { inputTokens: used.inputTokens, outputTokens: used.outputTokens })
        closeResponse(true, reported ? used.outputTokens : undefined)
        break
      }
      case 'assistant/chunk': {
        const chunk = (data as Partial<SessionEventMap['assistant/chunk']>).chunk as { type?: unknown; index?: unknown; text?: unknown; reason?: { kind?: unknown } } | undefined
        if (chunk?.type === 'text-delta' || chunk?.type === 'reasoning-delta') streamed(chunk.type === 'text-delta' ? 'text' : 'reasoning', chunk.index, [chunk.text])
        else if (chunk?.type === 'finish' && typeof chunk.reason?.kind === 'string') finish = chunk.reason.kind
        break
      }
      // DSH's storage rows: a run of deltas of one block, packed into one line.
      case 'text-chunks':
      case 'reasoning-chunks': {
        const texts = data['texts']
        if (Array.isArray(texts)) streamed(event.type === 'text-chunks' ? 'text' : 'reasoning', data['index'], texts)
        break
      }
      case 'tool/call': {
        closeStep()
        const call = data as Partial<SessionEventMap['tool/call']>
        if (typeof call.callId === 'string' && typeof call.name === 'string') {
          requested.set(call.callId, { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : '' })
        }
        break
      }
      case 'tool/result': {
        closeStep()
        const made = resultOf(data, requested, calls.length, step)
        if (made === undefined) break
        const { call, errorCode } = made
        calls.push(call)
        callsPerStep.set(step, (callsPerStep.get(step) ?? 0) + 1)
        if (call.refused) said.push({ kind: 'refusal', agent: session, call: call.index, text: call.text.slice('Error: '.length) })
        events.push({
          kind: 'call', agent: session, tool: call.tool, args: call.args, isError: call.isError, text: call.text,
          ...errorCode === undefined ? {} : { errorCode },
          ...errorCode === ABORTED_BEFORE_DISPATCH ? { skipped: true } : {},
        })
        break
      }
      case 'agent/inbox/spliced':
        for (const message of (data['inserted'] as Message[] | undefined) ?? []) {
          if (message.source?.kind === 'plugin' && message.source.plugin === brake) attachedTo.set(String(message.id), calls.length - 1)
        }
        break
      case 'session/end-seed':
        closeStep()
        resume()
        break
      case 'request/header':
        // Logged at the new agent's first model request, after its first step claimed its messages: the resume goes
        // before that step, which is still open.
        if ((data as Partial<SessionEventMap['request/header']>).reason === 'resume') resume()
        break
      case 'turn/end': {
        closeStep()
        const reason = brakeStopOf(data)
        if (reason !== undefined) said.push({ kind: 'stop', agent: session, call: calls.length - 1, text: reason })
        break
      }
      default:
        if (isCompaction(event as Parameters<typeof isCompaction>[0])) events.push({ kind: 'compaction', agent: session, type: event.type, data })
    }
  }
  closeStep()
  closeResponse(false, undefined)
  const parent = header['parentSession']
  return {
    file: log.file, session, header, events, calls, usage, callsPerStep, said: byCall(said), responses,
    parentSession: typeof parent === 'string' ? parent : undefined,
    subagent: header['origin'] === 'subagent',
  }
}

/** A `tool/result` event as a recorded call, given the calls requested so far; undefined when it has no such shape. */
function resultOf(
  data: Record<string, unknown>, requested: ReadonlyMap<string, { name: string; arguments: string }>, index: number, step: string,
): { call: RecordedCall; errorCode: string | undefined } | undefined {
  const message = data['message'] as { content?: unknown } | undefined
  const block = Array.isArray(message?.content) ? message.content[0] as {
    toolCallId?: unknown
    content?: unknown
    isError?: unknown
  } | undefined : undefined
  if (block === undefined || typeof block.toolCallId !== 'string') return undefined
  const call = requested.get(block.toolCallId)
  if (call === undefined) return undefined
  const text = contentText(Array.isArray(block.content) ? block.content.filter(isBlock) : [])
  const code = (data['error'] as { code?: unknown } | undefined)?.code
  return {
    call: {
      index, tool: call.name, args: parseArguments(call.arguments), isError: block.isError === true, text,
      argumentChars: call.arguments.length, step, refused: block.isError === true && isRefusalResult(text),
    },
    errorCode: typeof code === 'string' ? code : undefined,
  }
}

/** Arguments as DSH's loop parses them: JSON, `{}` for an empty string, the raw string when it is not JSON. */
function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {}
  try {
    return JSON.parse(raw) as unknown
  } catch {
    return raw
  }
}

/**
 * The reason of a turn this brake's stop ended (a hook's cancel, with the brake's stop wording), from a `turn/end`'s
 * data; undefined for any other end, such as another plugin's cancel whose reason merely mentions the brake.
 */
function brakeStopOf(data: Record<string, unknown>): string | undefined {
  const reason = data['reason'] as { kind?: unknown; reason?: { kind?: unknown; reason?: unknown } } | undefined
  if (reason?.kind !== 'aborted' || reason.reason?.kind !== 'hook') return undefined
  const text = reason.reason.reason
  return typeof text === 'string' && isStopReason(text) ? text : undefined
}

/** A content block with a string type (and a string text, if any): what a result's text is made of. */
function isBlock(value: unknown): value is { type: string; text?: string } {
  const block = value as { type?: unknown; text?: unknown } | null
  return typeof block?.type === 'string' && (block.text === undefined || typeof block.text === 'string')
}

function textsOf(message: Message): string[] {
  const texts: string[] = []
  for (const block of message.content ?? []) if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
  return texts
}

function sourceOf(source: NonNullable<Message['source']>): ContextMessage['source'] {
  return {
    kind: String(source.kind),
    ...typeof source.plugin === 'string' ? { plugin: source.plugin } : {},
    ...typeof source.summary === 'string' ? { summary: source.summary } : {},
  }
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
