/**
 * What each of the detectors that read results beyond an exact repeat costs per call on the real runs, and what it
 * buys: copies of the built `dist/` with one of them left out (and one with all four left out), replayed beside the
 * whole brake, the reminder and no listener in balanced rounds, on the process's CPU clock. A detector's cost is what
 * leaving it out saves; what it buys is what the evaluation loses without it, scored on the copies this leaves in
 * node_modules/.cache/dsh-brake-detectors/ (the command for each is printed).
 *
 *   npm run build && node scripts/node.mjs --expose-gc --import ./scripts/ts-imports.mjs bench/detectors.ts [runs.jsonl.gz]
 *
 * BENCH_ROUNDS (default twice the builds timed, which balances their orders: 16, or 18 with a saved build);
 * BENCH_BASE, a saved build's entry to time beside them (`cp -r dist node_modules/.dist-base` on the commit to compare
 * with, after `npm run build`), such as the release before these detectors.
 * A detector is left out of the call detectors' list (`listBuild`): the reading of the result the detectors share is
 * still done.
 */
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { CallKind } from '../src/core/detectors/call-detectors.ts'
import { cacheDir, listBuild } from './builds.ts'
import { host, type Waterfall } from './hosts.ts'
import { realRunsSetup, replay, timedReplay } from './real-runs.ts'
import { balancedRounds, beforeTimedSample, median, roundOrder } from './rounds.ts'

/** The detectors that read results beyond an exact repeat, each left out in turn, then all four. */
const BEYOND_EXACT: readonly CallKind[] = ['near-duplicate', 'rereading', 'edit-revert', 'same-failure']
const LEFT_OUT: readonly { readonly name: string; readonly detectors: readonly CallKind[] }[] = [
  ...BEYOND_EXACT.map(detector => ({ name: `without ${detector}`, detectors: [detector] })),
  { name: 'without all four', detectors: BEYOND_EXACT },
]

const { real, gc } = await realRunsSetup()

const copies = join(cacheDir(), 'dsh-brake-detectors')
// Only this run's copies are left for the evaluation to score.
rmSync(copies, { recursive: true, force: true })
const hosts = new Map<string, Waterfall>([['none', await host('none')], ['reminder', await host('reminder')]])
const base = process.env['BENCH_BASE']
if (base !== undefined) hosts.set('saved build (BENCH_BASE)', await host('brake', {}, await import(pathToFileURL(resolve(base)).href) as object))
const paths = new Map<string, string>()
for (const { name, detectors } of LEFT_OUT) {
  const build = await listBuild(copies, name, kind => !detectors.includes(kind))
  hosts.set(name, await host('brake', {}, build.module))
  paths.set(name, build.path)
}
hosts.set('whole brake', await host('brake'))
const names = [...hosts.keys()]
for (const name of names) await replay(hosts.get(name)!, real)
const rounds = balancedRounds(names.length)

const samples = new Map<string, number[]>(names.map(name => [name, []]))
// What leaving a detector out saves, paired within each round (the machine's swings between rounds fall on both).
const saved = new Map<string, number[]>([...paths.keys()].map(name => [name, []]))
for (let round = 0; round < rounds; round++) {
  const times = new Map<string, number>()
  for (const name of roundOrder(names, round)) {
    beforeTimedSample(gc)
    times.set(name, await timedReplay(hosts.get(name)!, real, 'cpu'))
    samples.get(name)!.push(times.get(name)!)
  }
  for (const name of paths.keys()) saved.get(name)!.push(times.get('whole brake')! - times.get(name)!)
}
const none = median(samples.get('none')!)
const overhead = (name: string): number => median(samples.get(name)!) - none
const reminder = overhead('reminder')
console.log(`${real.runs.length} runs, ${real.calls} calls, ${rounds} rounds (CPU time); overhead per call past no listener:`)
for (const name of names.slice(1)) {
  const cost = overhead(name)
  const saves = saved.has(name) ? `  saves ${median(saved.get(name)!).toFixed(0)} ns (median of the rounds' differences)` : ''
  console.log(`  ${name.padEnd(36)} ${cost.toFixed(0).padStart(6)} ns  ${(cost / reminder).toFixed(2)}× the reminder${saves}`)
}
console.log('what each copy tells on the real runs:')
for (const [name, at] of paths) console.log(`  ${name}: npm run eval -- --plugin ${at}`)
