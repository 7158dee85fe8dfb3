/**
 * `scaling`: the brake's cost per call after 1e3, 1e4, 1e5 and 1e6 calls of one agent, on the process's CPU clock;
 * what a long session costs against a short one.
 * @module
 */
import { host, type Waterfall } from '../hosts.ts'
import { dispatch, gc } from '../measure.ts'
import { ratio, type Report } from '../report.ts'
import { median, roundOrder } from '../rounds.ts'
import { random, type TraceCall } from '../trace.ts'

/** Calls a point is timed over. */
const WINDOW = 2_000
const LENGTHS = [1_000, 10_000, 100_000, 1_000_000] as const
// A window is 2 000 calls, tens of milliseconds: one per point and round left the point after 1e3 calls anywhere
// from 9.3 to 16.0 µs a call across runs. So each point is timed `WINDOWS` times a round: on as many agents of its
// length where a window would move it on far (up to 1e4 calls, cheap to make), on one agent otherwise (a window
// moves an agent of 1e5 calls on by 2 %, and one of 1e6, its tables long full, not at all).
const WINDOWS = 4
const FRESH_UP_TO = 10_000
const agentsOf = (length: number): number => length <= FRESH_UP_TO ? WINDOWS : 1

/** `count` calls of a session, the first of them its call number `from`. */
type Calls = (from: number, count: number) => TraceCall[]

/** Small distinct calls with 15 % repeats of the last few, drawn from `next`: what a long session looks like to the state. */
function sessionCalls(next: () => number, from: number, count: number): TraceCall[] {
  return Array.from({ length: count }, (_, k) => {
    const i = next() < 0.15 ? Math.max(0, from + k - 1 - Math.floor(next() * 8)) : from + k
    return { name: 'read', args: Object.freeze({ file_path: `src/f-${i}.ts` }), result: Object.freeze({ isError: false, content: Object.freeze([Object.freeze({ type: 'text' as const, text: `contents ${i % 97}` })]) }) }
  })
}

/** Agents of each length, `agentsOf(length)` of each, made by dispatching `calls` through `waterfall`. */
async function agentsOfEachLength(waterfall: Waterfall, calls: Calls): Promise<Map<number, object[]>> {
  const agents = new Map<number, object[]>()
  for (const length of LENGTHS) {
    const made: object[] = []
    for (let n = 0; n < agentsOf(length); n++) {
      const agent = {}
      for (let done = 0; done < length; done += 50_000) await dispatch(waterfall, calls(done, Math.min(50_000, length - done)), agent)
      made.push(agent)
    }
    agents.set(length, made)
  }
  return agents
}

export async function scaling(report: Report): Promise<void> {
  const next = random(3)
  const calls: Calls = (from, count) => sessionCalls(next, from, count)
  const waterfall = await host('brake')
  await dispatch(waterfall, calls(0, 50_000), {}) // warm the JIT up on a throwaway agent
  const samples = new Map<number, number[]>(LENGTHS.map(length => [length, []]))
  // Each round makes agents of each length, then times windows on each in a balanced order: the four points of a
  // round are timed within a second of one another, so a swing of the machine falls on all of them rather than on
  // whichever length was measured during it (timed one length after the other, the points moved by up to 1.6× between
  // runs). Two cycles of the balanced order of four lengths; on the process's CPU clock, which other work on the
  // machine moves less than the wall's.
  for (let round = 0; round < 2 * LENGTHS.length; round++) {
    const agents = await agentsOfEachLength(waterfall, calls)
    for (const length of roundOrder(LENGTHS.map(String), round).map(Number)) {
      const made = agents.get(length)!
      for (let window = 0; window < WINDOWS; window++) {
        gc()
        // A forced collection leaves V8 slower for tens of milliseconds (see the text section), longer than the window
        // takes: the same number of calls goes through another agent first, so the window reads this agent's state.
        await dispatch(waterfall, calls(length, WINDOW), {})
        samples.get(length)!.push(await dispatch(waterfall, calls(length, WINDOW), made[window % made.length]!, 'cpu') / WINDOW)
      }
    }
  }
  const cost = Object.fromEntries(LENGTHS.map(length => [length, median(samples.get(length)!)])) as Record<number, number>
  const growth = cost[1_000_000]! / cost[1_000]!
  report.figures['scaling'] = { windowCalls: WINDOW, windowsPerRound: WINDOWS, nsPerCallAfter: cost, ratio1e6over1e3: growth }
  report.row('per-call cost after 1e6 calls ÷ after 1e3', ratio(growth), '≤ 1.25×', growth <= 1.25)
  report.row('  (after 1e3 / 1e4 / 1e5 / 1e6 calls)', LENGTHS.map(n => cost[n]!.toFixed(0)).join(' / ') + ' ns', '', undefined)
}
