/**
 * Deny mode in words: the reason a refused call returns to the model, and when a notice warns of the refusals to come.
 * @module dsh-brake/messages/refusals
 */
import { KINDS, type LoopFinding } from '../core/kinds.js'
import { fill } from '../words/template.js'
import { clip } from '../words/text.js'
import { NAME_CHARS } from './limits.js'
import { DENIAL_REASON, DENIAL_REFUSED, DENIAL_TERMS } from './templates.js'

/**
 * The refusal reason of deny mode, for progress-aware or plain counting: `ran` identical calls ran, and `refused` more
 * were refused before this one.
 */
export function denialReason(tool: string, ran: number, progressAware = true, refused = 0): string {
  const terms = progressAware ? DENIAL_TERMS.progress : DENIAL_TERMS.plain
  const before = refused === 0 ? '' : refused === 1 ? DENIAL_REFUSED.one : fill(DENIAL_REFUSED.more, { refused: String(refused) })
  return fill(DENIAL_REASON, { tool: clip(tool, NAME_CHARS), count: String(ran), refused: before, ...terms })
}

/**
 * Whether a notice leading with `finding` warns of refusals: its calls repeat exactly (a repeat, a cycle, a run; not one
 * error across arguments, nor responses, nor calls that differ or made changes), and a repeated call is still below the
 * deny count; a poller is never refused.
 */
export function warnsOfRefusals(finding: LoopFinding, denyCount: number): boolean {
  if (!KINDS[finding.kind].repeatsExactly) return false
  return finding.kind !== 'identical-calls' || (finding.toolClass !== 'poller' && finding.count < denyCount)
}
