/**
 * The doctor's note on repeat-tool-reminder: whether it runs beside dsh-brake in the profile, and what the model then
 * hears of identical calls, with the brake's mode and counts in force. Both tell of identical calls, so a user who
 * keeps both should know which of them speaks at which call.
 * Design: docs/design.md#source-layout; what the doctor checks: docs/install.md
 * @module dsh-brake/cli/doctor-reminder
 */
import { DEFAULTS, type Config } from '../config/keys.js'
import { effectiveRow, type PatchRow } from '../dsh-files/patch-file.js'

const REMINDER = 'repeat-tool-reminder'
/** The stock bundle that mounts repeat-tool-reminder in every profile DSH ships. */
const BASE_BUNDLE = '@deepseek-ai/dsh-base'
/** The identical calls in a row repeat-tool-reminder speaks at, by default. */
const REMINDER_COUNTS = [3, 5, 8]

/** The counts and mode the reminder's note needs. */
export type ReminderCounts = Pick<Config, 'mode' | 'callWarnCount' | 'callDenyCount' | 'callReWarnEvery'>

/** A row's own values for the note, where the brake refuses its config (each value that is not usable, its default). */
export function rowValues(row: PatchRow | undefined): ReminderCounts {
  const config = (typeof row?.config === 'object' && row.config !== null ? row.config : {}) as Record<string, unknown>
  const mode = config['mode']
  return {
    mode: mode === 'deny' || mode === 'stop' ? mode : 'remind',
    callWarnCount: validCount(config['callWarnCount'], DEFAULTS.callWarnCount),
    callDenyCount: validCount(config['callDenyCount'], DEFAULTS.callDenyCount),
    callReWarnEvery: validCount(config['callReWarnEvery'], DEFAULTS.callReWarnEvery),
  }
}

/**
 * Whether repeat-tool-reminder runs beside dsh-brake, and what the model then hears of identical calls, with the mode
 * and counts in force (`brake`: the settings section over the row).
 */
export function reminderNote(
  bundles: readonly string[], rows: readonly { file: string; row: PatchRow }[], brake: ReminderCounts, note: (line: string) => void,
): void {
  const disabledBy = effectiveRow(rows.map(({ row }) => row), REMINDER).disabledBy
  const off = rows.find(({ row }) => row === disabledBy)
  if (!bundles.includes(BASE_BUNDLE)) {
    note(`repeat-tool-reminder does not run here (the profile does not load ${BASE_BUNDLE}): only dsh-brake tells the model about repeats`)
  } else if (off !== undefined) {
    note(`repeat-tool-reminder is turned off (${off.file}:${off.row.line}): only dsh-brake tells the model about repeats`)
  } else {
    note(`repeat-tool-reminder runs beside it (${BASE_BUNDLE} mounts it): it tells the model of the 3rd, 5th and 8th identical call `
      + `in a row, and dsh-brake, which hears it, does not say the same again: ${besideReminder(brake)}. `
      + 'Keep both for its early nudge, or turn it off to hear only dsh-brake: add `- id: repeat-tool-reminder` with `disabled: true` to cordis.patch.yml')
  }
}

/**
 * What dsh-brake does on identical calls beside the reminder. Its notices fall on the call of `callWarnCount`, then
 * every `callReWarnEvery` calls; one within `callReWarnEvery` calls after a reminder's is not given, whatever the
 * mode. In deny and stop modes, attempts after `callDenyCount` are refused, and a refused call carries no notice; in
 * stop mode the turn ends at the second notice or the first refusal, whichever comes first.
 */
function besideReminder({ mode, callWarnCount, callDenyCount, callReWarnEvery: every }: ReminderCounts): string {
  const heard = (at: number): boolean => REMINDER_COUNTS.some(count => count < at && at - count < every)
  const notices: number[] = []
  for (let at = callWarnCount; notices.length < 2; at += every) if (!heard(at)) notices.push(at)
  const first = notices[0]!
  if (mode === 'remind') return `on such a call dsh-brake speaks at the ${ordinal(first)}, and of any other loop on its own schedule`
  const refused = callDenyCount + 1
  if (first >= refused) {
    return `on such a call dsh-brake gives no notice of its own before it refuses, from the ${ordinal(refused)} identical attempt on, `
      + (mode === 'stop' ? 'and that first refusal ends the turn; of any other loop it speaks on its own schedule' : 'and of any other loop it speaks on its own schedule')
  }
  const speaks = `on such a call dsh-brake speaks at the ${ordinal(first)} and refuses from the ${ordinal(refused)} identical attempt on`
  if (mode === 'deny') return `${speaks}, and of any other loop on its own schedule`
  const second = notices[1]!
  const ends = second < refused ? `at the ${ordinal(second)} call, in place of its second notice` : 'at its first refusal'
  return `${speaks}; the turn ends ${ends}, and of any other loop it speaks on its own schedule`
}

function validCount(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 ? value : fallback
}

function ordinal(count: number): string {
  const tens = count % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][count % 10] ?? 'th'
  return `${count}${suffix}`
}
