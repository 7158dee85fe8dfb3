/**
 * Scoring against stuck episodes marked by reading: stretches where a person watching the agent would say it is going
 * in circles, exact or not, as a labels file lists them per run (`STUCK.md` beside the real traces gives the format).
 *
 * An episode is caught by the one rule the rule-labelled loops are scored by (score.ts's {@link actsOn}): a notice or
 * a refusal on a call from its `from` to CATCH_SLACK calls after its `to`. Its delay is that call minus
 * `firstStuckCall`, the call at which a watcher would first say it. A notice (or refusal) on a run marked not stuck,
 * or outside every episode's window on a stuck one, is one a person would not give.
 *
 * The labels number a run's calls from 0 across the whole run (a person's messages not counted), the replay numbers
 * each agent's calls on their own; an episode belongs to the agent that makes its `firstStuckCall`, and only that
 * agent's actions can catch it. Actions are put back into the run's numbering before they are held against it.
 * @module dsh-brake/replay/stuck
 */
import type { Action } from './actions.js'
import { actsOn, keptFromPlay, spread, type Spread } from './score.js'

/** How a stuck episode goes round, as the labels name it. */
export const STUCK_KINDS = ['exact', 'near-duplicate', 'edit-revert', 'same-failure-different-fix'] as const
export type StuckKind = typeof STUCK_KINDS[number]

/** One marked stretch of a run, in the run's call numbering, `from` and `to` inclusive. */
export interface StuckEpisode {
  readonly from: number
  readonly to: number
  readonly kind: StuckKind
  /** The first call at which a watcher, having seen everything so far, would say the agent is going in circles. */
  readonly firstStuckCall: number
  readonly confidence: string
  readonly what: string
}

/** One run as the labels file marks it. */
export interface StuckRun {
  readonly id: string
  readonly calls: number
  readonly resolved: boolean
  readonly stuck: boolean
  readonly episodes: readonly StuckEpisode[]
}

/**
 * The runs of a labels file, checked: every field the scoring reads, with the entry it is wrong in.
 * @throws Error naming the entry and the field when the value is not a labels file.
 */
export function readStuckLabels(value: unknown): StuckRun[] {
  if (!Array.isArray(value)) throw new Error('not a labels file (expected an array of runs)')
  return value.map((entry: unknown, index) => {
    const run = entry as Partial<Record<keyof StuckRun, unknown>> | null
    const where = `entry ${index}${typeof run?.id === 'string' ? ` (${run.id})` : ''}`
    if (run === null || typeof run !== 'object' || typeof run.id !== 'string') throw new Error(`${where}: no "id"`)
    if (!isCount(run.calls)) throw new Error(`${where}: "calls" must be a whole number, got ${JSON.stringify(run.calls)}`)
    if (typeof run.resolved !== 'boolean' || typeof run.stuck !== 'boolean') throw new Error(`${where}: "resolved" and "stuck" must be true or false`)
    const episodes = run.episodes ?? []
    if (!Array.isArray(episodes)) throw new Error(`${where}: "episodes" must be an array`)
    if (run.stuck !== episodes.length > 0) throw new Error(`${where}: "stuck" is ${run.stuck} but it has ${episodes.length} episodes`)
    return {
      id: run.id, calls: run.calls, resolved: run.resolved, stuck: run.stuck,
      episodes: episodes.map((episode: unknown, number) => readEpisode(episode, `${where}, episode ${number}`, run.calls as number)),
    }
  })
}

function readEpisode(value: unknown, where: string, calls: number): StuckEpisode {
  const episode = value as Partial<Record<keyof StuckEpisode, unknown>> | null
  if (episode === null || typeof episode !== 'object') throw new Error(`${where}: not an object`)
  const { from, to, firstStuckCall, kind } = episode
  if (!isCount(from) || !isCount(to) || !isCount(firstStuckCall)) throw new Error(`${where}: "from", "to" and "firstStuckCall" must be whole numbers`)
  if (!(from <= firstStuckCall && firstStuckCall <= to && to < calls)) {
    throw new Error(`${where}: expected from ≤ firstStuckCall ≤ to < calls (${calls}), got ${from}, ${firstStuckCall}, ${to}`)
  }
  if (!STUCK_KINDS.includes(kind as StuckKind)) throw new Error(`${where}: "kind" must be one of ${STUCK_KINDS.join(', ')}, got ${JSON.stringify(kind)}`)
  return {
    from, to, firstStuckCall, kind: kind as StuckKind,
    confidence: typeof episode.confidence === 'string' ? episode.confidence : '',
    what: typeof episode.what === 'string' ? episode.what : '',
  }
}

function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0
}

/**
 * Where each action falls in the run's numbering: `callAgents` names the agent of each of the run's calls, in order.
 * An action before its agent's first call falls on -1.
 */
export function runCalls(actions: readonly Action[], callAgents: readonly string[]): number[] {
  const runIndex = new Map<string, number[]>()
  callAgents.forEach((agent, index) => {
    let list = runIndex.get(agent)
    if (list === undefined) runIndex.set(agent, list = [])
    list.push(index)
  })
  return actions.map(action => runIndex.get(action.agent)?.[action.call] ?? -1)
}

/** How one configuration did on one marked episode. */
export interface StuckScore {
  readonly run: string
  readonly episode: StuckEpisode
  /** A stop ended the agent's turn before the episode began: it was not played, so neither caught nor missed. */
  readonly unreached: boolean
  /** The first notice or refusal on the episode (its call numbered within its agent, as every action is). */
  readonly action: Action | undefined
  /** The run's call that action falls on. */
  readonly caughtAt: number | undefined
  /** Calls from `firstStuckCall` to that call (negative: earlier than a watcher would say it). */
  readonly delay: number | undefined
}

/** How one configuration did on one labelled run. */
export interface StuckRunScore {
  readonly run: StuckRun
  readonly scores: readonly StuckScore[]
  /** Notices and refusals a person would not give: all of them on a run not stuck, those outside every episode on one. */
  readonly unwanted: readonly Action[]
}

/** What the scoring needs to know of the replayed run. */
export interface ReplayedRun {
  /** The agent of each of the run's calls, in order. */
  readonly callAgents: readonly string[]
  /** Per agent, its calls made before each person's message (a turn starts there). */
  readonly turnStarts: Readonly<Record<string, readonly number[]>>
}

/**
 * Score what one configuration did on one labelled run.
 * @param actions what the configuration did, each call numbered within its agent as the replay numbers them.
 * @throws Error when the labels count another number of calls than the run has (labels of another trace file).
 */
export function scoreStuckRun(run: StuckRun, replayed: ReplayedRun, actions: readonly Action[]): StuckRunScore {
  const { callAgents, turnStarts } = replayed
  if (run.calls !== callAgents.length) throw new Error(`${run.id}: the labels count ${run.calls} calls, the run has ${callAgents.length}`)
  const told = actions.filter(action => action.kind !== 'stop')
  const calls = runCalls(told, callAgents)
  // The same actions, numbered as the labels number calls, in call order: what the catch rule is applied to.
  const placed = told.map((action, index) => ({ action, agent: action.agent, call: calls[index]! })).sort((a, b) => a.call - b.call)
  const windows = run.episodes.map(episode => ({ agent: callAgents[episode.firstStuckCall]!, start: episode.from, end: episode.to }))
  const scores = run.episodes.map((episode, index) => {
    const window = windows[index]!
    // Stops and turns are numbered within the agent: so is the episode's first call, to ask whether a stop came first.
    const start = callAgents.slice(0, episode.from).filter(agent => agent === window.agent).length
    const unreached = keptFromPlay({ ...window, start }, actions, turnStarts[window.agent] ?? [])
    const first = unreached ? undefined : placed.find(candidate => actsOn(window, candidate))
    return {
      run: run.id, episode, unreached, action: first?.action, caughtAt: first?.call,
      delay: first === undefined ? undefined : first.call - episode.firstStuckCall,
    }
  })
  const unwanted = placed.filter(candidate => !windows.some(window => actsOn(window, candidate))).map(candidate => candidate.action)
  return { run, scores, unwanted }
}

/** Caught episodes among marked ones, with the delays of the catches. */
export interface StuckTally {
  /** Episodes played (a stop may have kept some from being played). */
  readonly episodes: number
  /** Episodes a stop kept from being played. */
  readonly unreached: number
  readonly caught: number
  readonly delay: Spread
}

/** Notices and refusals a person would not give, on a group of runs. */
export interface UnwantedTally {
  readonly runs: number
  /** Of them, runs with at least one. */
  readonly runsTold: number
  readonly actions: number
}

/** One configuration's figures against the marked episodes. */
export interface StuckSummary {
  readonly runs: number
  readonly byKind: Readonly<Record<StuckKind | 'all', StuckTally>>
  /** On runs marked not stuck, by whether the run was resolved. */
  readonly notStuck: { readonly resolved: UnwantedTally; readonly unresolved: UnwantedTally }
  /** On stuck runs, outside every episode's window, by whether the run was resolved. */
  readonly outside: { readonly resolved: UnwantedTally; readonly unresolved: UnwantedTally }
  readonly runScores: readonly StuckRunScore[]
}

/** Add up one configuration's run scores. */
export function summarizeStuck(runScores: readonly StuckRunScore[]): StuckSummary {
  const scores = runScores.flatMap(runScore => runScore.scores)
  const tally = (kind: StuckKind | 'all'): StuckTally => {
    const of = scores.filter(score => kind === 'all' || score.episode.kind === kind)
    const delays = of.flatMap(score => score.delay === undefined ? [] : [score.delay])
    const unreached = of.filter(score => score.unreached).length
    return { episodes: of.length - unreached, unreached, caught: delays.length, delay: spread(delays) }
  }
  const unwanted = (stuck: boolean, resolved: boolean): UnwantedTally => {
    const of = runScores.filter(runScore => runScore.run.stuck === stuck && runScore.run.resolved === resolved)
    return {
      runs: of.length,
      runsTold: of.filter(runScore => runScore.unwanted.length > 0).length,
      actions: of.reduce((sum, runScore) => sum + runScore.unwanted.length, 0),
    }
  }
  const byKind = Object.fromEntries((['all', ...STUCK_KINDS] as const).map(kind => [kind, tally(kind)])) as Record<StuckKind | 'all', StuckTally>
  return {
    runs: runScores.length,
    byKind,
    notStuck: { resolved: unwanted(false, true), unresolved: unwanted(false, false) },
    outside: { resolved: unwanted(true, true), unresolved: unwanted(true, false) },
    runScores,
  }
}
