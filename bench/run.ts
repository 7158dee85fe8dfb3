/**
 * `npm run bench`: what dsh-brake costs, measured against baselines in the same run and reported as ratios (medians
 * over repeated, interleaved rounds). Everything goes through a real Cordis waterfall, exactly as DSH dispatches
 * `tools/post-execute` and `agent/pre-step`; the plugin is the built `dist/`. Figures are printed as a table and
 * written to bench/results/latest.json. Set BENCH_ROUNDS to trade time for stability (default 11).
 *
 * `npm run bench -- [traces.jsonl.gz]`: real agent runs to replay beside the generated trace (by default
 * `../shared/real-traces/dev.jsonl.gz` when it is there; without any, that figure is left out).
 */
import { spawnSync } from 'node:child_process'
import { hash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { notice } from '../src/dsh/notices.ts'
import { createTelemetryMarking, onTelemetryRecord } from '../src/dsh/telemetry.ts'
import { findingNotice } from '../src/messages/notices.ts'
import { readSessionLog } from '../src/session-logs/decode.ts'
import { sessionFiles } from '../src/session-logs/find.ts'
import { makeArchive, PER_PROJECT } from './archive.ts'
import { Context } from '@deepseek-ai/cordis'
import * as Brake from '../dist/index.js'
import { accept, execution, host, signal, type Waterfall } from './hosts.ts'
import { loadRealRuns, replay, type RealRuns } from './real-runs.ts'
import { median, roundOrder } from './rounds.ts'
import { random, text, trace, type TraceCall } from './trace.ts'

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 11)
/**
 * Run only some sections, e.g. BENCH_ONLY=memory,text (sections: calls, real, scaling, sequence, text, memory, stream,
 * analyze, telemetry).
 */
const ONLY = process.env['BENCH_ONLY']?.split(',')
const section = (name: string): boolean => ONLY === undefined || ONLY.includes(name)
const TRACE_LENGTH = 100_000
const REAL_TRACES = resolve(process.argv[2] ?? fileURLToPath(new URL('../../shared/real-traces/dev.jsonl.gz', import.meta.url)))
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error('run with node --expose-gc (npm run bench does)')

/**
 * Run `calls` through post-execute for `agent` (`{}` for a fresh one); returns nanoseconds, on the wall clock or the
 * process's CPU clock.
 */
async function dispatch(waterfall: Waterfall, calls: readonly TraceCall[], agent: object, clock: 'wall' | 'cpu' = 'wall'): Promise<number> {
  const start = process.hrtime.bigint()
  const cpu = process.cpuUsage()
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i]!
    await waterfall('tools/post-execute', execution(call.name, call.args, agent, i), call.result, accept)
  }
  if (clock === 'wall') return Number(process.hrtime.bigint() - start)
  const used = process.cpuUsage(cpu)
  return (used.user + used.system) * 1000
}

/**
 * Time each variant `ROUNDS` times, interleaved so drift hits all alike, in orders that balance which runs after which
 * (`roundOrder`); returns the median ns of each. A full collection runs before each sample, so one variant's garbage
 * is not collected on another's time.
 */
async function rounds<K extends string>(variants: Record<K, () => Promise<number>>): Promise<Record<K, number>> {
  const samples = Object.fromEntries(Object.keys(variants).map(k => [k, [] as number[]])) as Record<K, number[]>
  for (let round = 0; round < ROUNDS; round++) {
    for (const key of roundOrder(Object.keys(variants) as K[], round)) {
      gc!()
      samples[key].push(await variants[key]())
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v as number[])])) as Record<K, number>
}

/** Memory once the collector has run to the end (three full collections, each followed by a turn of the loop). */
async function afterCollection(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i++) {
    gc!()
    await new Promise(resolve => setImmediate(resolve))
  }
  return process.memoryUsage()
}

const figures: Record<string, unknown> = {}
const rows: [string, string, string, string][] = []
const ratio = (value: number): string => `${value.toFixed(2)}×`
function report(name: string, value: string, target: string, met: boolean | undefined): void {
  rows.push([name, value, target, met === undefined ? '' : met ? 'met' : 'MISSED'])
}

// ── 1. per-call overhead ─────────────────────────────────────────────────────────────────────────────────────────
if (section('calls')) {
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
  figures['perCall'] = {
    calls: TRACE_LENGTH, rounds: ROUNDS,
    nsPerCall: { noListener: perCall(t.none), noopListener: perCall(t.noop), reminder: perCall(t.reminder), brake: perCall(t.brake) },
    overheadNs: { noopListener: noopCost, reminder: reminderCost, brake: brakeCost }, jsonStringifyNs: stringifyCost,
    brakeOverReminder: brakeCost / reminderCost, brakeOverStringify: brakeCost / stringifyCost,
    brakeOwnWorkOverStringify: (brakeCost - noopCost) / stringifyCost,
  }
  report('post-execute overhead ÷ the reminder\'s, generated trace', ratio(brakeCost / reminderCost), '≤ 1.00×', brakeCost / reminderCost <= 1)
  report('post-execute overhead ÷ JSON.stringify(arguments)', ratio(brakeCost / stringifyCost), '≤ 2.00×', brakeCost / stringifyCost <= 2)
  report('  (overhead per call: brake / reminder / no-op listener / stringify)', `${brakeCost.toFixed(0)} / ${reminderCost.toFixed(0)} / ${noopCost.toFixed(0)} / ${stringifyCost.toFixed(0)} ns`, '', undefined)
  // What any listener costs before doing anything (Cordis wraps each listener and traces its arguments) is not the
  // brake's to cut: shown apart, so the brake's own work can be read against the serialization too.
  report('  (own work past a no-op listener ÷ JSON.stringify)', ratio((brakeCost - noopCost) / stringifyCost), '', undefined)
}

// ── 1b. per-call overhead on real runs ──────────────────────────────────────────────────────────────────────────
if (section('real')) {
  const real = await loadRealRuns(REAL_TRACES)
  if (real === undefined) {
    report('post-execute overhead on real runs', 'no trace file', '', undefined)
    console.error(`no real runs at ${REAL_TRACES} (give a trace file's path: npm run bench -- file.jsonl.gz); left out`)
  } else {
    await realRuns(real)
  }
}

async function realRuns(real: RealRuns): Promise<void> {
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
  figures['realRuns'] = {
    path: real.path, runs: real.runs.length, calls: real.calls, meanResultChars: real.resultChars / real.calls,
    nsPerCall: { noListener: perCall(t.none), reminder: perCall(t.reminder), brake: perCall(t.brake) },
    overheadNs: { reminder: reminderCost, brake: brakeCost, reading: readingCost }, brakeOverReminder: brakeCost / reminderCost,
    readingOverReminder: readingCost / reminderCost,
  }
  report('post-execute overhead ÷ the reminder\'s, real runs', ratio(brakeCost / reminderCost), '≤ 1.00×', brakeCost / reminderCost <= 1)
  report(`  (${real.runs.length} runs, ${real.calls} calls, ${(real.resultChars / real.calls / 1024).toFixed(1)} KB a result; brake / reminder)`, `${brakeCost.toFixed(0)} / ${reminderCost.toFixed(0)} ns`, '', undefined)
  // The floor of reading results: a listener that only identifies each call and fingerprints its result once.
  report('  (a listener that only identifies the call and reads its result once ÷ the reminder)', ratio(readingCost / reminderCost), '', undefined)
}

// ── 2. scaling with session length ───────────────────────────────────────────────────────────────────────────────
if (section('scaling')) {
  const WINDOW = 2_000
  const next = random(3)
  /** Small distinct calls with 15 % repeats of the last few: what a long session looks like to the state. */
  const calls = (from: number, count: number): TraceCall[] => Array.from({ length: count }, (_, k) => {
    const i = next() < 0.15 ? Math.max(0, from + k - 1 - Math.floor(next() * 8)) : from + k
    return { name: 'read', args: Object.freeze({ file_path: `src/f-${i}.ts` }), result: Object.freeze({ isError: false, content: Object.freeze([Object.freeze({ type: 'text' as const, text: `contents ${i % 97}` })]) }) }
  })
  const waterfall = await host('brake')
  await dispatch(waterfall, calls(0, 50_000), {}) // warm the JIT up on a throwaway agent
  const lengths = [1_000, 10_000, 100_000, 1_000_000] as const
  const samples = new Map<number, number[]>(lengths.map(length => [length, []]))
  // Each round makes agents of each length, then times windows on each in a balanced order: the four points of a
  // round are timed within a second of one another, so a swing of the machine falls on all of them rather than on
  // whichever length was measured during it (timed one length after the other, the points moved by up to 1.6× between
  // runs). Two cycles of the balanced order of four lengths; on the process's CPU clock, which other work on the
  // machine moves less than the wall's.
  // A window is 2 000 calls, tens of milliseconds: one per point and round left the point after 1e3 calls anywhere
  // from 9.3 to 16.0 µs a call across runs. So each point is timed `WINDOWS` times a round: on as many agents of its
  // length where a window would move it on far (up to 1e4 calls, cheap to make), on one agent otherwise (a window
  // moves an agent of 1e5 calls on by 2 %, and one of 1e6, its tables long full, not at all).
  const WINDOWS = 4
  const FRESH_UP_TO = 10_000
  const agentsOf = (length: number): number => length <= FRESH_UP_TO ? WINDOWS : 1
  for (let round = 0; round < 2 * lengths.length; round++) {
    const agents = new Map<number, object[]>()
    for (const length of lengths) {
      const made: object[] = []
      for (let n = 0; n < agentsOf(length); n++) {
        const agent = {}
        for (let done = 0; done < length; done += 50_000) await dispatch(waterfall, calls(done, Math.min(50_000, length - done)), agent)
        made.push(agent)
      }
      agents.set(length, made)
    }
    for (const length of roundOrder(lengths.map(String), round).map(Number)) {
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
  const cost = Object.fromEntries(lengths.map(length => [length, median(samples.get(length)!)])) as Record<number, number>
  const growth = cost[1_000_000]! / cost[1_000]!
  figures['scaling'] = { windowCalls: WINDOW, windowsPerRound: WINDOWS, nsPerCallAfter: cost, ratio1e6over1e3: growth }
  report('per-call cost after 1e6 calls ÷ after 1e3', ratio(growth), '≤ 1.25×', growth <= 1.25)
  report('  (after 1e3 / 1e4 / 1e5 / 1e6 calls)', lengths.map(n => cost[n]!.toFixed(0)).join(' / ') + ' ns', '', undefined)
}

// ── 3. sequence detection cost ───────────────────────────────────────────────────────────────────────────────────
if (section('sequence')) {
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
  figures['sequenceLength'] = { overheadNsPerCall: overhead, ratio16over2: overhead[16]! / overhead[2]! }
  report('overhead with sequenceLength 16 ÷ with 2', ratio(overhead[16]! / overhead[2]!), '', undefined)
  report('  (sequenceLength 2 / 4 / 8 / 16)', lengths.map(l => overhead[l]!.toFixed(0)).join(' / ') + ' ns', '', undefined)
}

// ── 4. duplicate-text scanning throughput ───────────────────────────────────────────────────────────────────────
if (section('text')) {
  const waterfall = await host('brake')
  const sizes = [1_000, 100_000, 1_000_000, 10_000_000]
  const throughput: Record<number, { brakeMBps: number; sha1MBps: number }> = {}
  let id = 0
  for (const size of sizes) {
    const body = text(size)
    // About 100 MB per sample (at most 500 messages): measured, V8 runs slower for tens of milliseconds after the
    // forced collection that precedes each sample, so a short sample reads the collection's aftermath more than the
    // scan (3 × 1 MB per sample read 300 MB/s, 20 × 1 MB 340, 100 × 1 MB about 500).
    const repeats = Math.max(3, Math.min(500, Math.round(100_000_000 / size)))
    const step = async (): Promise<number> => {
      const agent = {}
      const claim = async (r: number): Promise<void> => {
        const message = { content: [{ type: 'text', text: body }], source: { kind: 'plugin', plugin: 'bench' }, role: 'user', id: `m${++id}` }
        await waterfall('agent/pre-step', { agent, messages: [message], turn: 1, step: r + 1, signal }, () => Promise.resolve({ kind: 'enter', messages: [message] }))
      }
      // One untimed message first: a new agent's first step grows its tables.
      await claim(0)
      const start = process.hrtime.bigint()
      for (let r = 1; r <= repeats; r++) await claim(r)
      return Number(process.hrtime.bigint() - start) / repeats
    }
    const sha1 = (): Promise<number> => {
      const start = process.hrtime.bigint()
      for (let r = 0; r < repeats; r++) hash('sha1', body, 'base64')
      return Promise.resolve(Number(process.hrtime.bigint() - start) / repeats)
    }
    await step()
    const t = await rounds({ step, sha1 })
    throughput[size] = { brakeMBps: size / t.step * 1e3, sha1MBps: size / t.sha1 * 1e3 }
  }
  figures['textThroughput'] = throughput
  const at1 = throughput[1_000_000]!.brakeMBps
  const linear = throughput[10_000_000]!.brakeMBps / at1
  report('pre-step text scanning at 1 MB', `${at1.toFixed(0)} MB/s`, '≥ 400 MB/s', at1 >= 400)
  report('  throughput at 10 MB ÷ at 1 MB (linear = 1)', ratio(linear), '≥ 0.80×', linear >= 0.8)
  report('  (1 KB / 100 KB / 1 MB / 10 MB; sha1 alone)', sizes.map(s => throughput[s]!.brakeMBps.toFixed(0)).join(' / ') + ` MB/s; ${throughput[1_000_000]!.sha1MBps.toFixed(0)} MB/s`, '', undefined)
}

// ── 5. memory ────────────────────────────────────────────────────────────────────────────────────────────────────
if (section('memory')) {
  const settle = async (): Promise<number> => (await afterCollection()).heapUsed
  const waterfall = await host('brake')
  const distinct = (agent: object, count: number, tag: string): Promise<number> => {
    const calls: TraceCall[] = Array.from({ length: count }, (_, i) => ({
      name: 'read',
      args: { file_path: `${tag}/f-${i}.ts` },
      result: { isError: false, content: [{ type: 'text' as const, text: `contents of ${tag} ${i}` }] },
    }))
    return dispatch(waterfall, calls, agent)
  }
  const blocks = async (agent: object, count: number, tag: string): Promise<void> => {
    for (let i = 0; i < count; i += 10) {
      const body = Array.from({ length: 10 }, (_, k) => `${tag} paragraph ${i + k}: `.padEnd(120, 'x')).join('\n\n')
      const message = { content: [{ type: 'text', text: body }], source: { kind: 'plugin', plugin: 'bench' }, role: 'user', id: `${tag}-${i}` }
      await waterfall('agent/pre-step', { agent, messages: [message], turn: 1, step: 1, signal }, () => Promise.resolve({ kind: 'enter', messages: [message] }))
    }
  }
  /**
   * Every bounded table of one agent filled: more distinct calls than it remembers, of every kind a session makes, with
   * results of real size. Windows of many files over lines of content (seen lines, rereading), searches that find
   * nothing (questions answered), edits of many files and checks failing after them with tracebacks (file states,
   * failing checks, the same failure), failures of many tools (error chains), a long-running job polled, outputs a
   * few KB long (recent results), and claimed text blocks.
   */
  const saturate = async (agent: object, tag: string, rounds: number): Promise<void> => {
    const lines = (from: number, count: number): string => Array.from({ length: count }, (_, k) => `${from + k}\t${tag} line ${from + k} of the module, with its code`).join('\n')
    const call = (name: string, args: Readonly<Record<string, unknown>>, text: string, isError = false): TraceCall => ({ name, args, result: { isError, content: [{ type: 'text', text }] } })
    for (let r = 0; r < rounds; r++) {
      const file = `src/${tag}/m-${r % 97}.py`
      const calls = [
        call('read', { file_path: file, offset: 1 + (r % 7) * 40, limit: 60 }, lines(r * 60, 60)),
        call('grep', { pattern: `missing_${tag}_${r}`, path: `src/${r % 13}` }, 'No matches found'),
        call('edit', { file_path: file, old_string: `value = ${r}`, new_string: `value = ${r + 1}` }, 'Edited.'),
        call('bash', { command: `python -m pytest tests/test_${r % 61}.py` },
          `${lines(r, 30)}\nTraceback (most recent call last):\n  File "${file}", line ${r % 300}, in run_${r % 61}\n    check()\nAssertionError: expected ${r} got ${r + 1}\n[exit code: 1]`),
        call(`tool_${r % 300}`, { input: `${tag}-${r}` }, `Error: tool_${r % 300} failed on ${tag}-${r}: ${'the input was not what it expected; '.repeat(4)}`, true),
        call('job_output', { job_id: `job-${r % 5}` }, `${tag} running ${r}\n${lines(r, 40)}`),
        call('bash', { command: `cat ${tag}-${r}.log` }, lines(r, 80)),
      ]
      await dispatch(waterfall, calls, agent)
    }
    await blocks(agent, 2_000, tag)
  }
  await distinct({}, 2_000, 'warm')
  await blocks({}, 2_000, 'warm')
  await saturate({}, 'warm', 500)
  // Several agents kept side by side, divided out: one agent's share is small next to the collector's noise.
  const KEPT = 4
  const before = await settle()
  const kept = Array.from({ length: KEPT }, () => ({}))
  for (const [k, agent] of kept.entries()) {
    await distinct(agent, 100_000, `kept-${k}`)
    await blocks(agent, 10_000, `kept-${k}`)
  }
  const perAgent = ((await settle()) - before) / KEPT
  // At saturation, typed arrays (allocated outside the JavaScript heap) counted too.
  const settleAll = async (): Promise<number> => {
    const { heapUsed, arrayBuffers } = await afterCollection()
    return heapUsed + arrayBuffers
  }
  const beforeFull = await settleAll()
  const full = Array.from({ length: KEPT }, () => ({}))
  for (const [k, agent] of full.entries()) await saturate(agent, `full-${k}`, 3_000)
  const perFullAgent = ((await settleAll()) - beforeFull) / KEPT
  const collected = { count: 0 }
  const registry = new FinalizationRegistry(() => { collected.count++ })
  const baseline = await settle()
  // In a function of its own: a suspended async frame can keep its last local alive, which would be ours to blame.
  const useAndDrop = async (): Promise<void> => {
    for (let a = 0; a < 1_000; a++) {
      const agent = {}
      registry.register(agent, a)
      await distinct(agent, 100, `agent-${a}`)
      await blocks(agent, 20, `agent-${a}`)
    }
  }
  await useAndDrop()
  // Cordis keeps the arguments of the latest dispatch until the next one: one more call, on an agent that is not
  // counted, lets the last dropped agent go (measured: the same happens with no plugin mounted at all).
  const flush = {}
  await distinct(flush, 1, 'flush')
  await blocks(flush, 10, 'flush')
  await new Promise(resolve => setTimeout(resolve, 50))
  const afterDropped = await settle()
  await new Promise(resolve => setTimeout(resolve, 50))
  await settle()
  figures['memory'] = {
    heapPerAgentBytes: perAgent, heapPerSaturatedAgentBytes: perFullAgent, droppedAgents: 1_000, collectedAgents: collected.count,
    heapAfterDroppedBytes: afterDropped - baseline,
  }
  report('heap kept per agent (1e5 calls, 1e4 text blocks)', `${(perAgent / 1024 / 1024).toFixed(2)} MiB`, '≤ 1 MiB', perAgent <= 1024 * 1024)
  report('heap and buffers per agent at saturation (every table full)', `${(perFullAgent / 1024 / 1024).toFixed(2)} MiB`, '≤ 0.90 MiB', perFullAgent <= 0.9 * 1024 * 1024)
  report('dropped agents collected', `${collected.count} of 1000`, 'all', collected.count === 1_000)
  report('  (heap after 1000 dropped agents, vs before)', `${((afterDropped - baseline) / 1024).toFixed(0)} KiB`, '', undefined)
  if (kept.length + full.length === 0) console.log(kept, full)
}

// ── 6. watching responses as they stream ─────────────────────────────────────────────────────────────────────────
if (section('stream')) {
  /** The longest response a model gives (64 000 tokens, about 256 000 characters), repeating nothing, in 4-character deltas. */
  const LENGTH = 256_000
  const body = text(LENGTH, 11)
  const deltas = Array.from({ length: Math.ceil(LENGTH / 4) }, (_, i) => body.slice(i * 4, i * 4 + 4))
  type Chunk = Record<string, unknown>
  function* source(upTo = deltas.length): Generator<Chunk> {
    yield { type: 'block-start', index: 0, blockType: 'text' }
    for (let i = 0; i < upTo; i++) yield { type: 'text-delta', index: 0, text: deltas[i] }
    if (upTo < deltas.length) return
    yield { type: 'block-end', index: 0, block: { type: 'text', text: body } }
    yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 64_000 } }
    yield { type: 'finish', reason: { kind: 'stop' } }
  }
  // A provider's stream is an async iterable; this one has nothing to wait for.
  // oxlint-disable-next-line typescript/require-await
  async function* provider(upTo?: number): AsyncGenerator<Chunk> {
    yield* source(upTo)
  }
  type Waterfall = (name: string, ...args: unknown[]) => unknown
  const streaming = async (plugin: 'none' | 'wrapper' | 'brake'): Promise<Waterfall> => {
    const ctx = new Context()
    const on = (ctx as unknown as { on: (name: string, listener: (...args: unknown[]) => unknown) => void }).on.bind(ctx)
    // The least any listener that wraps the stream costs: an async generator passing every chunk on.
    if (plugin === 'wrapper') {
      on('llm/stream', (_options: unknown, next: unknown) => (async function* () {
        yield* (next as () => AsyncIterable<Chunk>)()
      })())
    }
    if (plugin === 'brake') await ctx.plugin(Brake as never, {} as never)
    return (ctx as unknown as { waterfall: Waterfall }).waterfall.bind(ctx)
  }
  /** One response of the agent loop, announced as DSH announces it, read to its end (or `upTo` deltas, left open). */
  const respond = async (waterfall: Waterfall, agent: object, upTo?: number): Promise<AsyncIterator<Chunk>> => {
    const turn = new AbortController().signal
    await waterfall('agent/request', { agent, signal: turn, turn: 1, step: 1, config: {} }, () => Promise.resolve({}))
    const stream = waterfall('llm/stream', { provider: 'bench', model: 'bench', messages: [], signal: turn }, () => provider(upTo)) as AsyncIterable<Chunk>
    const reader = stream[Symbol.asyncIterator]()
    for (let read = 0; upTo === undefined || read < upTo + 1; read++) if ((await reader.next()).done === true) break
    return reader
  }
  const hosts = { none: await streaming('none'), wrapper: await streaming('wrapper'), brake: await streaming('brake') }
  const time = (waterfall: Waterfall) => async (): Promise<number> => {
    const start = process.hrtime.bigint()
    await respond(waterfall, {})
    return Number(process.hrtime.bigint() - start)
  }
  for (const waterfall of Object.values(hosts)) await time(waterfall)()
  const t = await rounds({ none: time(hosts.none), wrapper: time(hosts.wrapper), brake: time(hosts.brake) })
  const perChar = (ns: number): number => ns / LENGTH
  const watching = perChar(t.brake - t.wrapper)
  // A fast provider streams about 1 000 tokens a second, some 4 000 characters: the share of one core the watch takes then.
  const FAST_CHARS_PER_SECOND = 4_000
  const share = watching * FAST_CHARS_PER_SECOND / 1e9
  // State per live response: responses held open mid-stream, after 3 000 characters and after all 256 000. The
  // watch keeps its characters in typed arrays, outside the JavaScript heap: both are counted.
  const settle = async (): Promise<number> => {
    const { heapUsed, arrayBuffers } = await afterCollection()
    return heapUsed + arrayBuffers
  }
  const OPEN = 50
  const heldOpen = async (chars: number): Promise<number> => {
    const before = await settle()
    const open = await Promise.all(Array.from({ length: OPEN }, () => respond(hosts.brake, {}, chars / 4)))
    const held = ((await settle()) - before) / OPEN
    await Promise.all(open.map(reader => reader.return?.() ?? Promise.resolve()))
    return held
  }
  const early = await heldOpen(3_000)
  const late = await heldOpen(LENGTH - 4)
  figures['stream'] = {
    responseChars: LENGTH, deltaChars: 4,
    nsPerChar: { passedThrough: perChar(t.none), wrapper: perChar(t.wrapper), brake: perChar(t.brake) },
    watchNsPerChar: watching, brakeOverPassThrough: t.brake / t.none, brakeOverWrapper: t.brake / t.wrapper,
    coreShareAtFastStream: share, memoryPerOpenResponseBytes: { after3000: early, after256000: late },
  }
  report('stream watch per character (past a pass-through wrapper)', `${watching.toFixed(0)} ns`, '', undefined)
  report('  a 64k-token response through the brake ÷ passed through untouched', ratio(t.brake / t.none), '', undefined)
  report('  share of one core at 1 000 tokens/s (4 000 chars/s)', `${(share * 100).toFixed(3)} %`, '≤ 1 %', share <= 0.01)
  report('  (per character: untouched / wrapper / brake)', `${perChar(t.none).toFixed(0)} / ${perChar(t.wrapper).toFixed(0)} / ${perChar(t.brake).toFixed(0)} ns`, '', undefined)
  report('state per live response after 256 000 chars ÷ after 3 000', ratio(late / early), '≤ 1.25×', late / early <= 1.25)
  report('  (memory per live response after 3 000 / 256 000 chars)', `${(early / 1024).toFixed(0)} / ${(late / 1024).toFixed(0)} KiB`, '', undefined)
}

// ── 7. `dsh-brake analyze` on an archive ──────────────────────────────────────────────────────────────────────────
if (section('analyze')) {
  const SESSIONS = 10_000
  // Made once and kept (a few hundred MB): real-shaped logs in folders of 1,000 (bench/archive.ts).
  const dir = makeArchive(join(tmpdir(), 'dsh-brake-bench-archive-v1'), SESSIONS)
  const part = join(dir, 'sessions', 'project-0')
  const partFiles = sessionFiles(part)
  // Decoding and parsing alone, on this one thread: what reading the logs costs before anything is analyzed.
  const decode = (): Promise<number> => {
    const start = process.hrtime.bigint()
    let events = 0
    for (const file of partFiles) events += readSessionLog(file).events.length
    if (events === 0) throw new Error('the archive has no events')
    return Promise.resolve(Number(process.hrtime.bigint() - start))
  }
  await decode()
  const decoded = (await rounds({ decode })).decode / partFiles.length
  /**
   * The command on `path`, in a process of its own: its wall time per session and its peak resident memory; with
   * `kept`, run again with full collections every 250 ms, the peak of what it keeps (bench/analyze-child.mjs).
   */
  type Run = { perSession: number; keptMiB: number; rssMiB: number }
  const command = (path: string, sessions: number, flags: string[] = [], kept = false): Run => {
    const child = spawnSync(process.execPath, [
      ...kept ? ['--expose-gc'] : [], fileURLToPath(new URL('./analyze-child.mjs', import.meta.url)), 'analyze', '--json', ...flags, path,
    ], {
      encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024,
    })
    const last = child.stderr.trim().split('\n').at(-1) ?? ''
    if (child.status !== 0) throw new Error(`analyze failed (${String(child.status)}): ${child.stderr.slice(-400)}`)
    const { wallMs, maxRssKiB, keptKiB } = JSON.parse(last) as { wallMs: number; maxRssKiB: number; keptKiB: number }
    return { perSession: wallMs * 1e6 / sessions, keptMiB: keptKiB / 1024, rssMiB: maxRssKiB / 1024 }
  }
  /** Resident memory of decoding and parsing alone, in a process of its own: Node's zstd decoder's share of the figure. */
  const decodeOnly = (path: string): number => {
    const child = spawnSync(process.execPath, ['--import', fileURLToPath(new URL('../scripts/ts-imports.mjs', import.meta.url)), '--input-type=module', '-e',
      `import { sessionFiles } from './src/session-logs/find.ts'; import { readSessionLog } from './src/session-logs/decode.ts'
       for (const file of sessionFiles(${JSON.stringify(path)})) readSessionLog(file)
       process.stdout.write(String(process.resourceUsage().maxRSS))`], { encoding: 'utf8', cwd: fileURLToPath(new URL('../', import.meta.url)) })
    return Number(child.stdout) / 1024
  }
  // Each timed three times, the median kept: one run of the command is one sample of a shared machine.
  const timed = (path: string, sessions: number, flags: string[] = []): Run => {
    const runs = [0, 1, 2].map(() => command(path, sessions, flags)).sort((a, b) => a.perSession - b.perSession)
    return runs[1]!
  }
  const small = timed(part, PER_PROJECT)
  const large = timed(dir, SESSIONS)
  const oneThread = timed(part, PER_PROJECT, ['--jobs', '1'])
  // The peak of what a run keeps catches what happens to be alive at a sample: the median of three runs, as for time.
  const kept = (path: string, sessions: number): number => [0, 1, 2]
    .map(() => command(path, sessions, [], true).keptMiB).sort((a, b) => a - b)[1]!
  const keptSmall = kept(part, PER_PROJECT)
  const keptLarge = kept(dir, SESSIONS)
  const memory = keptLarge / keptSmall
  const resident = large.rssMiB / small.rssMiB
  const decodeResident = [decodeOnly(part), decodeOnly(dir)] as const
  const time = large.perSession / decoded
  figures['analyze'] = {
    sessions: [PER_PROJECT, SESSIONS], cores: availableParallelism(), decodeMsPerSession: decoded / 1e6,
    msPerSession: { [PER_PROJECT]: small.perSession / 1e6, [SESSIONS]: large.perSession / 1e6, oneThread: oneThread.perSession / 1e6 },
    keptMiB: { [PER_PROJECT]: keptSmall, [SESSIONS]: keptLarge }, keptRatio: memory,
    residentMiB: { [PER_PROJECT]: small.rssMiB, [SESSIONS]: large.rssMiB }, residentRatio: resident,
    decodeOnlyResidentMiB: { [PER_PROJECT]: decodeResident[0], [SESSIONS]: decodeResident[1] },
    wallOverDecode: time, oneThreadOverDecode: oneThread.perSession / decoded,
  }
  report(`analyze: peak memory kept at ${SESSIONS} sessions ÷ at ${PER_PROJECT}`, ratio(memory), '≤ 1.25×', memory <= 1.25)
  report(`  (kept: heap and buffers after a full collection, at ${PER_PROJECT} / ${SESSIONS})`, `${keptSmall.toFixed(1)} / ${keptLarge.toFixed(1)} MiB`, '', undefined)
  report(`  (resident, workers included: ${ratio(resident)}; decoding alone: ${ratio(decodeResident[1] / decodeResident[0])})`,
    `${small.rssMiB.toFixed(0)} / ${large.rssMiB.toFixed(0)} MiB; ${decodeResident[0].toFixed(0)} / ${decodeResident[1].toFixed(0)} MiB`, '', undefined)
  report(`analyze: wall per session (${availableParallelism()} cores) ÷ decoding and parsing alone on one`, ratio(time), '≤ 1.50×', time <= 1.5)
  report('  (per session: decode and parse / analyze on all cores / on one thread)', `${(decoded / 1e6).toFixed(2)} / ${(large.perSession / 1e6).toFixed(2)} / ${(oneThread.perSession / 1e6).toFixed(2)} ms`, '', undefined)
}

// ── 8. telemetry records ─────────────────────────────────────────────────────────────────────────────────────────
if (section('telemetry')) {
  type TelemetryRecord = { channel: 'ledger' | 'ops'; time: number; severity: 'info' | 'warn' | 'error'; attributes: Record<string, string | number | boolean>; body: unknown }
  type Through = (record: TelemetryRecord) => TelemetryRecord
  /** A context as DSH's telemetry backend leaves it: the `sessionTelemetry` service there, and a listener on the seam. */
  async function telemetryHost(plugin: 'pass' | 'brake'): Promise<Through> {
    const ctx = new Context() as unknown as {
      provide(name: string): void
      set(name: string, value: unknown): void
      on(name: string, listener: (record: TelemetryRecord, next: () => TelemetryRecord) => TelemetryRecord): void
      waterfall(name: string, record: TelemetryRecord, inner: () => TelemetryRecord): TelemetryRecord
    }
    ctx.provide('sessionTelemetry')
    ctx.set('sessionTelemetry', {})
    // A listener that only hands the record on: what any listener on the seam costs before doing any work.
    if (plugin === 'pass') ctx.on('session-telemetry/record', (_record, next) => next())
    else await (ctx as unknown as Context).plugin(Brake as never, {} as never)
    return record => ctx.waterfall('session-telemetry/record', record, () => record)
  }
  const record = (type: string, body: unknown, i: number): TelemetryRecord =>
    ({ channel: 'ledger', time: i, severity: 'info', attributes: { 'session.id': `s${i % 8}`, 'event.type': type, 'event.seq': i }, body })
  // What a session sends that is not the brake's: a step's first chunk, calls and results (one failing), steps, a
  // person's message, repeat-tool-reminder's notice, a turn's end. Every record pays for the listener; these are the
  // ones it must only hand on.
  const others: readonly (readonly [string, unknown])[] = [
    ['assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'Let me look.' } }],
    ['tool/call', { callId: 'call_1', name: 'read', arguments: '{"file_path":"src/a.ts"}' }],
    ['tool/result', { turn: 1, step: 1, message: { role: 'user', content: [{ type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: 'x'.repeat(4096) }], isError: false }] } }],
    ['tool/call', { callId: 'call_2', name: 'bash', arguments: '{"command":"npm test"}' }],
    ['tool/result', { turn: 1, step: 2, message: { role: 'user', content: [{ type: 'tool-result', toolCallId: 'call_2', content: [{ type: 'text', text: 'Error: 3 tests failed' }], isError: true }] } }],
    ['step/start', { turn: 1, step: 2 }],
    ['step/end', { turn: 1, step: 2 }],
    ['user/message', { content: [{ type: 'text', text: 'Fix the test.' }], source: { kind: 'user' }, role: 'user', id: 'm' }],
    ['user/message', { content: [{ type: 'text', text: 'You called read 3 times.' }], source: { kind: 'plugin', plugin: 'repeat-tool-reminder', form: 'notice', summary: 'read × 3' }, role: 'user', id: 'r' }],
    ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
  ]
  // The brake's own: a notice, as its notice function makes it (a cut, a refusal and a stop are read the same way).
  const brakeNotice = JSON.parse(JSON.stringify(notice('dsh-brake', findingNotice({
    kind: 'identical-calls', tool: 'read', toolClass: 'read', args: '{"file_path":"src/a.ts"}', count: 4, evidence: 'same-result',
  })))) as unknown
  const common = Array.from({ length: TRACE_LENGTH }, (_, i) => record(others[i % others.length]![0], others[i % others.length]![1], i))
  const own = Array.from({ length: TRACE_LENGTH / 10 }, (_, i) => record('user/message', brakeNotice, i))
  // Two pass-through hosts: how far apart two identical listeners read in this run is the noise the brake's ratio
  // sits in.
  const hosts = { pass: await telemetryHost('pass'), again: await telemetryHost('pass'), brake: await telemetryHost('brake') }
  type Host = keyof typeof hosts
  const ORDERS: readonly (readonly Host[])[] = [['pass', 'again', 'brake'], ['brake', 'pass', 'again'], ['again', 'brake', 'pass']]
  const CHUNK = 250
  /**
   * The seam's cost per record with each listener: every host sent the same records {@link CHUNK} at a time (a
   * millisecond or so), in turns whose order rotates, so the machine's swings, which here reach twice within minutes,
   * fall on all alike. Returns, over the rounds, the median ns per record through the pass-through and the medians of
   * the per-round ratios to it.
   */
  const paired = (records: readonly TelemetryRecord[]): { pass: number; brake: number; again: number } => {
    for (const through of Object.values(hosts)) for (const input of records) through(input)
    const samples = { pass: [] as number[], brake: [] as number[], again: [] as number[] }
    for (let round = 0; round < ROUNDS; round++) {
      gc()
      const total = { pass: 0, again: 0, brake: 0 }
      for (let from = 0, turn = 0; from < records.length; from += CHUNK, turn++) {
        for (const key of ORDERS[turn % ORDERS.length]!) {
          const through = hosts[key]
          const start = process.hrtime.bigint()
          for (let i = from; i < from + CHUNK && i < records.length; i++) through(records[i]!)
          total[key] += Number(process.hrtime.bigint() - start)
        }
      }
      samples.pass.push(total.pass / records.length)
      samples.brake.push(total.brake / total.pass)
      samples.again.push(total.again / total.pass)
    }
    return { pass: median(samples.pass), brake: median(samples.brake), again: median(samples.again) }
  }
  const seam = paired(common)
  const marked = paired(own)
  // The listener's own work, called as the seam calls it but without Cordis around it, against a function that only
  // calls `next`: what the brake adds to a record, in nanoseconds, free of the dispatch it sits in.
  const marking = createTelemetryMarking()
  const fakeBrake = { name: 'dsh-brake', contain: (): void => undefined } as unknown as Parameters<typeof onTelemetryRecord>[0]
  const direct = (listener: (input: TelemetryRecord) => unknown) => (): Promise<number> => {
    const start = process.hrtime.bigint()
    for (let repeat = 0; repeat < 10; repeat++) for (const input of common) listener(input)
    return Promise.resolve(Number(process.hrtime.bigint() - start) / (common.length * 10))
  }
  const handOn = (input: TelemetryRecord): TelemetryRecord => ((next: () => TelemetryRecord) => next())(() => input)
  const listener = (input: TelemetryRecord): TelemetryRecord => onTelemetryRecord(fakeBrake, marking, () => input)
  const alone = await rounds({ handOn: direct(handOn), listener: direct(listener) })
  const ownShare = (alone.listener - alone.handOn) / seam.pass
  figures['telemetry'] = {
    records: common.length, brakeRecords: own.length, rounds: ROUNDS,
    notTheBrakes: { passThroughNsPerRecord: seam.pass, brakeOverPassThrough: seam.brake, passThroughOverPassThrough: seam.again },
    theBrakes: { passThroughNsPerRecord: marked.pass, brakeOverPassThrough: marked.brake, passThroughOverPassThrough: marked.again },
    listenerAlone: { nsPerRecord: { handOn: alone.handOn, listener: alone.listener }, ownWorkOverSeam: ownShare },
  }
  report('`session-telemetry/record`: a record not the brake\'s, through it ÷ through a pass-through', ratio(seam.brake), '≤ 1.05×', seam.brake <= 1.05)
  report('  (a second pass-through ÷ the first, the noise; per record through a pass-through)', `${ratio(seam.again)}; ${seam.pass.toFixed(0)} ns`, '', undefined)
  report('  the listener\'s own work per such record ÷ the seam\'s cost per record', `${(100 * ownShare).toFixed(2)} %`, '≤ 1 %', ownShare <= 0.01)
  report('  (the listener alone / a function that only calls next)', `${alone.listener.toFixed(0)} / ${alone.handOn.toFixed(0)} ns`, '', undefined)
  report('  the brake\'s own notice, through it ÷ through a pass-through', ratio(marked.brake), '', undefined)
  report('  (a second pass-through ÷ the first; per notice through a pass-through)', `${ratio(marked.again)}; ${marked.pass.toFixed(0)} ns`, '', undefined)
}

// ── output ───────────────────────────────────────────────────────────────────────────────────────────────────────
const widths = [0, 1, 2, 3].map(c => Math.max(...rows.map(r => r[c]!.length), ['figure', 'value', 'target', ''][c]!.length))
const line = (r: string[]): string => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()
console.log(`dsh-brake benchmarks — Node ${process.version}, ${ROUNDS} rounds, medians\n`)
console.log(line(['figure', 'value', 'target', '']))
for (const row of rows) console.log(line(row))
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
const out = { node: process.version, date: new Date().toISOString(), rounds: ROUNDS, figures, table: rows }
writeFileSync(new URL('./results/latest.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`)
console.log('\nwritten to bench/results/latest.json')
