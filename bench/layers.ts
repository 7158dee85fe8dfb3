/**
 * Where the brake's cost per call goes on the real runs, layer by layer: builds that stop early, each a little later in
 * `tools/post-execute` than the one before (once the call is identified, once its result is read, once the call
 * history has its step: copies of the built `dist/` with a stop put in), then builds whose agents run the call
 * detectors' list up to one more each time (`listBuild`: the findings of those detectors are told, as the whole brake
 * tells them), replayed beside no listener, the reminder and the whole brake in balanced rounds, on the process's CPU
 * clock. A layer's cost is what it adds to the one before. Behaviour-blind by design: a build that stops early gives no
 * notices, so the layers after it are not paid for.
 *
 *   npm run build && node scripts/node.mjs --expose-gc --import ./scripts/ts-imports.mjs bench/layers.ts [runs.jsonl.gz]
 *
 * BENCH_ROUNDS (default: twice the builds timed, which balances their orders). Each stop is a `return` put in after a
 * line of the build, found by its text: a build whose code has moved on fails here by name, rather than measuring the
 * wrong thing.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { CALL_DETECTORS } from '../src/core/detectors/call-detectors.ts'
import { builtEntry, cacheDir, editedBuild, listBuild, onceIn } from './builds.ts'
import { host, type Waterfall } from './hosts.ts'
import { realRunsSetup, replay, timedReplay } from './real-runs.ts'
import { balancedRounds, beforeTimedSample, median, roundOrder } from './rounds.ts'

/** A build that stops after the line `after` (its text in dist/index.js, found once), with `stop` put in after it. */
interface Layer {
  readonly name: string
  readonly after: string
  readonly stop: string
}

// What a stopped build does with what it made: kept where the compiler cannot leave the work out.
const KEEP = 'globalThis.__dshBrakeLayer = '
const LAYERS: readonly Layer[] = [
  { name: 'identified', after: 'const identity = brake.identify(exec);\n  if (identity === void 0) return void 0;', stop: 'return void 0;' },
  { name: 'state found', after: 'const state = brake.stateOf(exec.agent);', stop: 'return void 0;' },
  { name: 'result read', after: 'const observation = observeCall(exec, identity, result, refused);', stop: `${KEEP}observation; return void 0;` },
  { name: 'window and history', after: 'const step = this.history.step(call, this.progress.observe(call));', stop: `${KEEP}step; return void 0;` },
]

/**
 * The detector layers: the list up to each of its call detectors, the first four as one (exact repetition), each with
 * the name of the detector it adds.
 */
const DETECTOR_LAYERS = CALL_DETECTORS.slice(3).map((entry, index) => ({
  name: index === 0 ? 'identical calls … same ground' : entry.kind,
  upTo: index + 4,
}))

const source = builtEntry()
const copies = mkdtempSync(join(cacheDir(), 'dsh-brake-layers-'))

/** A copy of dist/ whose entry stops after `layer`'s line. */
async function stoppedBuild(layer: Layer): Promise<object> {
  const end = onceIn(source, layer.after, `the ${layer.name} layer`) + layer.after.length
  return (await editedBuild(copies, layer.name, `${source.slice(0, end)} ${layer.stop}${source.slice(end)}`)).module
}

const { real, gc } = await realRunsSetup()

const hosts = new Map<string, Waterfall>([['none', await host('none')], ['reminder', await host('reminder')]])
try {
  for (const layer of LAYERS) hosts.set(layer.name, await host('brake', {}, await stoppedBuild(layer)))
  for (const { name, upTo } of DETECTOR_LAYERS.slice(0, -1)) {
    const kept = new Set(CALL_DETECTORS.slice(0, upTo).map(entry => entry.kind))
    hosts.set(name, await host('brake', {}, (await listBuild(copies, name, kind => kept.has(kind))).module))
  }
} finally {
  // Every copy is loaded by now (or the run has failed): the files are no longer needed.
  rmSync(copies, { recursive: true, force: true })
}
hosts.set('whole brake', await host('brake'))
const names = [...hosts.keys()]
for (const name of names) await replay(hosts.get(name)!, real)
const rounds = balancedRounds(names.length)

const samples = new Map<string, number[]>(names.map(name => [name, []]))
for (let round = 0; round < rounds; round++) {
  for (const name of roundOrder(names, round)) {
    beforeTimedSample(gc)
    samples.get(name)!.push(await timedReplay(hosts.get(name)!, real, 'cpu'))
  }
}
const none = median(samples.get('none')!)
const overhead = (name: string): number => median(samples.get(name)!) - none
const reminder = overhead('reminder')
console.log(`${real.runs.length} runs, ${real.calls} calls, ${rounds} rounds (CPU time); overhead per call past no listener:`)
console.log(`  ${'repeat-tool-reminder'.padEnd(36)} ${reminder.toFixed(0).padStart(6)} ns`)
let before = 0
for (const name of names.slice(2)) {
  const cost = overhead(name)
  const step = cost - before
  const added = `  (${step < 0 ? '−' : '+'}${Math.abs(step).toFixed(0)} ns${name === 'whole brake' ? `: ${CALL_DETECTORS.at(-1)!.kind}` : ''})`
  console.log(`  ${`brake: ${name}`.padEnd(36)} ${cost.toFixed(0).padStart(6)} ns  ${(cost / reminder).toFixed(2)}× the reminder${added}`)
  before = cost
}
