/**
 * The notices as the plugin sends them: one about a loop at one call (its strongest evidence, what else the loop shows,
 * deny mode's warning), the duplicate-text notice, and the stop's reason and notice.
 * @module dsh-brake/messages/notices
 */
import type { DuplicateTextFinding, LoopFinding } from '../core/kinds.js'
import type { StopCause } from '../core/stops.js'
import type { Told } from '../core/voice.js'
import { fill } from '../words/template.js'
import { clip, fit } from '../words/text.js'
import { NAME_CHARS, SUMMARY_CHARS } from './limits.js'
import { warnsOfRefusals } from './refusals.js'
import { ALSO_LINE, DENY_WARNING, STOP_NOTICE, STOP_REASON, STOP_SUMMARY, SUBAGENT_STOPPED_LINE } from './templates.js'
import { wordingOf, type NoticeText } from './wording.js'


/**
 * The one notice about a loop at one call: its strongest evidence, then what else the same loop shows, then, in deny
 * mode (`denyCount` given), the refusals to come for calls that repeat exactly.
 */
export function loopNotice(told: Told, denyCount?: number): NoticeText {
  const { finding, also, again } = told
  const lead = wordingOf(finding, again).notice()
  let text = lead.text
  if (also.length > 0) text += `\n${fill(ALSO_LINE, { loops: also.map(other => wordingOf(other).phrase(false)).join('; ') })}`
  if (denyCount !== undefined && warnsOfRefusals(finding, denyCount)) text += `\n${fill(DENY_WARNING, { denyCount: String(denyCount) })}`
  return { text, summary: lead.summary }
}

/** The notice for one finding alone: a loop's notice before anything else about the loop is added. */
export function findingNotice(found: LoopFinding): NoticeText {
  return wordingOf(found).notice()
}

/** The duplicate-text notice: the blocks that repeated, each with its count, sources and a preview. */
export function duplicateTextNotice(found: DuplicateTextFinding): NoticeText {
  return wordingOf(found).notice()
}

/** The reason a stop gives the person (and the session log, a blocked goal, a parent). */
export function stopReason(cause: StopCause): string {
  return fill(STOP_REASON, { loop: stopPhrase(cause) })
}

/** The notice that waits for the model's next turn after a stop. */
export function stopNotice(cause: StopCause): NoticeText {
  // The loop's summary is clipped, not the row's last words: what to do next must survive the bound.
  const room = SUMMARY_CHARS - (STOP_SUMMARY.length - '{loop}'.length)
  const named = wordingOf(cause.loop)
  const loop = fit(named.label?.() ?? named.notice().summary, room)
  return { text: fill(STOP_NOTICE, { loop: stopPhrase(cause) }), summary: fill(STOP_SUMMARY, { loop }) }
}

/** The loop as a stop names it, in a sentence the template ends: a quoted error's own full stop is left out. */
function stopPhrase(cause: StopCause): string {
  return wordingOf(cause.loop).phrase(cause.refused).replace(/\.+$/, '')
}

/** The line a parent's failed delegation result gains when the brake stopped the subagent. */
export function subagentStoppedLine(reason: string): string {
  return fill(SUBAGENT_STOPPED_LINE, { reason })
}

/** How a message source is named in a notice: its kind, and the plugin where there is one. */
export function sourceLabel(source: { readonly kind: unknown; readonly plugin?: unknown }): string {
  const kind = clip(String(source.kind), NAME_CHARS)
  return typeof source.plugin === 'string' ? `${kind} ${clip(source.plugin, NAME_CHARS)}` : kind
}

