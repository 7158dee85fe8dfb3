/**
 * The stuck-episode figures per set of runs (a trace's `set`: one harness, model and benchmark each), the changes
 * against a baseline evaluation per set, and the leave-one-set-out check of the thresholds the detectors beyond exact
 * repetition use.
 *
 * Why per set: a rule that fits the runs it was tuned on shows it as figures that hold on one set and not on another.
 * The leave-one-set-out check asks the same of every threshold: chosen on the other sets by one stated objective, what
 * does it give on the set left out, and is it the value the brake ships?
 */
import type { Action } from '../../src/replay/actions.ts'
import { actsOn, CATCH_SLACK, spread } from '../../src/replay/score.ts'
import { scoreStuckRun, STUCK_KINDS, type StuckKind, type StuckRun, type StuckRunScore } from '../../src/replay/stuck.ts'
import type { RunResult } from './report.ts'

/** One configuration's figures on the marked runs of one set (or of all sets). */
export interface SetFigures {
  /** Marked runs of the set, and of them those marked stuck. */
  readonly marked: number
  readonly stuck: number
  /** Episodes and episodes caught, by kind and in all. */
  readonly episodes: Readonly<Record<StuckKind | 'all', number>>
  readonly caught: Readonly<Record<StuckKind | 'all', number>>
  /** Calls from `firstStuckCall` to the catch, every caught episode's. */
  readonly delays: readonly number[]
  /** Notices and refusals on runs marked not stuck. */
  readonly notStuck: number
  /** On stuck runs outside every episode (+ the slack). */
  readonly outside: number
  /**
   * On resolved runs outside every marked episode: the marked runs', and every notice on a resolved run no one marked
   * that falls outside the labelling rule's loops (an exact loop by the rule is a loop a person would name too).
   */
  readonly resolvedOutside: number
  /** Resolved runs of the set (marked or not). */
  readonly resolvedRuns: number
}

/** The set a run belongs to; runs without one are put under `(no set)`. */
function setOf(run: RunResult): string {
  return run.set === '' ? '(no set)' : run.set
}

/** The sets of the runs, in the order they first come. */
export function setsOf(runs: readonly RunResult[]): string[] {
  return [...new Set(runs.map(setOf))]
}

/** Each marked run scored for configuration `name` (a label whose run the traces lack is left out). */
export function runScoresFor(name: string, runs: readonly RunResult[], labels: readonly StuckRun[]): Map<string, StuckRunScore> {
  const byId = new Map(runs.map(run => [run.id, run]))
  const scores = new Map<string, StuckRunScore>()
  for (const label of labels) {
    const run = byId.get(label.id)
    if (run !== undefined) scores.set(label.id, scoreStuckRun(label, run, run.actions[name] ?? []))
  }
  return scores
}

/** Configuration `name`'s figures per set, and for all sets under `all`. */
export function figuresBySet(name: string, runs: readonly RunResult[], labels: readonly StuckRun[]): Map<string, SetFigures> {
  const scores = runScoresFor(name, runs, labels)
  const out = new Map<string, SetFigures>()
  for (const set of ['all', ...setsOf(runs)]) {
    const of = runs.filter(run => set === 'all' || setOf(run) === set)
    out.set(set, figuresOf(name, of, scores))
  }
  return out
}

function figuresOf(name: string, runs: readonly RunResult[], scores: ReadonlyMap<string, StuckRunScore>): SetFigures {
  const zero = (): Record<StuckKind | 'all', number> => ({ all: 0, exact: 0, 'near-duplicate': 0, 'edit-revert': 0, 'same-failure-different-fix': 0 })
  const episodes = zero()
  const caught = zero()
  const delays: number[] = []
  let marked = 0
  let stuck = 0
  let notStuck = 0
  let outside = 0
  let resolvedOutside = 0
  let resolvedRuns = 0
  for (const run of runs) {
    if (run.resolved === true) resolvedRuns++
    const score = scores.get(run.id)
    if (score === undefined) {
      if (run.resolved === true) resolvedOutside += outsideRuleLoops(run, run.actions[name] ?? []).length
      continue
    }
    marked++
    if (score.run.stuck) stuck++
    for (const episode of score.scores) {
      if (episode.unreached) continue
      episodes.all++
      episodes[episode.episode.kind]++
      if (episode.delay === undefined) continue
      caught.all++
      caught[episode.episode.kind]++
      delays.push(episode.delay)
    }
    if (score.run.stuck) outside += score.unwanted.length
    else notStuck += score.unwanted.length
    if (score.run.resolved) resolvedOutside += score.unwanted.length
  }
  return { marked, stuck, episodes, caught, delays, notStuck, outside, resolvedOutside, resolvedRuns }
}

/** The notices and refusals among `actions` that fall outside every loop the labelling rule finds in `run`. */
function outsideRuleLoops(run: RunResult, actions: readonly Action[]): Action[] {
  const windows = run.labels.flatMap(labels => labels.episodes)
  return actions.filter(action => action.kind !== 'stop' && !windows.some(episode => actsOn(episode, action)))
}

/** Configuration `name`'s figures per set, one line each, by kind. */
export function bySetTable(name: string, figures: ReadonlyMap<string, SetFigures>): string {
  const kinds = ['all', ...STUCK_KINDS] as const
  const rows: string[][] = [[
    `set (${name})`, 'marked', ...kinds.map(kind => kind === 'same-failure-different-fix' ? 'same-failure' : kind), 'delay median / p75 / max',
    'not stuck', 'outside', 'resolved outside',
  ]]
  for (const [set, f] of figures) {
    const delay = spread(f.delays)
    rows.push([
      set, `${f.marked} (${f.stuck} stuck)`, ...kinds.map(kind => `${f.caught[kind]} of ${f.episodes[kind]}`),
      `${show(delay.median)} / ${show(delay.p75)} / ${show(delay.max)}`,
      String(f.notStuck), String(f.outside), `${f.resolvedOutside} (${f.resolvedRuns} runs)`,
    ])
  }
  return [
    table(rows),
    `marked: runs the labels read; each kind: episodes caught of those played; not stuck: notices on runs marked not stuck; outside: on stuck runs outside every episode (+ ${CATCH_SLACK}); resolved outside: on resolved runs outside every marked episode, and outside the rule's loops on resolved runs no one marked`,
  ].join('\n')
}

// ── against a baseline ──────────────────────────────────────────────────────────────────────────────────────────

/** One marked episode's score as an earlier `--json` output keeps it. */
export interface BaselineScore {
  readonly run: string
  readonly from: number
  readonly to: number
  readonly kind: string
  readonly firstStuckCall: number
  readonly caughtAt: number | null
  readonly delay: number | null
}

/** The marked episodes' scores of each configuration of an earlier `--json` output, by configuration name. */
export type BaselineScores = ReadonlyMap<string, readonly BaselineScore[]>

/** The scores kept in an earlier `--json` output (empty when it scored no marked episodes). */
export function baselineScores(json: unknown): BaselineScores {
  const configurations = (json as { stuck?: { configurations?: { name: string; scores: BaselineScore[] }[] } }).stuck?.configurations ?? []
  return new Map(configurations.map(configuration => [configuration.name, configuration.scores]))
}

/**
 * Per set, the marked episodes configuration `name` catches now and the baseline did not (gained), those the
 * baseline caught and it no longer does (lost), and those caught both times at another call; then the notices a
 * person would not give and those on resolved runs outside an episode, before and after.
 */
export function changesText(
  name: string, runs: readonly RunResult[], labels: readonly StuckRun[], before: readonly BaselineScore[],
  baselineActions: ReadonlyMap<string, Readonly<Record<string, readonly Action[]>>>,
): string {
  const setById = new Map(runs.map(run => [run.id, setOf(run)]))
  const old = new Map(before.map(score => [`${score.run}#${score.from}-${score.to}`, score]))
  const now = runScoresFor(name, runs, labels)
  const lines: string[] = []
  const bySet = new Map<string, { gained: string[]; lost: string[]; moved: string[]; was: number; is: number }>()
  for (const [id, runScore] of now) {
    const set = setById.get(id) ?? '(no set)'
    let entry = bySet.get(set)
    if (entry === undefined) bySet.set(set, entry = { gained: [], lost: [], moved: [], was: 0, is: 0 })
    for (const score of runScore.scores) {
      const episode = score.episode
      const earlier = old.get(`${id}#${episode.from}-${episode.to}`)
      const was = earlier?.caughtAt ?? undefined
      const is = score.caughtAt
      if (was !== undefined) entry.was++
      if (is !== undefined) entry.is++
      const what = `${id} ${episode.from}–${episode.to} ${episode.kind} (stuck at ${episode.firstStuckCall}, ${episode.confidence})`
      if (earlier === undefined) entry.moved.push(`${what}: not in the baseline`)
      else if (was === undefined && is !== undefined) entry.gained.push(`${what}: ${signed(score.delay!)} (@${is})`)
      else if (was !== undefined && is === undefined) entry.lost.push(`${what}: was ${signed(earlier.delay!)} (@${was})`)
      else if (was !== undefined && is !== undefined && was !== is) entry.moved.push(`${what}: ${signed(earlier.delay!)} → ${signed(score.delay!)}`)
    }
  }
  const baselineRuns: RunResult[] = runs.map(run => ({ ...run, actions: { [name]: baselineActions.get(run.id)?.[name] ?? [] } }))
  const figuresBefore = figuresBySet(name, baselineRuns, labels)
  const figuresNow = figuresBySet(name, runs, labels)
  for (const [set, entry] of [...bySet].sort(([a], [b]) => a.localeCompare(b))) {
    const a = figuresBefore.get(set)
    const b = figuresNow.get(set)
    const unwanted = a === undefined || b === undefined ? ''
      : `; not stuck ${a.notStuck} → ${b.notStuck}, outside ${a.outside} → ${b.outside}, resolved outside ${a.resolvedOutside} → ${b.resolvedOutside}`
    lines.push(`  ${set}: caught ${entry.was} → ${entry.is}${unwanted}`)
    for (const gained of entry.gained) lines.push(`    + ${gained}`)
    for (const lost of entry.lost) lines.push(`    − ${lost}`)
    for (const moved of entry.moved) lines.push(`    ~ ${moved}`)
  }
  const a = figuresBefore.get('all')
  const b = figuresNow.get('all')
  if (a !== undefined && b !== undefined) {
    lines.unshift(`${name}: caught ${a.caught.all} → ${b.caught.all} of ${b.episodes.all}; not stuck ${a.notStuck} → ${b.notStuck}, outside ${a.outside} → ${b.outside}, resolved outside ${a.resolvedOutside} → ${b.resolvedOutside}`)
  }
  return lines.join('\n')
}

// ── leave one set out ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * A threshold of a detector beyond exact repetition, and the values tried. A value is set either through the
 * plugin's config (a config key) or by editing the one line of the build that holds it (a bound that is no config
 * key): `line(value)` is that line as the build has it, with `value` in place of the default.
 */
export interface Threshold {
  readonly name: string
  readonly detector: string
  readonly shipped: number
  readonly values: readonly number[]
  readonly config?: string
  readonly line?: (value: number) => string
}

/**
 * Every threshold the detectors beyond exact repetition use, with the values tried around the one shipped. Those
 * that live in the build as constants are named by their line there (`bench/builds.ts` edits a copy).
 */
export const THRESHOLDS: readonly Threshold[] = [
  { name: 'nearDuplicateCount', detector: 'near-duplicates', shipped: 5, values: [3, 4, 5, 6, 7, 8], line: v => `nearDuplicateCount: ${v}` },
  { name: 'nearDuplicateReasked', detector: 'near-duplicates', shipped: 3, values: [1, 2, 3, 4, 5], line: v => `nearDuplicateReasked: ${v}` },
  { name: 'NEWS_BETWEEN', detector: 'near-duplicates', shipped: 1, values: [0, 1, 2], line: v => `var NEWS_BETWEEN = ${v};` },
  { name: 'SUBSTANTIAL_OUTPUT', detector: 'near-duplicates', shipped: 40, values: [10, 20, 40, 80, 160], line: v => `var SUBSTANTIAL_OUTPUT = ${v};` },
  { name: 'rereadCount', detector: 'rereading', shipped: 4, values: [2, 3, 4, 5, 6], line: v => `rereadCount: ${v}` },
  { name: 'rereadWindows', detector: 'rereading', shipped: 6, values: [4, 5, 6, 8, 10], line: v => `rereadWindows: ${v}` },
  { name: 'failureReturns', detector: 'edit-revert', shipped: 3, values: [2, 3, 4], line: v => `failureReturns: ${v}` },
  { name: 'SPAN (edit-revert)', detector: 'edit-revert', shipped: 15, values: [8, 10, 15, 20, 30], line: v => `var SPAN = ${v};` },
  { name: 'sameFailureCount', detector: 'same-failure', shipped: 3, values: [2, 3, 4, 5], config: 'sameFailureCount' },
  { name: 'sameOutcomeAcross', detector: 'same-failure', shipped: 4, values: [3, 4, 5, 6], line: v => `sameOutcomeAcross: ${v}` },
  { name: 'MAX_GAP (same-failure)', detector: 'same-failure', shipped: 10, values: [5, 8, 10, 15, 20], line: v => `var MAX_GAP = ${v};` },
]

/** The name of the configuration that scores `threshold` at `value` (the shipped value is the `brake` configuration). */
export function variantName(threshold: Threshold, value: number): string {
  return value === threshold.shipped ? 'brake' : `loso ${threshold.name}=${value}`
}

/**
 * The objective a value is chosen by, on the sets it is chosen on, in order: the fewest notices on runs marked not
 * stuck (none is the aim); the most episodes caught; the fewest notices on resolved runs outside an episode (most of
 * them fall on runs no one marked, and a reader judged most of those right, so they break ties rather than weigh
 * against a catch); the fewest notices outside episodes in all; the value shipped; the higher value (the later notice).
 */
function better(a: { value: number; f: SetFigures }, b: { value: number; f: SetFigures }, shipped: number): number {
  if (a.f.notStuck !== b.f.notStuck) return a.f.notStuck - b.f.notStuck
  if (a.f.caught.all !== b.f.caught.all) return b.f.caught.all - a.f.caught.all
  if (a.f.resolvedOutside !== b.f.resolvedOutside) return a.f.resolvedOutside - b.f.resolvedOutside
  const noiseA = a.f.outside + a.f.resolvedOutside
  const noiseB = b.f.outside + b.f.resolvedOutside
  if (noiseA !== noiseB) return noiseA - noiseB
  if ((a.value === shipped) !== (b.value === shipped)) return a.value === shipped ? -1 : 1
  return b.value - a.value
}

/** The figures of several sets added up. */
function added(figures: readonly SetFigures[]): SetFigures {
  const zero = (): Record<StuckKind | 'all', number> => ({ all: 0, exact: 0, 'near-duplicate': 0, 'edit-revert': 0, 'same-failure-different-fix': 0 })
  const episodes = zero()
  const caught = zero()
  for (const f of figures) {
    for (const kind of ['all', ...STUCK_KINDS] as const) {
      episodes[kind] += f.episodes[kind]
      caught[kind] += f.caught[kind]
    }
  }
  const total = (pick: (f: SetFigures) => number): number => figures.reduce((sum, f) => sum + pick(f), 0)
  return {
    marked: total(f => f.marked), stuck: total(f => f.stuck), episodes, caught, delays: figures.flatMap(f => f.delays),
    notStuck: total(f => f.notStuck), outside: total(f => f.outside), resolvedOutside: total(f => f.resolvedOutside),
    resolvedRuns: total(f => f.resolvedRuns),
  }
}

/** One fold of one threshold: the value chosen without a set, and what it and the shipped value give on that set. */
export interface Fold {
  readonly threshold: string
  readonly set: string
  readonly chosen: number
  readonly shipped: number
  readonly atChosen: SetFigures
  readonly atShipped: SetFigures
}

/** Every threshold's folds, from the figures of each of its values (by configuration name, then set). */
export function leaveOneSetOut(
  thresholds: readonly Threshold[], sets: readonly string[], figures: (configuration: string) => ReadonlyMap<string, SetFigures>,
): Fold[] {
  const folds: Fold[] = []
  for (const threshold of thresholds) {
    const byValue = threshold.values.map(value => ({ value, bySet: figures(variantName(threshold, value)) }))
    for (const left of sets) {
      const trained = byValue.map(({ value, bySet }) => ({ value, f: added(sets.filter(set => set !== left).map(set => bySet.get(set)!)) }))
      const chosen = [...trained].sort((a, b) => better(a, b, threshold.shipped))[0]!.value
      folds.push({
        threshold: threshold.name, set: left, chosen, shipped: threshold.shipped,
        atChosen: byValue.find(entry => entry.value === chosen)!.bySet.get(left)!,
        atShipped: byValue.find(entry => entry.value === threshold.shipped)!.bySet.get(left)!,
      })
    }
  }
  return folds
}

/** The folds as a table: per threshold and set left out, the value chosen on the others and its figures there. */
export function leaveOneSetOutTable(
  folds: readonly Fold[], thresholds: readonly Threshold[], figures: (configuration: string) => ReadonlyMap<string, SetFigures>,
): string {
  const out: string[] = []
  out.push('Objective, on the sets a value is chosen on, in order: the fewest notices on runs marked not stuck; the most episodes caught;')
  out.push('the fewest notices on resolved runs outside an episode; the fewest outside episodes in all; the value shipped; the higher value.')
  out.push('Each threshold is varied alone, the others as shipped. Left-out figures: caught of played, notices on runs not stuck / on')
  out.push('resolved runs outside an episode.')
  out.push('')
  const rows: string[][] = [['threshold', 'set left out', 'chosen (shipped)', 'left out at chosen', 'left out at shipped']]
  for (const fold of folds) {
    const cell = (f: SetFigures): string => `${f.caught.all} of ${f.episodes.all}, ${f.notStuck} / ${f.resolvedOutside}`
    rows.push([fold.threshold, fold.set, `${fold.chosen} (${fold.shipped})`, cell(fold.atChosen), cell(fold.atShipped)])
  }
  out.push(table(rows))
  out.push('')
  out.push('Every value on every set (caught of played, notices on runs not stuck / on resolved runs outside an episode):')
  for (const threshold of thresholds) {
    const sets = [...figures('brake').keys()]
    const head = ['', ...threshold.values.map(value => `${value}${value === threshold.shipped ? '*' : ''}`)]
    const lines: string[][] = [[`${threshold.name} (${threshold.detector})`, ...head.slice(1)]]
    for (const set of sets) {
      lines.push([`  ${set}`, ...threshold.values.map((value) => {
        const f = figures(variantName(threshold, value)).get(set)!
        return `${f.caught.all}/${f.episodes.all} ${f.notStuck}/${f.resolvedOutside}`
      })])
    }
    out.push(table(lines))
  }
  const moved = folds.filter(fold => fold.chosen !== fold.shipped)
  out.push('')
  out.push(moved.length === 0
    ? 'Every fold chooses the value shipped.'
    : `Folds that choose another value than the one shipped: ${moved.map(fold => `${fold.threshold} without ${fold.set}: ${fold.chosen}`).join('; ')}`)
  return out.join('\n')
}

function signed(value: number): string {
  return value < 0 ? String(value) : `+${value}`
}

function show(value: number | undefined): string {
  return value === undefined ? '–' : String(value)
}

function table(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map(row => (row[column] ?? '').length)))
  return rows.map(row => row.map((cell, column) => column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)).join('  ')).join('\n')
}
