/**
 * The labelling rule: which stretches of an agent's calls are loops, independently of any detector. The evaluation
 * scores detectors against these labels and `dsh-brake analyze` reports them, so the rule lives apart from the
 * detectors; each part is named by the loop kind it finds.
 * Design: docs/design.md#loop-kinds; the rule in full: docs/evaluation.md#the-labelling-rule
 * @module dsh-brake/replay/label/rules
 */
import { LOOP_KINDS, type LoopKind } from '../../core/kinds.js'
import type { AgentEvent } from '../agent-events.js'
import { describeCall, sameOutcome, type CallFacts } from './facts.js'

/** Same action and outcome this many times, with no progress between, is a loop (`identical-calls`). */
export const IDENTICAL_CALLS = 4
/** The periods of a `cycle`, and the laps it needs. */
export const CYCLE_PERIODS = [2, 3, 4] as const
export const CYCLE_LAPS = 3
/** The bounds of a `same-ground` loop's first lap, which are also how far back a repeat is looked for. */
export const SAME_GROUND_LAP_MIN = 5
export const SAME_GROUND_LAP_MAX = 20

/** The kinds of loop the labelling rule finds in calls: the part of the rule that found a stretch. */
export type LabelledKind = Extract<LoopKind, 'identical-calls' | 'cycle' | 'same-ground'>

/** One loop episode of one agent, in its call indexes. */
export interface Episode {
  readonly agent: string
  /** The first call of the loop (its first lap, or the first of the identical calls). */
  readonly start: number
  /** The loop's first repeat: where it begins (see the module comment). */
  readonly begins: number
  /** The last call of the loop. */
  readonly end: number
  /** The call at which a part of the rule is first satisfied. */
  readonly labelledAt: number
  /** The kinds whose part of the rule found it, in the order of `LOOP_KINDS`. */
  readonly foundBy: readonly LabelledKind[]
  /** The shortest period found: 1 for identical calls. */
  readonly period: number
}

/** The labels of one agent of a run. */
export interface AgentLabels {
  readonly agent: string
  /** The calls the agent ran, in order (a `skipped` call is left out; each keeps its `index`). */
  readonly calls: readonly CallFacts[]
  readonly episodes: readonly Episode[]
}

interface Span {
  start: number
  begins: number
  end: number
  labelledAt: number
  kind: LabelledKind
  period: number
}

/** Label every agent of a run. */
export function labelRun(events: readonly AgentEvent[]): AgentLabels[] {
  const byAgent = new Map<string, AgentEvent[]>()
  for (const event of events) {
    if (event.kind !== 'user' && event.kind !== 'call') continue
    let list = byAgent.get(event.agent)
    if (list === undefined) byAgent.set(event.agent, list = [])
    list.push(event)
  }
  const out: AgentLabels[] = []
  for (const [agent, list] of byAgent) out.push(labelAgent(agent, list))
  return out
}

/** Label one agent's events: split into segments at each person's message, find the loops of each. */
export function labelAgent(agent: string, events: readonly AgentEvent[]): AgentLabels {
  const calls: CallFacts[] = []
  const spans: Span[] = []
  let segment: CallFacts[] = []
  let index = 0
  for (const event of events) {
    if (event.kind === 'user') {
      spans.push(...findLoops(segment))
      segment = []
      continue
    }
    // Steps and compactions are the detectors' business; the rule reads calls and a person's messages only.
    if (event.kind !== 'call') continue
    // A call DSH never ran did nothing, loop or not; it keeps its number, so the others' match the log.
    if (event.skipped === true) {
      index++
      continue
    }
    segment.push(describeCall(event, index++, segment))
    calls.push(segment[segment.length - 1]!)
  }
  spans.push(...findLoops(segment))
  return { agent, calls, episodes: mergeSpans(agent, spans) }
}

/** Every loop span of one segment (calls between two person's messages). */
export function findLoops(calls: readonly CallFacts[]): Span[] {
  return [...identicalCalls(calls), ...cycles(calls), ...sameGround(calls)]
}

/** `identical-calls`: the same action and outcome IDENTICAL_CALLS times or more, with no progress between. */
function identicalCalls(calls: readonly CallFacts[]): Span[] {
  const spans: Span[] = []
  const chains = new Map<string, { call: CallFacts; epoch: number; count: number; first: number; second: number; span: Span | undefined }>()
  let epoch = 0
  for (const call of calls) {
    // An edit that is progress starts a new epoch, itself included: its own repeats count from it.
    if (call.progress) epoch++
    const chain = chains.get(call.action)
    if (chain === undefined || chain.epoch !== epoch || !sameOutcome(chain.call, call)) {
      chains.set(call.action, { call, epoch, count: 1, first: call.index, second: -1, span: undefined })
      continue
    }
    chain.count++
    if (chain.count === 2) chain.second = call.index
    if (chain.count < IDENTICAL_CALLS) continue
    if (chain.span === undefined) {
      chain.span = { start: chain.first, begins: chain.second, end: call.index, labelledAt: call.index, kind: 'identical-calls', period: 1 }
      spans.push(chain.span)
    } else {
      chain.span.end = call.index
    }
  }
  return spans
}

/** `cycle`: a cycle of 2 to 4 calls, not all one action, repeated back to back for CYCLE_LAPS laps. */
function cycles(calls: readonly CallFacts[]): Span[] {
  const spans: Span[] = []
  for (const period of CYCLE_PERIODS) {
    let runStart = -1
    for (let i = period; i <= calls.length; i++) {
      const matches = i < calls.length && sameCall(calls[i]!, calls[i - period]!)
      if (matches && runStart === -1) runStart = i
      if (matches) continue
      if (runStart !== -1) {
        const first = runStart - period
        const last = i - 1
        if (last - first + 1 >= period * CYCLE_LAPS && !oneAction(calls.slice(first, first + period))) {
          spans.push({
            start: calls[first]!.index,
            begins: calls[first + period]!.index,
            end: calls[last]!.index,
            labelledAt: calls[first + period * CYCLE_LAPS - 1]!.index,
            kind: 'cycle',
            period,
          })
        }
      }
      runStart = -1
    }
  }
  return spans
}

/**
 * `same-ground`: a run of calls that each repeat a call at most SAME_GROUND_LAP_MAX back, after the last progress.
 * The calls the run first repeats, from the earliest one it refers to up to the run's start, are its first lap (P
 * calls); the run is a loop when P is SAME_GROUND_LAP_MIN to SAME_GROUND_LAP_MAX and the run is at least P calls
 * long: a second full lap, in any order within the lap.
 */
function sameGround(calls: readonly CallFacts[]): Span[] {
  const spans: Span[] = []
  const back = lookBacks(calls)
  let i = 0
  while (i < calls.length) {
    if (back[i] === undefined) {
      i++
      continue
    }
    const runStart = i
    let origin = i
    let labelledAt = -1
    let period = 0
    while (i < calls.length && back[i] !== undefined) {
      origin = Math.min(origin, i - back[i]!)
      if (labelledAt === -1 && runStart - origin >= SAME_GROUND_LAP_MIN && i - runStart + 1 >= runStart - origin) {
        labelledAt = i
        period = runStart - origin
      }
      i++
    }
    if (labelledAt !== -1) {
      spans.push({
        start: calls[origin]!.index, begins: calls[runStart]!.index, end: calls[i - 1]!.index, labelledAt: calls[labelledAt]!.index, kind: 'same-ground', period,
      })
    }
  }
  return spans
}

/** For each call, how far back the latest call with its action and outcome is (after the last progress), if close. */
function lookBacks(calls: readonly CallFacts[]): (number | undefined)[] {
  const out: (number | undefined)[] = []
  let lastProgress = -1
  for (let i = 0; i < calls.length; i++) {
    if (calls[i]!.progress) lastProgress = i
    let found: number | undefined
    for (let j = i - 1; j > lastProgress && j >= i - SAME_GROUND_LAP_MAX; j--) {
      if (sameCall(calls[i]!, calls[j]!)) {
        found = i - j
        break
      }
    }
    out.push(calls[i]!.progress ? undefined : found)
  }
  return out
}

function sameCall(a: CallFacts, b: CallFacts): boolean {
  return a.action === b.action && sameOutcome(a, b)
}

function oneAction(lap: readonly CallFacts[]): boolean {
  return lap.every(call => call.action === lap[0]!.action)
}

/** Overlapping or touching spans become one episode. */
function mergeSpans(agent: string, spans: readonly Span[]): Episode[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.end - b.end)
  const episodes: Episode[] = []
  let current: OpenEpisode | undefined
  for (const span of sorted) {
    if (current !== undefined && span.start <= current.end + 1) {
      current.end = Math.max(current.end, span.end)
      current.labelledAt = Math.min(current.labelledAt, span.labelledAt)
      current.begins = Math.min(current.begins, span.begins)
      current.foundBy.add(span.kind)
      current.period = Math.min(current.period, span.period)
      continue
    }
    if (current !== undefined) episodes.push(freeze(agent, current))
    current = {
      start: span.start, begins: span.begins, end: span.end, labelledAt: span.labelledAt, foundBy: new Set([span.kind]),
      period: span.period,
    }
  }
  if (current !== undefined) episodes.push(freeze(agent, current))
  return episodes
}

interface OpenEpisode {
  start: number
  begins: number
  end: number
  labelledAt: number
  /** Typed as any loop kind so that each of `LOOP_KINDS` can be looked up in it, in that order. */
  foundBy: Set<LoopKind>
  period: number
}

function freeze(agent: string, span: OpenEpisode): Episode {
  const foundBy = LOOP_KINDS.filter((kind): kind is LabelledKind => span.foundBy.has(kind))
  return { agent, start: span.start, begins: span.begins, end: span.end, labelledAt: span.labelledAt, foundBy, period: span.period }
}
