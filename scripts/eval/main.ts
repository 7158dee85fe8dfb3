/**
 * `npm run eval -- [traces.jsonl.gz] [--config file.yml …] [--stuck labels.json] [--baseline eval.json] [--json out.json]
 * [--worst N] [--limit N] [--plugin built/index.js] [--extra-labels labels.json …] [--loso]`: how well loop notices match
 * real loops.
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
 * The marked episodes are scored per set of runs too (sets.ts), and with `--baseline`, the episodes each configuration
 * gains and loses against the earlier evaluation, per set. `--extra-labels` scores more label files in the same format
 * (runs other readers marked) beside the main one. `--loso` checks every threshold of the detectors beyond exact
 * repetition leave-one-set-out: each value replayed through a copy of the build (or with a config key), chosen on the
 * other sets, scored on the one left out.
 *
 * Plain Node 22 runs this file and the sources it imports (type stripping, with scripts/ts-imports.mjs), so it keeps
 * to erasable TypeScript syntax.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
import {
  baselineScores, bySetTable, changesText, figuresBySet, leaveOneSetOut, leaveOneSetOutTable, THRESHOLDS, variantName,
  type BaselineScores, type SetFigures,
} from './sets.ts'
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

const USAGE = 'usage: npm run eval -- [traces.jsonl.gz] [--config file.yml …] [--stuck labels.json] [--baseline eval.json] [--json out.json] [--worst N] [--limit N] [--plugin built/index.js] [--extra-labels labels.json …] [--loso]'

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
      'extra-labels': { type: 'string', multiple: true, default: [] },
      loso: { type: 'boolean', default: false },
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
  const extras = values['extra-labels'].map(readExtraLabels)

  const plugin = values.plugin === undefined ? undefined : resolve(values.plugin)
  const entry = plugin === undefined ? BUILT_PLUGIN : pluginEntry(plugin)
  const setups = await loadSetups(values.config, entry)
  // Thresholds checked leave-one-set-out: one configuration per value tried, replayed only where the objective reads
  // (marked runs and resolved runs), and kept out of every other figure.
  const variants = values.loso ? await losoSetups(entry) : []
  const marked = new Set([...stuck?.runs ?? [], ...extras.flatMap(extra => extra.runs)].map(run => run.id))
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
    if (marked.has(run.id) || run.resolved === true) {
      for (const setup of variants) actions[setup.name] = (await replay(run.events, setup.mounts)).actions
    }
    texts.add(run.id, run.events)
    const calls = run.events.filter(event => event.kind === 'call').length
    const callAgents = run.events.flatMap(event => event.kind === 'call' ? [event.agent] : [])
    runs.push({
      id: run.id, set: run.set, resolved: run.resolved, calls, labels: labelRun(run.events), actions, spared,
      turnStarts: turnStarts(run.events), callAgents,
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
    for (const setup of setups.filter(setup => setup.name === 'brake' || !STOCK.includes(setup.name))) {
      console.log(`\n── stuck episodes by set (${setup.name}) ──`)
      console.log(bySetTable(setup.name, figuresBySet(setup.name, runs, stuck.runs)))
    }
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
    if (baseline !== undefined) {
      console.log('\n── against the baseline: marked episodes gained (+), lost (−) and moved (~), per set ──')
      for (const setup of setups.filter(setup => baseline.scores.has(setup.name))) {
        console.log(changesText(setup.name, runs, stuck.runs, baseline.scores.get(setup.name)!, baseline.actions))
      }
      console.log(`\nbaseline: ${baseline.path}`)
    }
  }
  for (const extra of extras) {
    const summaries = scoreStuck(setups, runs, extra.runs)
    const overlap = extra.runs.filter(run => stuck?.runs.some(main => main.id === run.id) === true).length
    console.log(`\n── extra labels: ${extra.path} ──`)
    console.log(`${extra.runs.length} runs marked (${summaries[0]?.stuck.runs ?? 0} of them replayed${overlap > 0 ? `, ${overlap} also in the main labels` : ''}), `
      + `${extra.runs.filter(run => run.stuck).length} stuck with ${extra.runs.reduce((sum, run) => sum + run.episodes.length, 0)} episodes\n`)
    console.log(stuckTable(summaries))
    console.log('')
    console.log(bySetTable('brake', figuresBySet('brake', runs, extra.runs)))
    console.log('')
    console.log(stuckEpisodeTable(summaries))
    const brake = summaries.find(summary => summary.name === 'brake')
    if (brake !== undefined) console.log(unwantedText('brake', brake.stuck, runs))
  }
  let loso: object | undefined
  if (variants.length > 0 && stuck !== undefined) {
    const sets = [...new Set(runs.map(run => run.set === '' ? '(no set)' : run.set))]
    const cache = new Map<string, ReadonlyMap<string, SetFigures>>()
    const figures = (name: string): ReadonlyMap<string, SetFigures> => {
      let found = cache.get(name)
      // A value's configuration was replayed on the runs the objective reads; on the others it has no actions.
      if (found === undefined) cache.set(name, found = figuresBySet(name, runs, stuck.runs))
      return found
    }
    const folds = leaveOneSetOut(THRESHOLDS, sets, figures)
    console.log('\n── leave one set out: each threshold of the detectors beyond exact repetition, chosen without a set, scored on it ──')
    console.log(leaveOneSetOutTable(folds, THRESHOLDS, figures))
    loso = { thresholds: THRESHOLDS.map(({ name, detector, shipped, values }) => ({ name, detector, shipped, values })), folds }
  }
  if (values.json !== undefined) {
    const json = {
      ...toJson(path, plugin, seconds, runs, summaries), texts: texts.result, ...stuckJson(stuck?.path, stuckSummaries),
      ...stuck === undefined ? {} : {
        bySet: Object.fromEntries(setups.map(setup => [setup.name, Object.fromEntries(figuresBySet(setup.name, runs, stuck.runs))])),
      },
      ...extras.length === 0 ? {} : {
        extraLabels: extras.map(extra => ({ input: extra.path, ...stuckJson(extra.path, scoreStuck(setups, runs, extra.runs)) })),
      },
      ...loso === undefined ? {} : { loso },
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

/**
 * A label file other readers are still writing: an entry that does not read is left out with a word on stderr rather
 * than stopping the evaluation, and a run whose `resolved` is null (the trace does not say) is taken as not resolved.
 */
function readExtraLabels(path: string): { path: string; runs: StuckRun[] } {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InputError(`${path}: ${(error as Error).message}`)
  }
  if (!Array.isArray(value)) throw new InputError(`${path}: not a labels file (expected an array of runs)`)
  const runs: StuckRun[] = []
  for (const [index, entry] of (value as unknown[]).entries()) {
    const fixed = typeof entry === 'object' && entry !== null && (entry as { resolved?: unknown }).resolved === null ? { ...entry, resolved: false } : entry
    try {
      runs.push(...readStuckLabels([fixed]))
    } catch (error) {
      process.stderr.write(`eval: ${path}: entry ${index} left out: ${(error as Error).message.replace(/^entry 0/, '')}\n`)
    }
  }
  return { path, runs }
}

/** The actions of every configuration of an earlier `--json` output, by run, and its scores of the marked episodes. */
function readBaseline(path: string): { path: string; actions: Baseline; scores: BaselineScores } {
  try {
    const json = JSON.parse(readFileSync(path, 'utf8')) as { runs?: { id: string; actions: Record<string, Action[]> }[] }
    if (!Array.isArray(json.runs)) throw new Error('no "runs" (expected the output of `npm run eval -- --json`)')
    return { path, actions: new Map(json.runs.map(run => [run.id, run.actions])), scores: baselineScores(json) }
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

/** The names of the stock configurations (a `--config` file's is its own). */
const STOCK = ['brake', 'reminder', 'both', 'stop']

/**
 * One configuration per value tried of each threshold (the shipped value is the `brake` configuration itself): a
 * config key through the config, a constant through a copy of the plugin's build with its one line edited, under
 * node_modules/.cache/dsh-brake-loso/. A line the build does not hold once stops the evaluation by name.
 */
async function losoSetups(entry: string): Promise<Setup[]> {
  const file = fileURLToPath(new URL(entry, import.meta.url))
  const source = readFileSync(file, 'utf8')
  const cache = fileURLToPath(new URL('../../node_modules/.cache/dsh-brake-loso/', import.meta.url))
  rmSync(cache, { recursive: true, force: true })
  const Brake = await loadBuilt(entry)
  const setups: Setup[] = []
  for (const threshold of THRESHOLDS) {
    for (const value of threshold.values) {
      if (value === threshold.shipped) continue
      const name = variantName(threshold, value)
      if (threshold.config !== undefined) {
        setups.push({ name, mounts: [{ plugin: Brake, config: { [threshold.config]: value } }] })
        continue
      }
      const shipped = threshold.line!(threshold.shipped)
      // The shipped value where it stands, not the beginning of a longer number.
      const places = [...source.matchAll(new RegExp(`${shipped.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\d)`, 'g'))]
      if (places.length !== 1) {
        throw new InputError(`--loso: the build ${file} holds ${places.length === 0 ? 'no' : 'more than one'} "${shipped}" for ${threshold.name}`)
      }
      const at = places[0]!.index
      const copy = join(cache, name.replace(/\W+/g, '-'))
      mkdirSync(copy, { recursive: true })
      cpSync(dirname(file), copy, { recursive: true })
      const edited = join(copy, basename(file))
      writeFileSync(edited, source.slice(0, at) + threshold.line!(value) + source.slice(at + shipped.length))
      setups.push({ name, mounts: [{ plugin: await loadBuilt(pathToFileURL(edited).href), config: {} }] })
    }
  }
  return setups
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
