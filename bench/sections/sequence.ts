/**
 * `sequence`: the brake's overhead per call on the generated trace with `sequenceLength` 2, 4, 8 and 16; what
 * watching for longer cycles costs.
 * @module
 */
import { host } from '../hosts.ts'
import { dispatch, rounds, TRACE_LENGTH } from '../measure.ts'
import { ratio, type Report } from '../report.ts'
import { trace } from '../trace.ts'

export async function sequenceLength(report: Report): Promise<void> {
  const calls = trace(TRACE_LENGTH / 2, 9)
  const none = await host('none')
  const lengths = [2, 4, 8, 16]
  const hosts = Object.fromEntries(await Promise.all(lengths.map(async l => [l, await host('brake', { sequenceLength: l })] as const)))
  for (const waterfall of [none, ...Object.values(hosts)]) await dispatch(waterfall, calls.slice(0, 10_000), {})
  const variants: Record<string, () => Promise<number>> = {
    none: () => dispatch(none, calls, {}),
    ...Object.fromEntries(lengths.map(l => [`s${l}`, () => dispatch(hosts[l]!, calls, {})])),
  }
  const t = await rounds(variants)
  const overhead = Object.fromEntries(lengths.map(l => [l, (t[`s${l}`]! - t['none']!) / calls.length]))
  report.figures['sequenceLength'] = { overheadNsPerCall: overhead, ratio16over2: overhead[16]! / overhead[2]! }
  report.row('overhead with sequenceLength 16 ÷ with 2', ratio(overhead[16]! / overhead[2]!), '', undefined)
  report.row('  (sequenceLength 2 / 4 / 8 / 16)', lengths.map(l => overhead[l]!.toFixed(0)).join(' / ') + ' ns', '', undefined)
}
