/**
 * From a DSH session log to what its agent did and what the brake said, for `dsh-brake analyze`. Event types it does
 * not know, and events not of the shape expected, are skipped, so a log from a newer DSH still reads; events inherited
 * through a seed were the parent's work and are skipped too.
 * Design: docs/design.md#source-layout; what is read: docs/analyze.md#what-is-read
 * @module dsh-brake/replay/session-recording
 */
import type { SessionEventMap } from '@deepseek-ai/dsh-session'
import { isCompaction } from '../dsh/compaction.js'
import { contentText } from '../dsh/observe.js'
import { isRefusalResult, isStopReason } from '../dsh/readings.js'
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
  /** The model step that streamed it (`turn/step`), as `usage` and `callsPerStep` are keyed. */
  readonly step: string
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
  const reading = new Reading(log.header.id, brake)
  const seeded = typeof header['seedLength'] === 'number' ? header['seedLength'] : 0
  for (const event of log.events.slice(seeded)) {
    if (typeof event.data !== 'object' || event.data === null) continue
    const data = event.data as Record<string, unknown>
    const handle = Object.hasOwn(ON_EVENT, event.type) ? ON_EVENT[event.type] : undefined
    if (handle !== undefined) handle(reading, data, event.type)
    else if (isCompaction(event as Parameters<typeof isCompaction>[0])) reading.events.push({ kind: 'compaction', agent: reading.session, type: event.type, data })
  }
  reading.closeStep()
  reading.closeResponse(false, undefined)
  const parent = header['parentSession']
  const { session, events, calls, usage, callsPerStep, said, responses } = reading
  return {
    file: log.file, session, header, events, calls, usage, callsPerStep, said: byCall(said), responses,
    parentSession: typeof parent === 'string' ? parent : undefined,
    subagent: header['origin'] === 'subagent',
  }
}

/** What one event type does to the recording so far (its data is an object, its shape not yet checked). */
type Handler = (reading: Reading, data: Record<string, unknown>, type: string) => void

/** The event types that matter, each with what it does; every other type is skipped, but for a compaction. */
const ON_EVENT: Readonly<Record<string, Handler>> = {
  'step/start'(reading, data) {
    reading.closeStep()
    // A response that never reached its message (the turn was cancelled mid-stream) ends with its step.
    reading.closeResponse(false, undefined)
    const { turn, step: number } = data as SessionEventMap['step/start']
    reading.step = `${turn}/${number}`
    reading.stepNumber = number
    reading.stepOpen = true
  },
  'user/message'(reading, data) {
    reading.claimed.push(data)
  },
  'assistant/message'(reading, data) {
    reading.closeStep()
    const { turn, step: number, usage: used } = data as Partial<SessionEventMap['assistant/message']>
    const reported = used !== undefined && Number.isFinite(used.inputTokens) && Number.isFinite(used.outputTokens)
    if (reported) reading.usage.set(`${turn}/${number}`, { inputTokens: used.inputTokens, outputTokens: used.outputTokens })
    reading.closeResponse(true, reported ? used.outputTokens : undefined)
  },
  'assistant/chunk'(reading, data) {
    const chunk = (data as Partial<SessionEventMap['assistant/chunk']>).chunk as { type?: unknown; index?: unknown; text?: unknown; reason?: { kind?: unknown } } | undefined
    if (chunk?.type === 'text-delta' || chunk?.type === 'reasoning-delta') reading.streamed(chunk.type === 'text-delta' ? 'text' : 'reasoning', chunk.index, [chunk.text])
    else if (chunk?.type === 'finish' && typeof chunk.reason?.kind === 'string') reading.finish = chunk.reason.kind
  },
  // DSH's storage rows: a run of deltas of one block, packed into one line.
  'text-chunks': streamedRow,
  'reasoning-chunks': streamedRow,
  'tool/call'(reading, data) {
    reading.closeStep()
    const call = data as Partial<SessionEventMap['tool/call']>
    if (typeof call.callId === 'string' && typeof call.name === 'string') {
      reading.requested.set(call.callId, { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : '' })
    }
  },
  'tool/result'(reading, data) {
    reading.closeStep()
    const { calls, session } = reading
    const made = resultOf(data, reading.requested, calls.length, reading.step)
    if (made === undefined) return
    const { call, errorCode } = made
    calls.push(call)
    reading.callsPerStep.set(reading.step, (reading.callsPerStep.get(reading.step) ?? 0) + 1)
    if (call.refused) reading.said.push({ kind: 'refusal', agent: session, call: call.index, text: call.text.slice('Error: '.length) })
    reading.events.push({
      kind: 'call', agent: session, tool: call.tool, args: call.args, isError: call.isError, text: call.text,
      ...errorCode === undefined ? {} : { errorCode },
      ...errorCode === ABORTED_BEFORE_DISPATCH ? { skipped: true } : {},
    })
  },
  'agent/inbox/spliced'(reading, data) {
    for (const message of (data['inserted'] as Message[] | undefined) ?? []) {
      if (message.source?.kind === 'plugin' && message.source.plugin === reading.brake) reading.attachedTo.set(String(message.id), reading.calls.length - 1)
    }
  },
  'session/end-seed'(reading) {
    reading.closeStep()
    reading.resume()
  },
  'request/header'(reading, data) {
    // Logged at the new agent's first model request, after its first step claimed its messages: the resume goes
    // before that step, which is still open.
    if ((data as Partial<SessionEventMap['request/header']>).reason === 'resume') reading.resume()
  },
  'turn/end'(reading, data) {
    reading.closeStep()
    const reason = brakeStopOf(data)
    if (reason !== undefined) reading.said.push({ kind: 'stop', agent: reading.session, call: reading.calls.length - 1, text: reason })
  },
}

/** A storage row of `text-chunks` or `reasoning-chunks`: its block's stream index and its run of deltas. */
function streamedRow(reading: Reading, data: Record<string, unknown>, type: string): void {
  const texts = data['texts']
  if (Array.isArray(texts)) reading.streamed(type === 'text-chunks' ? 'text' : 'reasoning', data['index'], texts)
}

/** A log being read: what its agent did so far, and where the reading is in its steps and responses. */
class Reading {
  readonly session: string
  /** The plugin name whose notices are what the brake said. */
  readonly brake: string
  readonly events: AgentEvent[] = []
  readonly calls: RecordedCall[] = []
  readonly usage = new Map<string, StepUsage>()
  readonly callsPerStep = new Map<string, number>()
  readonly said: Action[] = []
  readonly responses: RecordedResponse[] = []
  /** The response streaming in the current step: its blocks by stream index, and its finish. */
  private blocks = new Map<number, { part: 'text' | 'reasoning'; deltas: string[] }>()
  finish: string | undefined
  private responseCount = 0
  readonly requested = new Map<string, { name: string; arguments: string }>()
  /** The call each of the brake's notices was attached to, by message id, from the inbox splices. */
  readonly attachedTo = new Map<string, number>()
  claimed: Message[] = []
  /** The number of calls at the last resume (or the start): a resume with no call since changes nothing. */
  private callsAtResume = 0
  stepOpen = false
  step = '0/0'
  stepNumber = 0

  constructor(session: string, brake: string) {
    this.session = session
    this.brake = brake
  }

  /** The messages a step claimed, as the replay's events; the brake's own are what it said. */
  closeStep(): void {
    if (!this.stepOpen) return
    this.stepOpen = false
    const { session, brake } = this
    const contexts: ContextMessage[] = []
    for (const message of this.claimed) {
      const source = message.source ?? {}
      const texts = textsOf(message)
      if (source.kind === 'user') {
        this.events.push({ kind: 'user', agent: session, text: texts.join('\n') })
      } else if (source.kind === 'plugin' && source.plugin === brake) {
        const id = String(message.id)
        this.said.push({ kind: 'notice', agent: session, call: this.attachedTo.get(id) ?? this.calls.length - 1, text: stringOr(source.summary), plugin: brake })
      } else {
        contexts.push({ id: String(message.id), source: sourceOf(source), texts })
      }
    }
    this.claimed = []
    this.events.push({ kind: 'step', agent: session, id: this.step, contexts, ...this.stepNumber === 1 ? { opensTurn: true } : {} })
  }

  /** One delta (or a packed run of them) of the current response, given its block's stream index. */
  streamed(part: 'text' | 'reasoning', index: unknown, deltas: readonly unknown[]): void {
    if (typeof index !== 'number') return
    let block = this.blocks.get(index)
    if (block === undefined) this.blocks.set(index, block = { part, deltas: [] })
    for (const delta of deltas) if (typeof delta === 'string') block.deltas.push(delta)
  }

  /**
   * The step's response is complete (`message`: it reached its `assistant/message`, which numbers it): keep it, if
   * it streamed anything.
   */
  closeResponse(message: boolean, outputTokens: number | undefined): void {
    const streamedAny = this.blocks.size > 0 || this.finish !== undefined
    if (message || streamedAny) this.responseCount++
    if (streamedAny) {
      const { blocks, finish, responseCount, calls, step } = this
      this.responses.push({ index: responseCount - 1, callsBefore: calls.length, step, blocks: [...blocks.values()], finish, outputTokens })
    }
    this.blocks = new Map()
    this.finish = undefined
  }

  /** A fresh agent from here on, unless nothing happened since the last one began. */
  resume(): void {
    if (this.calls.length === this.callsAtResume) return
    this.callsAtResume = this.calls.length
    this.events.push({ kind: 'resume', agent: this.session })
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
