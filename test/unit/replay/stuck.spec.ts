/** Scoring against stuck episodes marked by reading: caught, delay, and notices a person would not give. */
import { describe, expect, it } from 'vitest'
import type { Action } from '../../../src/replay/actions.ts'
import { CATCH_SLACK } from '../../../src/replay/score.ts'
import {
  readStuckLabels, runCalls, scoreStuckRun, summarizeStuck, type ReplayedRun, type StuckEpisode, type StuckKind, type StuckRun,
} from '../../../src/replay/stuck.ts'

const at = (call: number, kind: Action['kind'] = 'notice', agent = 'main'): Action => ({ kind, agent, call, text: `${kind} at ${call}` })
const episode = (from: number, to: number, firstStuckCall: number, kind: StuckKind = 'exact'): StuckEpisode =>
  ({ from, to, firstStuckCall, kind, confidence: 'high', what: '' })
const run = (episodes: StuckEpisode[], calls = 40, resolved = false): StuckRun =>
  ({ id: `run-${calls}-${episodes.length}-${resolved}`, calls, resolved, stuck: episodes.length > 0, episodes })
/** A run of one agent and one turn. */
const oneAgent = (calls: number): ReplayedRun => ({ callAgents: Array.from({ length: calls }, () => 'main'), turnStarts: { main: [0] } })

describe('scoreStuckRun', () => {
  it.each([
    [9, undefined], [10, -2], [12, 0], [20, 8], [20 + CATCH_SLACK, 8 + CATCH_SLACK], [21 + CATCH_SLACK, undefined],
  ])('a notice after call %i: delay %s from firstStuckCall', (call, delay) => {
    const score = scoreStuckRun(run([episode(10, 20, 12)]), oneAgent(40), [at(call)])
    expect(score.scores[0]!.delay).toBe(delay)
    expect(score.unwanted).toEqual(delay === undefined ? [at(call)] : [])
  })

  it('takes the earliest notice or refusal on the episode, whatever order the actions come in, and never a stop', () => {
    const score = scoreStuckRun(run([episode(10, 20, 12)]), oneAgent(40), [at(16), at(14, 'refusal'), at(11, 'stop')])
    expect(score.scores[0]).toMatchObject({ action: at(14, 'refusal'), caughtAt: 14, delay: 2 })
    expect(score.unwanted).toEqual([])
  })

  it('counts every notice on a run not stuck, and on a stuck run those outside every episode and its slack', () => {
    expect(scoreStuckRun(run([]), oneAgent(40), [at(3), at(30)]).unwanted).toEqual([at(3), at(30)])
    const score = scoreStuckRun(run([episode(5, 8, 6), episode(20, 25, 22, 'near-duplicate')]), oneAgent(40), [at(4), at(9), at(11), at(26), at(28)])
    expect(score.scores.map(s => s.caughtAt)).toEqual([9, 26])
    expect(score.unwanted).toEqual([at(4), at(11), at(28)])
  })

  it('numbers calls across the run, and credits only the agent that makes the first stuck call', () => {
    // Run calls: 0 main, 1 sub, 2 main, 3 sub, 4 sub, 5 main; the episode is calls 2–4, sub's from its first stuck call.
    const agents = ['main', 'sub', 'main', 'sub', 'sub', 'main']
    const score = scoreStuckRun(run([episode(2, 4, 3)], 6), { callAgents: agents, turnStarts: {} }, [at(1, 'notice', 'main'), at(2, 'notice', 'sub')])
    // main's call 1 is run call 2 (inside the window, but not sub's); sub's call 2 is run call 4.
    expect(score.scores[0]).toMatchObject({ caughtAt: 4, delay: 1, action: at(2, 'notice', 'sub') })
    expect(score.unwanted).toEqual([at(1, 'notice', 'main')])
  })

  it('leaves out an episode a stop kept from being played, unless a person\'s message opened a new turn before it', () => {
    const stopped = [at(4), at(5, 'stop')]
    const marked = run([episode(10, 20, 12)])
    expect(scoreStuckRun(marked, oneAgent(40), stopped).scores[0]).toMatchObject({ unreached: true, action: undefined, delay: undefined })
    const newTurn = { callAgents: oneAgent(40).callAgents, turnStarts: { main: [0, 8] } }
    expect(scoreStuckRun(marked, newTurn, [...stopped, at(13)]).scores[0]).toMatchObject({ unreached: false, delay: 1 })
    // A stop inside the episode is not a catch, and does not keep it from being played.
    expect(scoreStuckRun(marked, oneAgent(40), [at(15, 'stop')]).scores[0]).toMatchObject({ unreached: false, action: undefined })
  })

  it('holds a stop against the episode in the agent\'s own numbering', () => {
    // sub's calls are the run's calls 3–6; its stop after its call 1 (the run's 4) comes inside the episode, not before.
    const replayed = { callAgents: ['main', 'main', 'main', 'sub', 'sub', 'sub', 'sub'], turnStarts: { main: [0], sub: [0] } }
    expect(scoreStuckRun(run([episode(3, 6, 4)], 7), replayed, [at(1, 'stop', 'sub')]).scores[0]!.unreached).toBe(false)
    expect(scoreStuckRun(run([episode(5, 6, 5)], 7), replayed, [at(1, 'stop', 'sub')]).scores[0]!.unreached).toBe(true)
  })

  it('refuses labels that count another number of calls than the run has', () => {
    expect(() => scoreStuckRun(run([], 40), oneAgent(39), [])).toThrow('the labels count 40 calls, the run has 39')
  })
})

describe('runCalls', () => {
  it('maps each agent\'s call numbers onto the run\'s, -1 before the agent\'s first call', () => {
    expect(runCalls([at(0, 'notice', 'b'), at(1, 'notice', 'a'), at(-1, 'notice', 'a')], ['a', 'b', 'a'])).toEqual([1, 2, -1])
  })
})

describe('summarizeStuck', () => {
  it('tallies catches and delays per kind and in all, and unwanted notices by stuck and resolved', () => {
    const stuck = run([episode(0, 9, 4), episode(10, 19, 12, 'near-duplicate'), episode(30, 35, 31, 'edit-revert')])
    const stuckResolved = run([episode(0, 5, 2)], 20, true)
    const summary = summarizeStuck([
      scoreStuckRun(stuck, oneAgent(40), [at(5), at(13), at(38)]),
      scoreStuckRun(stuckResolved, oneAgent(20), [at(2), at(15)]),
      scoreStuckRun(run([], 10), oneAgent(10), [at(1), at(2)]),
      scoreStuckRun(run([], 12), oneAgent(12), []),
      scoreStuckRun(run([], 14, true), oneAgent(14), [at(7)]),
    ])
    expect(summary.runs).toBe(5)
    expect(summary.byKind.all).toEqual({ episodes: 4, unreached: 0, caught: 3, delay: { median: 1, p75: 1, max: 1 } })
    expect(summary.byKind.exact).toEqual({ episodes: 2, unreached: 0, caught: 2, delay: { median: 0.5, p75: 1, max: 1 } })
    expect(summary.byKind['near-duplicate']).toEqual({ episodes: 1, unreached: 0, caught: 1, delay: { median: 1, p75: 1, max: 1 } })
    expect(summary.byKind['edit-revert']).toEqual({ episodes: 1, unreached: 0, caught: 0, delay: { median: undefined, p75: undefined, max: undefined } })
    expect(summary.byKind['same-failure-different-fix'].episodes).toBe(0)
    expect(summary.notStuck).toEqual({ resolved: { runs: 1, runsTold: 1, actions: 1 }, unresolved: { runs: 2, runsTold: 1, actions: 2 } })
    expect(summary.outside).toEqual({ resolved: { runs: 1, runsTold: 1, actions: 1 }, unresolved: { runs: 1, runsTold: 1, actions: 1 } })
  })

  it('counts an episode a stop kept from being played apart from the episodes played', () => {
    const summary = summarizeStuck([scoreStuckRun(run([episode(2, 6, 3), episode(10, 20, 12)]), oneAgent(40), [at(4), at(6, 'stop')])])
    expect(summary.byKind.all).toMatchObject({ episodes: 1, unreached: 1, caught: 1 })
  })
})

describe('readStuckLabels', () => {
  const good = { id: 'r', calls: 30, resolved: false, stuck: true, episodes: [{ from: 2, to: 9, kind: 'edit-revert', firstStuckCall: 5, confidence: 'low', what: 'x' }] }

  it('reads runs and their episodes, a run not stuck with or without an episodes array', () => {
    expect(readStuckLabels([good, { id: 's', calls: 3, resolved: true, stuck: false }])).toEqual([
      { id: 'r', calls: 30, resolved: false, stuck: true, episodes: [{ from: 2, to: 9, kind: 'edit-revert', firstStuckCall: 5, confidence: 'low', what: 'x' }] },
      { id: 's', calls: 3, resolved: true, stuck: false, episodes: [] },
    ])
  })

  it.each([
    [{}, 'not a labels file'],
    [[{ ...good, calls: -1 }], 'entry 0 (r): "calls" must be a whole number, got -1'],
    [[{ ...good, stuck: false }], '"stuck" is false but it has 1 episodes'],
    [[{ ...good, episodes: [{ ...good.episodes[0], kind: 'cycle' }] }], 'episode 0: "kind" must be one of exact, near-duplicate, edit-revert, same-failure-different-fix, got "cycle"'],
    [[{ ...good, episodes: [{ ...good.episodes[0], firstStuckCall: 10 }] }], 'expected from ≤ firstStuckCall ≤ to < calls (30), got 2, 10, 9'],
    [[{ ...good, episodes: [{ ...good.episodes[0], to: 30, firstStuckCall: 5 }] }], 'expected from ≤ firstStuckCall ≤ to < calls (30), got 2, 5, 30'],
  ])('refuses %j, naming the entry and the field', (value, message) => {
    expect(() => readStuckLabels(value)).toThrow(message)
  })
})
