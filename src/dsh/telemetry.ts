/**
 * `session-telemetry/record`: the brake's own records (notices, cuts, refusals, stops) marked with a severity and
 * `dsh_brake.*` attributes for the OpenTelemetry log pipeline, so a logs backend can count and group loops without
 * reading prose. Every other record passes as it came.
 * Design: docs/design.md#opentelemetry-records; the attributes: docs/telemetry.md
 * @module dsh-brake/dsh/telemetry
 */
import type { LoopKind } from '../core/kinds.js'
import { isRefusalResult, isStopReason, readPhrase, readRefusal, readSummary, stopPhraseOf, stoppedLoopSummary, type Reading } from './readings.js'
import type { Brake } from './brake.js'
import { reminderCall } from './stock-tools.js'

/**
 * One outbound record, as `@deepseek-ai/dsh-session-telemetry` 0.1.0-rc.8 declares it (`SessionTelemetryRecord`).
 * Declared here rather than imported: the brake does not depend on the telemetry packages, which only a profile with
 * the backend mounts.
 */
export interface TelemetryRecord {
  readonly channel: 'ledger' | 'ops'
  readonly time: number
  readonly severity: 'info' | 'warn' | 'error'
  readonly attributes: Readonly<Record<string, string | number | boolean>>
  readonly body: unknown
}

declare module '@deepseek-ai/cordis' {
  interface Events {
    /** DSH's telemetry seam: transform one outbound record (synchronously) before the backend gets it. */
    'session-telemetry/record'(record: TelemetryRecord, next: () => TelemetryRecord): TelemetryRecord
  }
}

/** The brake's actions as its records carry them. */
export type BrakeAction = 'notice' | 'refusal' | 'stop' | 'cut'

/** The attribute names, one namespace, documented in docs/telemetry.md. */
export const ATTRIBUTES = {
  action: 'dsh_brake.action',
  kind: 'dsh_brake.kind',
  calls: 'dsh_brake.calls',
  tool: 'dsh_brake.tool',
  reminder: 'dsh_brake.reminder',
} as const

/** A record's severity, one of the three the seam takes. */
export type Severity = TelemetryRecord['severity']

/**
 * The severity of each action's record: the ones that took something from the agent warn; a notice is `info` unless
 * `telemetryNoticeSeverity` says otherwise.
 */
export function actionSeverities(noticeSeverity: Severity): Readonly<Record<BrakeAction, Severity>> {
  return Object.freeze({ notice: noticeSeverity, refusal: 'warn', stop: 'warn', cut: 'warn' })
}

/** What a record of the brake's says, before it becomes attributes. */
export interface ActionMarks {
  readonly action: BrakeAction
  readonly kind?: LoopKind
  readonly calls?: number
  readonly tool?: string
  readonly reminder?: boolean
}

/**
 * What the telemetry listener works with: the severity of each action's record, and what it remembers per session,
 * the tools repeat-tool-reminder named since the person's last message. Bounded: the oldest sessions are dropped past
 * {@link SESSIONS}, and a session's tools past {@link TOOLS}.
 */
export interface TelemetryMarking {
  readonly severity: Readonly<Record<BrakeAction, Severity>>
  readonly reminded: Map<string, Set<string>>
}

const SESSIONS = 256
const TOOLS = 64

export function createTelemetryMarking(noticeSeverity: Severity = 'info'): TelemetryMarking {
  return { severity: actionSeverities(noticeSeverity), reminded: new Map() }
}

/**
 * The listener: marks the brake's own records, passes every other on as it came. It never throws. It reads only what
 * `next` returns (the record as the rules beneath it hand it back), never the record it was given.
 */
export function onTelemetryRecord(brake: Brake, marking: TelemetryMarking, next: () => TelemetryRecord): TelemetryRecord {
  // The rules beneath (redaction) run first: the marks are read from the body they hand back.
  const outbound = next()
  try {
    // Every record pays for this listener, and nearly all are not the brake's: one attribute, compared with three
    // strings, sends them on before anything else is read. The brake's actions are logged as these three event types
    // only (a notice or a cut's notice, a refused call's result, a stopped turn's end).
    const type = outbound.attributes['event.type']
    if (type !== 'user/message' && type !== 'tool/result' && type !== 'turn/end') return outbound
    if (outbound.channel !== 'ledger') return outbound
    const marks = marksOf(brake.name, marking, type, outbound)
    return marks === undefined ? outbound : marked(outbound, marks, marking.severity)
  } catch (error) {
    brake.contain('session-telemetry/record', error)
    return outbound
  }
}

/** The record with the action's severity and attributes (a new object: a record is never changed in place). */
export function marked(record: TelemetryRecord, marks: ActionMarks, severity: TelemetryMarking['severity']): TelemetryRecord {
  const attributes: Record<string, string | number | boolean> = { ...record.attributes, [ATTRIBUTES.action]: marks.action }
  if (marks.kind !== undefined) attributes[ATTRIBUTES.kind] = marks.kind
  if (marks.calls !== undefined) attributes[ATTRIBUTES.calls] = marks.calls
  if (marks.tool !== undefined) attributes[ATTRIBUTES.tool] = marks.tool
  if (marks.reminder !== undefined) attributes[ATTRIBUTES.reminder] = marks.reminder
  return { ...record, severity: severity[marks.action], attributes }
}

/** The marks of a record of one of the action event types, or undefined when it is not the brake's. */
export function marksOf(plugin: string, memory: Pick<TelemetryMarking, 'reminded'>, type: string, record: TelemetryRecord): ActionMarks | undefined {
  const body = record.body as Record<string, unknown> | null
  if (typeof body !== 'object' || body === null) return undefined
  let marks: ActionMarks | undefined
  switch (type) {
    case 'user/message': marks = noticeMarks(plugin, memory, record, body); break
    case 'tool/result': marks = refusalMarks(body); break
    case 'turn/end': marks = stopMarks(body); break
  }
  if (marks?.tool === undefined) return marks
  return { ...marks, reminder: memory.reminded.get(sessionOf(record))?.has(marks.tool) === true }
}

const sessionOf = (record: TelemetryRecord): string => String(record.attributes['session.id'])

/** A `user/message`: the brake's notice (or a cut's), or a message that resets or feeds the reminder memory. */
function noticeMarks(plugin: string, memory: Pick<TelemetryMarking, 'reminded'>, record: TelemetryRecord, body: Record<string, unknown>): ActionMarks | undefined {
  const source = body['source'] as { kind?: unknown; plugin?: unknown; summary?: unknown } | null | undefined
  if (typeof source !== 'object' || source === null) return undefined
  if (source.kind === 'user') {
    if (memory.reminded.size > 0) memory.reminded.delete(sessionOf(record))
    return undefined
  }
  if (source.kind !== 'plugin') return undefined
  if (source.plugin !== plugin) {
    const tool = reminderCall(source as { kind: 'plugin'; plugin?: unknown; summary?: unknown })
    if (tool !== undefined) remember(memory, sessionOf(record), tool)
    return undefined
  }
  return typeof source.summary === 'string' ? summaryMarks(source.summary) : { action: 'notice' }
}

function remember(memory: Pick<TelemetryMarking, 'reminded'>, session: string, tool: string): void {
  let tools = memory.reminded.get(session)
  if (tools === undefined) {
    if (memory.reminded.size >= SESSIONS) memory.reminded.delete(memory.reminded.keys().next().value!)
    memory.reminded.set(session, tools = new Set())
  }
  if (tools.size < TOOLS) tools.add(tool)
}

/** A `tool/result` whose first block is an error with this brake's refusal reason. */
function refusalMarks(body: Record<string, unknown>): ActionMarks | undefined {
  const message = body['message'] as { content?: unknown } | undefined
  const block = Array.isArray(message?.content) ? message.content[0] as { isError?: unknown; content?: unknown } : undefined
  if (block?.isError !== true || !Array.isArray(block.content)) return undefined
  const first = block.content[0] as { type?: unknown; text?: unknown } | undefined
  if (first?.type !== 'text' || typeof first.text !== 'string' || !isRefusalResult(first.text)) return undefined
  const found = readRefusal(first.text)
  // The reason counts the calls made before the refused one; the loop holds this attempt too.
  return found === undefined ? { action: 'refusal', kind: 'identical-calls' }
    : { action: 'refusal', kind: 'identical-calls', tool: found['tool']!, calls: Number(found['count']) + 1 }
}

/** A `turn/end` cancelled by a hook with this brake's stop reason. */
function stopMarks(body: Record<string, unknown>): ActionMarks | undefined {
  const reason = body['reason'] as { kind?: unknown; reason?: { kind?: unknown; reason?: unknown } } | undefined
  if (reason?.kind !== 'aborted' || reason.reason?.kind !== 'hook') return undefined
  const text = reason.reason.reason
  if (typeof text !== 'string' || !isStopReason(text)) return undefined
  return { action: 'stop', ...marksOfReading(readPhrase(stopPhraseOf(text))) }
}

/** A notice's marks from its summary: which loop, and what the summary names of it. */
function summaryMarks(summary: string): ActionMarks {
  const stopped = stoppedLoopSummary(summary)
  // The stop notice's summary names its loop by that loop's own summary: read it as one, as a notice.
  if (stopped !== undefined) return { ...summaryMarks(stopped), action: 'notice' }
  const reading = readSummary(summary)
  return { action: reading?.kind === 'runaway' ? 'cut' : 'notice', ...marksOfReading(reading) }
}

/**
 * What a summary or a phrase names of its loop: the kind, the tool where it names one, and the calls the loop took,
 * where it counts them (`count`, `calls` or `cuts`; a cycle's laps times the tools it lists, unless the list was cut
 * short).
 */
function marksOfReading(reading: Reading | undefined): Omit<ActionMarks, 'action'> {
  if (reading === undefined) return {}
  const { kind, fields } = reading
  const counted = fields['calls'] ?? fields['count'] ?? fields['cuts']
  const cycle = fields['cycle']
  const calls = counted !== undefined ? Number(counted)
    : fields['laps'] !== undefined && cycle !== undefined && !cycle.endsWith('…') ? Number(fields['laps']) * cycle.split(' → ').length
      : undefined
  return { kind, ...fields['tool'] === undefined ? {} : { tool: fields['tool'] }, ...calls === undefined ? {} : { calls } }
}
