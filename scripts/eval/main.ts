/**
 * `npm run eval -- [traces.jsonl.gz] [--config file.yml …] [--stuck labels.json] [--baseline eval.json] [--json out.json]
 * [--worst N] [--limit N] [--plugin built/index.js]`: how well loop notices match real loops.
 *
 * Real agent runs are replayed, one at a time, through the built plugin (`dist/`, defaults), through DSH's stock
 * `repeat-tool-reminder` (defaults), through both mounted together, and through the plugin with each `--config` file
 * (a YAML map of the plugin's config keys). Each run's loops are labelled by the rule in src/replay/label/, and every
 * configuration is scored against those labels (report.ts) by the rule `dsh-brake analyze` applies
 * (src/replay/score.ts). The replay and the labelling rule are the very sources `dsh-brake analyze` runs; the plugin
 * replayed is the build (`dist/`), what ships, or with `--plugin` another build's entry (a copy with a detector left
 * out, from bench/detectors.ts, or a saved release). The traces stay where they are: their path is an argument,
 * `../shared/real-traces/dev.jsonl.gz` from the repository by default.
 *
 * Beside the rule's labels, the configurations are scored against stuck episodes marked by reading (src/replay/stuck.ts),
 * from `--stuck`, by default `stuck-labels-<name>.json` beside the traces `<name>.jsonl.gz` when there is one; the
 * notices on runs no one labelled are listed for a person to judge, with `--baseline` (an earlier `--json` output) only
 * those the earlier evaluation did not give.
 *
 * Plain Node 22 runs this file and the sources it imports (type stripping, with scripts/ts-imports.mjs), so it keeps
 * to erasable TypeScript syntax.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import * as Reminder from '@deepseek-ai/dsh-repeat-tool-reminder'
import { readConfigFile } from '../../src/analyze/config-file.ts'
import type { Action } from '../../src/replay/actions.ts'
import type { AgentEvent } from '../../src/replay/agent-events.ts'
import { CYCLE_LAPS, IDENTICAL_CALLS, labelRun, SAME_GROUND_LAP_MAX, SAME_GROUND_LAP_MIN } from '../../src/replay/label/rules.ts'
import { replay, type Mount } from '../../src/replay/replay.ts'
import { CATCH_SLACK } from '../../src/replay/score.ts'
import { readStuckLabels, type StuckRun } from '../../src/replay/stuck.ts'
import { FileError } from '../../src/errors/file-errors.ts'
import {
  episodeTable, falseAlarmText, figuresTable, stuckEpisodeTable, stuckFor, stuckTable, summarize, unlabelledText, unwantedText, worstCases,
  type Baseline, type NamedStuckSummary, type RunResult,
} from './report.ts'
import { createTextSurvey, textSurveyText } from './texts.ts'
import { InputError, readRuns } from './traces.ts'
import { PACKAGE_ROOT } from '../paths.ts'

const DEFAULT_TRACES = resolve(PACKAGE_ROOT, '../shared/real-traces/dev.jsonl.gz')
const BUILT_PLUGIN: string = '../../dist/index.js'

/** A configuration to score: a name and the plugins it mounts. */
interface Setup {
  readonly name: string
  readonly mounts: readonly Mount[]
}

const USAGE = 'usage: npm run eval -- [traces.jsonl.gz] [--config file.yml …] [--stuck labels.json] [--baseline eval.json] [--json out.json] [--worst N] [--limit N] [--plugin built/index.js]'

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      config: { type: 'string', multiple: true, default: [] },
      json: { type: 'string' },
      stuck: { type: 'string' },
      baseline: { type: 'string' },
      worst: { type: 'string', default: '8' },
      limit: { type: 'string' },
      plugin: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  if (positionals.length > 1) throw new InputError(`one trace file at a time\n${USAGE}`)
  const path = positionals[0] ?? (existsSync(DEFAULT_TRACES) ? DEFAULT_TRACES : undefined)
  if (path === undefined) throw new InputError(`no trace file given, and the default ${DEFAULT_TRACES} does not exist\n${USAGE}`)
  const worst = count(values.worst, '--worst')
  const limit = values.limit === undefined ? Infinity : count(values.limit, '--limit')
  const stuckPath = values.stuck ?? defaultStuckLabels(path)
  const stuck = stuckPath === undefined ? undefined : readStuck(stuckPath)
  const baseline = values.baseline === undefined ? undefined : readBaseline(values.baseline)

  const plugin = values.plugin === undefined ? undefined : resolve(values.plugin)
  const setups = await loadSetups(values.config, plugin === undefined ? BUILT_PLUGIN : pluginEntry(plugin))
  const started = performance.now()
  const runs: RunResult[] = []
  const texts = createTextSurvey()
  for await (const run of readRuns(path)) {
    if (runs.length >= limit) break
    const actions: Record<string, Action[]> = {}
    const spared: Record<string, number> = {}
    for (const setup of setups) {
      const result = await replay(run.events, setup.mounts)
      actions[setup.name] = result.actions
      spared[setup.name] = result.spared
    }
    texts.add(run.id, run.events)
    const calls = run.events.filter(event => event.kind === 'call').length
    const callAgents = run.events.flatMap(event => event.kind === 'call' ? [event.agent] : [])
    runs.push({
      id: run.id, set: run.set, calls, labels: labelRun(run.events), actions, spared, turnStarts: turnStarts(run.events), callAgents,
    })
  }
  const seconds = (performance.now() - started) / 1000
  const summaries = setups.map(setup => summarize(setup.name, runs))
  const stuckSummaries = stuck === undefined ? undefined : scoreStuck(setups, runs, stuck.runs)

  console.log(`dsh-brake evaluation on ${path}: ${runs.length} runs, ${setups.length} configurations, ${seconds.toFixed(1)} s (Node ${process.version})`)
  if (plugin !== undefined) console.log(`the plugin replayed: --plugin ${plugin}`)
  console.log(`labels: identical-calls (${IDENTICAL_CALLS} identical), cycle (2–4 calls × ${CYCLE_LAPS} laps), same-ground (${SAME_GROUND_LAP_MIN}–${SAME_GROUND_LAP_MAX} calls × 2 laps); caught = a notice in [start, end + ${CATCH_SLACK}] (docs/evaluation.md)\n`)
  console.log(figuresTable(summaries))
  if (stuck !== undefined && stuckSummaries !== undefined) {
    const replayed = stuckSummaries[0]?.stuck.runs ?? 0
    const episodes = stuck.runs.reduce((sum, run) => sum + run.episodes.length, 0)
    console.log(`\n── stuck episodes marked by reading: ${stuck.path} ──`)
    console.log(`${stuck.runs.length} runs marked (${replayed} of them replayed), ${stuck.runs.filter(run => run.stuck).length} stuck with ${episodes} episodes;`
      + ` caught = a notice or refusal in [from, to + ${CATCH_SLACK}], delay from firstStuckCall (docs/evaluation.md)\n`)
    console.log(stuckTable(stuckSummaries))
  }
  console.log('\n── episodes ──')
  console.log(episodeTable(runs, summaries))
  for (const summary of summaries) {
    console.log(`\n── ${summary.name} ──`)
    console.log(falseAlarmText(summary, runs, worst))
    console.log(worstCases(summary, runs, worst))
  }
  console.log('\n── responses: the stream watch on real text ──')
  console.log(textSurveyText(texts.result, texts.options))
  if (stuck !== undefined && stuckSummaries !== undefined) {
    console.log('\n── marked episodes ──')
    console.log(stuckEpisodeTable(stuckSummaries))
    for (const { name, stuck: summary } of stuckSummaries) {
      console.log(`\n── ${name}: notices a person would not give, and notices on runs no one labelled ──`)
      console.log(unwantedText(name, summary, runs))
      console.log(unlabelledText(name, runs, stuck.runs, baseline?.actions))
    }
    if (baseline !== undefined) console.log(`\nbaseline: ${baseline.path}`)
  }
  if (values.json !== undefined) {
    const json = {
      ...toJson(path, plugin, seconds, runs, summaries), texts: texts.result, ...stuckJson(stuck?.path, stuckSummaries),
    }
    writeFileSync(values.json, `${JSON.stringify(json, null, 2)}\n`)
    console.log(`\nwritten to ${values.json}`)
  }
}

/** `stuck-labels-<name>.json` beside the traces `<name>.jsonl.gz`, if there is one. */
function defaultStuckLabels(traces: string): string | undefined {
  const candidate = join(dirname(traces), `stuck-labels-${basename(traces).replace(/\.jsonl(\.gz)?$/, '')}.json`)
  return existsSync(candidate) ? candidate : undefined
}

function readStuck(path: string): { path: string; runs: StuckRun[] } {
  try {
    return { path, runs: readStuckLabels(JSON.parse(readFileSync(path, 'utf8'))) }
  } catch (error) {
    throw new InputError(`${path}: ${(error as Error).message}`)
  }
}

/** The actions of every configuration of an earlier `--json` output, by run. */
function readBaseline(path: string): { path: string; actions: Baseline } {
  try {
    const json = JSON.parse(readFileSync(path, 'utf8')) as { runs?: { id: string; actions: Record<string, Action[]> }[] }
    if (!Array.isArray(json.runs)) throw new Error('no "runs" (expected the output of `npm run eval -- --json`)')
    return { path, actions: new Map(json.runs.map(run => [run.id, run.actions])) }
  } catch (error) {
    throw new InputError(`${path}: ${(error as Error).message}`)
  }
}

/** Every configuration against the marked runs; labels that do not fit the runs are an input problem. */
function scoreStuck(setups: readonly Setup[], runs: readonly RunResult[], labels: readonly StuckRun[]): NamedStuckSummary[] {
  try {
    return setups.map(setup => ({ name: setup.name, stuck: stuckFor(setup.name, runs, labels) }))
  } catch (error) {
    throw new InputError(`the stuck labels do not fit the traces: ${(error as Error).message}`)
  }
}

/** The stock three configurations, then one per `--config` file (each checked by mounting it once, up front). */
async function loadSetups(files: readonly string[], plugin: string): Promise<Setup[]> {
  const Brake = await loadBuilt(plugin)
  const setups: Setup[] = [
    { name: 'brake', mounts: [{ plugin: Brake, config: {} }] },
    { name: 'reminder', mounts: [{ plugin: Reminder, config: {} }] },
    { name: 'both', mounts: [{ plugin: Reminder, config: {} }, { plugin: Brake, config: {} }] },
    // Stop mode: the same notices, plus where a turn would have ended.
    { name: 'stop', mounts: [{ plugin: Brake, config: { mode: 'stop' } }] },
  ]
  for (const file of files) {
    let config: Record<string, unknown>
    try {
      // Read and checked as `dsh-brake analyze` reads its config files: a map of config keys, or a profile patch.
      const read = readConfigFile(file, '--config', 'dsh-brake')
      if (read.remark !== undefined) process.stderr.write(`eval: ${read.remark}\n`)
      config = read.config
    } catch (error) {
      throw error instanceof FileError ? new InputError(error.message) : error
    }
    const mounts = [{ plugin: Brake, config }]
    try {
      await replay([], mounts)
    } catch (error) {
      throw new InputError(`${file}: the plugin refuses this config: ${(error as Error).message}`)
    }
    let name = basename(file, extname(file))
    while (setups.some(setup => setup.name === name)) name = `${name}'`
    setups.push({ name, mounts })
  }
  return setups
}

/**
 * The built plugin; a missing build is an input problem, told as one. The specifier is a variable so that the
 * evaluation typechecks whether or not dist/ has been built.
 */
async function loadBuilt(specifier: string): Promise<object> {
  const told = specifier === BUILT_PLUGIN ? 'the built dist/index.js' : `--plugin ${fileURLToPath(specifier)}`
  let module: { apply?: unknown }
  try {
    module = await import(specifier) as { apply?: unknown }
  } catch (error) {
    throw new InputError(`cannot load ${told}${specifier === BUILT_PLUGIN ? ' (run `npm run build` first)' : ''}: ${(error as Error).message}`)
  }
  if (typeof module.apply !== 'function') throw new InputError(`${told} is not a plugin: it exports no \`apply\``)
  return module
}

/** `--plugin`'s path (resolved) as a specifier to import: a file that is there. */
function pluginEntry(path: string): string {
  if (!existsSync(path)) throw new InputError(`--plugin: no file at ${path}`)
  return pathToFileURL(path).href
}

/** Per agent, how many of its calls came before each person's message. */
function turnStarts(events: readonly AgentEvent[]): Record<string, number[]> {
  const starts: Record<string, number[]> = {}
  const calls: Record<string, number> = {}
  for (const event of events) {
    if (event.kind === 'call') calls[event.agent] = (calls[event.agent] ?? 0) + 1
    else if (event.kind === 'user') (starts[event.agent] ??= []).push(calls[event.agent] ?? 0)
  }
  return starts
}

function count(text: string, option: string): number {
  const value = Number(text)
  if (!Number.isInteger(value) || value < 0) throw new InputError(`${option} takes a whole number, got ${text}`)
  return value
}

function toJson(
  path: string, plugin: string | undefined, seconds: number, runs: readonly RunResult[], summaries: ReturnType<typeof summarize>[],
): object {
  return {
    input: path,
    // Which build was replayed, when it was not dist/: a saved result then says what it scored.
    ...plugin === undefined ? {} : { plugin },
    node: process.version,
    seconds,
    rule: {
      identicalCalls: IDENTICAL_CALLS, cycleLaps: CYCLE_LAPS, sameGroundLap: [SAME_GROUND_LAP_MIN, SAME_GROUND_LAP_MAX],
      catchSlack: CATCH_SLACK,
    },
    configurations: summaries.map(summary => ({
      ...summary,
      falseAlarms: summary.falseAlarms.map(alarm => ({ run: alarm.run, notices: alarm.notices })),
      scores: summary.scores.map(score => ({
        run: score.run,
        agent: score.episode.agent,
        start: score.episode.start,
        end: score.episode.end,
        caughtAt: score.notice?.call ?? null,
        delay: score.delay ?? null,
        notice: score.notice?.text ?? null,
        stoppedAt: score.stop?.call ?? null,
      })),
    })),
    runs: runs.map(run => ({
      id: run.id, set: run.set, calls: run.calls,
      episodes: run.labels.flatMap(labels => labels.episodes),
      actions: run.actions,
      spared: run.spared,
    })),
  }
}

/** The figures against the marked episodes, per configuration, for `--json`. */
function stuckJson(path: string | undefined, summaries: readonly NamedStuckSummary[] | undefined): object {
  if (path === undefined || summaries === undefined) return {}
  return {
    stuck: {
      input: path,
      catchSlack: CATCH_SLACK,
      configurations: summaries.map(({ name, stuck }) => ({
        name, runs: stuck.runs, byKind: stuck.byKind, notStuck: stuck.notStuck, outside: stuck.outside,
        scores: stuck.runScores.flatMap(runScore => runScore.scores.map(score => ({
          run: score.run, ...score.episode,
          caughtAt: score.caughtAt ?? null, delay: score.delay ?? null, notice: score.action?.text ?? null,
        }))),
        unwanted: stuck.runScores.flatMap(runScore => runScore.unwanted.map(action => ({
          run: runScore.run.id, resolved: runScore.run.resolved, stuck: runScore.run.stuck, ...action,
        }))),
      })),
    },
  }
}

try {
  await main()
} catch (error) {
  if (!(error instanceof InputError)) throw error
  console.error(`eval: ${error.message}`)
  process.exitCode = 1
}
