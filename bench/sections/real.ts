/**
 * `real`: the brake's `tools/post-execute` overhead per call on real agent runs (the trace file named on the command
 * line, by default the development set beside the project), against repeat-tool-reminder's and a listener that only
 * identifies each call and reads its result once. Left out, and said so, when there is no trace file.
 * @module
 */
import { host } from '../hosts.ts'
import { rounds } from '../measure.ts'
import { loadRealRuns, replay, tracePath, type RealRuns } from '../real-runs.ts'
import { ratio, type Report } from '../report.ts'

export async function realRuns(report: Report): Promise<void> {
  const path = tracePath()
  const real = await loadRealRuns(path)
  if (real === undefined) {
    report.row('post-execute overhead on real runs', 'no trace file', '', undefined)
    console.error(`no real runs at ${path} (give a trace file's path: npm run bench -- file.jsonl.gz); left out`)
  } else {
    await replayed(report, real)
  }
}

async function replayed(report: Report, real: RealRuns): Promise<void> {
  const hosts = { none: await host('none'), reading: await host('reading'), reminder: await host('reminder'), brake: await host('brake') }
  for (const waterfall of Object.values(hosts)) await replay(waterfall, real)
  const t = await rounds({
    none: () => replay(hosts.none, real), reading: () => replay(hosts.reading, real), reminder: () => replay(hosts.reminder, real),
    brake: () => replay(hosts.brake, real),
  })
  const perCall = (ns: number): number => ns / real.calls
  const reminderCost = perCall(t.reminder - t.none)
  const brakeCost = perCall(t.brake - t.none)
  const readingCost = perCall(t.reading - t.none)
  report.figures['realRuns'] = {
    path: real.path, runs: real.runs.length, calls: real.calls, meanResultChars: real.resultChars / real.calls,
    nsPerCall: { noListener: perCall(t.none), reminder: perCall(t.reminder), brake: perCall(t.brake) },
    overheadNs: { reminder: reminderCost, brake: brakeCost, reading: readingCost }, brakeOverReminder: brakeCost / reminderCost,
    readingOverReminder: readingCost / reminderCost,
  }
  report.row('post-execute overhead ÷ the reminder\'s, real runs', ratio(brakeCost / reminderCost), '≤ 1.00×', brakeCost / reminderCost <= 1)
  report.row(`  (${real.runs.length} runs, ${real.calls} calls, ${(real.resultChars / real.calls / 1024).toFixed(1)} KB a result; brake / reminder)`, `${brakeCost.toFixed(0)} / ${reminderCost.toFixed(0)} ns`, '', undefined)
  // The floor of reading results: a listener that only identifies each call and fingerprints its result once.
  report.row('  (a listener that only identifies the call and reads its result once ÷ the reminder)', ratio(readingCost / reminderCost), '', undefined)
}
