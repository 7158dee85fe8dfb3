/**
 * `calls`: the brake's `tools/post-execute` overhead per call on the generated trace, against repeat-tool-reminder's,
 * a listener that does nothing, and `JSON.stringify` of the arguments.
 * @module
 */
import { host } from '../hosts.ts'
import { dispatch, ROUNDS, rounds, TRACE_LENGTH } from '../measure.ts'
import { ratio, type Report } from '../report.ts'
import { trace } from '../trace.ts'

export async function perCall(report: Report): Promise<void> {
  const calls = trace(TRACE_LENGTH)
  const hosts = { none: await host('none'), noop: await host('noop'), reminder: await host('reminder'), brake: await host('brake') }
  // Warm every path up before measuring.
  for (const waterfall of Object.values(hosts)) await dispatch(waterfall, calls.slice(0, 20_000), {})
  const stringify = (): Promise<number> => {
    const start = process.hrtime.bigint()
    let sink = 0
    for (const call of calls) sink += JSON.stringify(call.args).length
    if (sink === -1) console.log(sink)
    return Promise.resolve(Number(process.hrtime.bigint() - start))
  }
  const t = await rounds({
    none: () => dispatch(hosts.none, calls, {}),
    noop: () => dispatch(hosts.noop, calls, {}),
    reminder: () => dispatch(hosts.reminder, calls, {}),
    brake: () => dispatch(hosts.brake, calls, {}),
    stringify,
  })
  const perCall = (ns: number): number => ns / TRACE_LENGTH
  const noopCost = perCall(t.noop - t.none)
  const reminderCost = perCall(t.reminder - t.none)
  const brakeCost = perCall(t.brake - t.none)
  const stringifyCost = perCall(t.stringify)
  report.figures['perCall'] = {
    calls: TRACE_LENGTH, rounds: ROUNDS,
    nsPerCall: { noListener: perCall(t.none), noopListener: perCall(t.noop), reminder: perCall(t.reminder), brake: perCall(t.brake) },
    overheadNs: { noopListener: noopCost, reminder: reminderCost, brake: brakeCost }, jsonStringifyNs: stringifyCost,
    brakeOverReminder: brakeCost / reminderCost, brakeOverStringify: brakeCost / stringifyCost,
    brakeOwnWorkOverStringify: (brakeCost - noopCost) / stringifyCost,
  }
  report.row('post-execute overhead ÷ the reminder\'s, generated trace', ratio(brakeCost / reminderCost), '≤ 1.00×', brakeCost / reminderCost <= 1)
  report.row('post-execute overhead ÷ JSON.stringify(arguments)', ratio(brakeCost / stringifyCost), '≤ 2.00×', brakeCost / stringifyCost <= 2)
  report.row('  (overhead per call: brake / reminder / no-op listener / stringify)', `${brakeCost.toFixed(0)} / ${reminderCost.toFixed(0)} / ${noopCost.toFixed(0)} / ${stringifyCost.toFixed(0)} ns`, '', undefined)
  // What any listener costs before doing anything (Cordis wraps each listener and traces its arguments) is not the
  // brake's to cut: shown apart, so the brake's own work can be read against the serialization too.
  report.row('  (own work past a no-op listener ÷ JSON.stringify)', ratio((brakeCost - noopCost) / stringifyCost), '', undefined)
}
