/**
 * A change's cost on the real runs, against a saved build: the brake's `tools/post-execute` overhead per call, the
 * current `dist/` against another build, replayed in interleaved rounds (the order rotating each round) beside no
 * listener and repeat-tool-reminder, so that the machine's swings fall on all alike. Each round gives its own ratio;
 * the median of those is the figure to read, and an A/A run (the same build on both sides) shows the noise.
 *
 *   cp -r dist node_modules/.dist-base        # on the commit to compare with, after `npm run build`
 *   npm run build && node scripts/node.mjs --expose-gc --import ./scripts/ts-imports.mjs bench/compare.ts [runs.jsonl.gz]
 *
 * BENCH_BASE: the saved build's entry (default node_modules/.dist-base/index.js); BENCH_ROUNDS (default 16, a multiple
 * of 8 keeps the orders balanced);
 * BENCH_CLOCK=cpu to time the process's CPU rather than the wall; BENCH_COLLECT=each to force a full collection
 * before each timed replay (`beforeTimedSample`, rounds.ts); BENCH_RESULTS=empty to replay the runs with every
 * result's text emptied (`withEmptyResults`: the brake's work per call before it reads any result). With BENCH_PROFILE=file.cpuprofile (or
 * BENCH_ALLOCATIONS=file.heapprofile, every allocation sampled, collected ones included) the current build alone is
 * replayed under V8's profiler instead, loading left out: open the file in Chrome's DevTools.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { host, type Waterfall } from './hosts.ts'
import { realRunsSetup, replay, timedReplay, withEmptyResults } from './real-runs.ts'
import { balancedRounds, beforeTimedSample, median, roundOrder } from './rounds.ts'

const setup = await realRunsSetup()
const real = process.env['BENCH_RESULTS'] === 'empty' ? withEmptyResults(setup.real) : setup.real
const { gc } = setup
// No listener, the reminder, the saved build and this one, in two cycles of balanced orders.
const rounds = balancedRounds(4, 2)
const cpuClock = process.env['BENCH_CLOCK'] === 'cpu'

const clock = cpuClock ? 'cpu' : 'wall'

const profileTo = process.env['BENCH_PROFILE']
const allocationsTo = process.env['BENCH_ALLOCATIONS']
if (profileTo !== undefined || allocationsTo !== undefined) {
  const brake = await host('brake')
  // Warmed up first, so the profile shows the steady state, not the compiler.
  for (let i = 0; i < 2; i++) await replay(brake, real)
  const session = new Session()
  session.connect()
  if (profileTo !== undefined) {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: 100 })
    await session.post('Profiler.start')
  } else {
    await session.post('HeapProfiler.enable')
    await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  }
  for (let i = 0; i < rounds; i++) await replay(brake, real)
  const { profile } = profileTo !== undefined ? await session.post('Profiler.stop') : await session.post('HeapProfiler.stopSampling')
  writeFileSync(profileTo ?? allocationsTo!, JSON.stringify(profile))
  console.log(`${profileTo ?? allocationsTo}: ${rounds} replays of ${real.calls} calls`)
} else {
  const base = resolve(process.env['BENCH_BASE'] ?? fileURLToPath(new URL('../node_modules/.dist-base/index.js', import.meta.url)))
  const hosts: Record<string, Waterfall> = {
    none: await host('none'),
    reminder: await host('reminder'),
    base: await host('brake', {}, await import(pathToFileURL(base).href) as object),
    current: await host('brake'),
  }
  const names = Object.keys(hosts)
  for (const name of names) await replay(hosts[name]!, real)
  const samples: Record<string, number[]> = Object.fromEntries(names.map(name => [name, []]))
  const ratios: number[] = []
  for (let round = 0; round < rounds; round++) {
    const times: Record<string, number> = {}
    for (const name of roundOrder(names, round)) {
      beforeTimedSample(gc)
      times[name] = await timedReplay(hosts[name]!, real, clock)
      samples[name]!.push(times[name])
    }
    ratios.push((times['current']! - times['none']!) / (times['base']! - times['none']!))
  }
  const none = median(samples['none']!)
  const overhead = (name: string): number => median(samples[name]!) - none
  console.log(`${real.runs.length} runs, ${real.calls} calls, ${rounds} rounds (${cpuClock ? 'CPU' : 'wall'} time); overhead per call:`)
  console.log(`  reminder ${overhead('reminder').toFixed(0)} ns, base ${overhead('base').toFixed(0)} ns, current ${overhead('current').toFixed(0)} ns`)
  console.log(`  current ÷ base: ${median(ratios).toFixed(3)}× (median of each round's ratio; ${(overhead('current') / overhead('base')).toFixed(3)}× of the medians)`)
  console.log(`  current ÷ reminder: ${(overhead('current') / overhead('reminder')).toFixed(2)}×, base ÷ reminder: ${(overhead('base') / overhead('reminder')).toFixed(2)}×`)
  // The spread of the rounds' ratios: a figure read without it cannot be told from the machine's swings.
  const sorted = [...ratios].sort((a, b) => a - b)
  const quartile = (q: number): string => sorted[Math.round(q * (sorted.length - 1))]!.toFixed(3)
  console.log(`  current ÷ base, the rounds' ratios: min ${quartile(0)}, quartiles ${quartile(0.25)} / ${quartile(0.75)}, max ${quartile(1)}`)
}
