/**
 * Real agent runs for the benchmarks: a real-trace file (`../shared/real-traces/dev.jsonl.gz`, never copied into the
 * repository) read once into what DSH would dispatch, so that a replay spends its time in the listeners, not in
 * reading. Each run becomes the person's messages, as `agent/pre-step` claims them, and the executed calls with their
 * real arguments and results, as `tools/post-execute` sees them. The file is read by the evaluation's own reader
 * (scripts/eval/traces.ts), so the benchmark replays the runs the evaluation scores.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readRuns } from '../scripts/eval/traces.ts'
import { accept, execution, signal, type Waterfall } from './hosts.ts'

/** One event of a run, ready to dispatch. */
export type ReplayEvent =
  | { readonly kind: 'prompt'; readonly message: object }
  | { readonly kind: 'call'; readonly name: string; readonly args: unknown; readonly result: object }

/** A run as one agent replays it, and the real-trace figures the report names. */
export interface RealRuns {
  readonly path: string
  readonly runs: readonly (readonly ReplayEvent[])[]
  readonly calls: number
  /** Characters of result text, in all. */
  readonly resultChars: number
}

function freeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) freeze(inner)
    Object.freeze(value)
  }
  return value
}

/**
 * The trace file a benchmark replays: the one named first on its command line, or the development set beside the
 * project (`../shared/real-traces/dev.jsonl.gz`).
 */
export function tracePath(): string {
  return resolve(process.argv[2] ?? fileURLToPath(new URL('../../shared/real-traces/dev.jsonl.gz', import.meta.url)))
}

/**
 * The runs of the trace file at `path`, or undefined when there is none there (the benchmark runs without them). Every
 * run is one agent: its calls are one agent's calls, whatever agent names the file gives.
 */
export async function loadRealRuns(path: string): Promise<RealRuns | undefined> {
  if (!existsSync(path)) return undefined
  const runs: ReplayEvent[][] = []
  let calls = 0
  let resultChars = 0
  let id = 0
  for await (const run of readRuns(path)) {
    const events: ReplayEvent[] = []
    for (const event of run.events) {
      if (event.kind === 'user') {
        // A person's message, as the agent loop claims it for the step it opens.
        events.push(freeze({ kind: 'prompt', message: { content: [{ type: 'text', text: event.text }], source: { kind: 'user' }, role: 'user', id: `p${++id}` } }))
      } else if (event.kind === 'call' && event.skipped !== true) {
        events.push(freeze({ kind: 'call', name: event.tool, args: event.args, result: { isError: event.isError, content: [{ type: 'text', text: event.text }] } }))
        calls++
        resultChars += event.text.length
      }
    }
    runs.push(events)
  }
  return { path, runs, calls, resultChars }
}

/**
 * Every run replayed as one fresh agent: the person's message through `agent/pre-step`, then each call, with its real
 * arguments and result, through `tools/post-execute`, in order. Returns nanoseconds.
 */
export async function replay(waterfall: Waterfall, real: RealRuns): Promise<number> {
  const enter = (messages: unknown): Promise<unknown> => Promise.resolve({ kind: 'enter', messages })
  const start = process.hrtime.bigint()
  let i = 0
  for (const run of real.runs) {
    const agent = {}
    let step = 0
    for (const event of run) {
      if (event.kind === 'prompt') {
        const messages = [event.message]
        await waterfall('agent/pre-step', { agent, messages, turn: 1, step: ++step, signal }, () => enter(messages))
      } else {
        await waterfall('tools/post-execute', execution(event.name, event.args, agent, i++), event.result, accept)
      }
    }
  }
  return Number(process.hrtime.bigint() - start)
}

/**
 * The same runs with every result's text emptied: the same calls, arguments and errors, nothing to read. What the
 * brake costs on them is its work per call before reading any result (identity, history, each detector's state); a
 * run of identical empty results makes more findings than the real one, so the figure errs high.
 */
export function withEmptyResults(real: RealRuns): RealRuns {
  const runs = real.runs.map(run => run.map((event): ReplayEvent => event.kind === 'call'
    ? freeze({ ...event, result: { isError: (event.result as { isError?: boolean }).isError, content: [{ type: 'text', text: '' }] } })
    : event))
  return { ...real, runs, resultChars: 0 }
}

/**
 * Nanoseconds per call of one {@link replay}, on the wall clock or on the process's CPU clock (which a busy machine's
 * other work does not add to).
 */
export async function timedReplay(waterfall: Waterfall, real: RealRuns, clock: 'wall' | 'cpu'): Promise<number> {
  const cpu = process.cpuUsage()
  const wall = await replay(waterfall, real)
  if (clock === 'wall') return wall / real.calls
  const used = process.cpuUsage(cpu)
  return (used.user + used.system) * 1000 / real.calls
}

/** The runs and the collector a benchmark run by hand starts from. */
export interface RealRunsSetup {
  readonly real: RealRuns
  readonly gc: () => void
}

/**
 * What the benchmarks run by hand (bench/compare.ts, layers.ts, detectors.ts) start from: the runs of the trace file
 * named first on the command line (the development set by default), and the collector (run between replays only when
 * `BENCH_COLLECT=each` asks: `beforeTimedSample`, rounds.ts).
 */
export async function realRunsSetup(): Promise<RealRunsSetup> {
  const path = tracePath()
  const real = await loadRealRuns(path)
  if (real === undefined) throw new Error(`no real runs at ${path}: give a trace file's path`)
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) throw new Error('run with node --expose-gc')
  return { real, gc }
}
