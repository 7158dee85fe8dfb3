/**
 * Every string the model reads, in one place. The README's Model Experience section quotes these templates
 * verbatim, and a test keeps the two in step.
 *
 * Each notice says what was seen (counts, identical arguments or text), names one concrete alternative, and quotes
 * at most a bounded preview, never the whole payload.
 * @module dsh-brake/messages
 */
import type { DuplicateTextFinding, RepeatedCallFinding, SequenceFinding } from './core/types.js'

/** Characters of canonical arguments quoted in a notice. */
export const ARGS_PREVIEW_CHARS = 200
/** Characters of a repeated text block quoted in a notice. */
export const TEXT_PREVIEW_CHARS = 120
/** Characters of a tool name, or of a source label, quoted anywhere. */
export const NAME_CHARS = 64
/** Longest notice summary (DSH's context-summary convention). */
export const SUMMARY_CHARS = 120
/** Repeated blocks listed in one duplicate-text notice; the rest are counted. */
export const LISTED_BLOCKS = 3

/** A notice's model-facing text and its one-line summary for the collapsed row. */
export interface NoticeText {
  readonly text: string
  readonly summary: string
}

/** The first line of every notice: who is speaking. */
export const NOTICE_PREFIX = '[dsh-brake]'

/** The advice closing a repeated-call notice. */
export const REPEATED_CALL_ADVICE = 'Calling it again will not tell you anything new. Use the result you already have, change the arguments, or take a different approach. If something is blocking you, stop and tell the user what it is.'

/** Added to a repeated-call notice in deny mode, before the call is refused. */
export const DENY_WARNING = 'Identical calls beyond {denyCount} are refused until the user speaks again.'

/** The advice closing a sequence notice. */
export const SEQUENCE_ADVICE = 'This cycle is not making progress. Change one of its steps (other arguments or another tool), or stop and tell the user what is blocking you.'

/** The advice closing a duplicate-text notice. */
export const DUPLICATE_TEXT_ADVICE = 'It repeats what you already have and is not a new instruction: do not redo work because of it. If it asks for something you cannot do, tell the user instead of trying again.'

/** The advice closing a refusal. */
export const DENIAL_ADVICE = 'Use the results you already have, change the arguments or the approach, or stop and tell the user what is blocking you. Identical calls are allowed again after the next user message.'

/**
 * The notice attached to the result of the call that reached a repeated-call threshold.
 * `denyCount` is given in deny mode while the call is still below it.
 */
export function repeatedCallNotice(found: RepeatedCallFinding, denyCount?: number): NoticeText {
  const tool = clip(found.tool, NAME_CHARS)
  const lines = [
    `${NOTICE_PREFIX} You have called \`${tool}\` with these exact arguments ${found.count} times since the last user message:`,
    clip(found.args, ARGS_PREVIEW_CHARS),
    REPEATED_CALL_ADVICE,
  ]
  if (denyCount !== undefined && found.count < denyCount) lines.push(DENY_WARNING.replace('{denyCount}', String(denyCount)))
  return { text: lines.join('\n'), summary: summary(`${tool} × ${found.count}, same arguments`) }
}

/** The notice attached to the result of the call that completed another lap of a call cycle. */
export function sequenceNotice(found: SequenceFinding): NoticeText {
  const cycle = found.tools.map(tool => clip(tool, NAME_CHARS)).join(' → ')
  return {
    text: [
      `${NOTICE_PREFIX} The same ${found.tools.length} calls have run ${found.laps} times in a row, each time with the same arguments: ${cycle}.`,
      SEQUENCE_ADVICE,
    ].join('\n'),
    summary: summary(`cycle × ${found.laps}: ${cycle}`),
  }
}

/** The notice appended before a step whose claimed messages repeat text the agent already received. */
export function duplicateTextNotice(found: DuplicateTextFinding): NoticeText {
  const within = duration(found.windowMs)
  const listed = found.blocks.slice(0, LISTED_BLOCKS).map(block => {
    const seen = block.count > found.threshold ? `${block.count} times, ${found.threshold} of them within ${within}` : `${block.count} times within ${within}`
    return `- ${seen}, from ${block.sources.join(', ')}: "${oneLine(block.head, TEXT_PREVIEW_CHARS, block.length)}"`
  })
  const more = found.blocks.length - listed.length
  if (more > 0) listed.push(`- and ${more} more repeated ${more === 1 ? 'block' : 'blocks'}`)
  const first = found.blocks[0]!
  return {
    text: [`${NOTICE_PREFIX} The same text keeps arriving in your context, unchanged:`, ...listed, DUPLICATE_TEXT_ADVICE].join('\n'),
    summary: summary(`repeated text × ${first.count} from ${first.sources[0] ?? 'unknown'}`),
  }
}

/** The reason a refused call returns to the model (DSH shows it as `Error: <reason>`). */
export function denialReason(tool: string, count: number): string {
  return `dsh-brake refused this call: \`${clip(tool, NAME_CHARS)}\` has already been called ${count} times with these exact arguments since the last user message, and another identical call will not give a different answer. ${DENIAL_ADVICE}`
}

/** How a message source is named in a notice: its kind, and the plugin where there is one. */
export function sourceLabel(source: { readonly kind: string; readonly plugin?: unknown }): string {
  const kind = clip(String(source.kind), NAME_CHARS)
  return typeof source.plugin === 'string' ? `${kind} ${clip(source.plugin, NAME_CHARS)}` : kind
}

/** `text` cut to `max` characters with a marker saying how much was left out; never splits a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const head = cut(text, max)
  return `${head}… (+${text.length - head.length} more chars)`
}

/** A block's beginning on one line (runs of whitespace folded), cut to `max`; `total` is the whole block's length. */
function oneLine(head: string, max: number, total: number): string {
  const folded = head.replace(/\s+/g, ' ').trim()
  if (folded.length <= max && head.length >= total) return folded
  return `${cut(folded, max)}…`
}

/** A one-line summary within {@link SUMMARY_CHARS}, the ellipsis included. */
function summary(text: string): string {
  return text.length <= SUMMARY_CHARS ? text : `${cut(text, SUMMARY_CHARS - 1)}…`
}

/** The first `max` UTF-16 code units of `text`, one fewer when that would split a surrogate pair. */
function cut(text: string, max: number): string {
  const end = Math.min(max, text.length)
  const last = text.charCodeAt(end - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end)
}

function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`
  if (ms % 60_000 === 0) return `${ms / 60_000} min`
  return `${Math.round(ms / 1000)} s`
}
