import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createBrakeState, LATEST_CALLS } from '../../../src/core/brake-state.ts'
import { CALL_DETECTORS } from '../../../src/core/detectors/call-detectors.ts'
import { ANSWERED, SEEN_LINES, STRETCH_CALLS } from '../../../src/core/detectors/near-duplicate.ts'
import { FILES, WINDOWS } from '../../../src/core/detectors/rereading.ts'
import type { CallObservation } from '../../../src/core/types.ts'
import { EDITS_KEPT, ENTERED, OUTCOMES } from '../../../src/core/detectors/edit-revert.ts'
import { COMMANDS, EDITS_KEPT as OUTCOME_EDITS, NAMED_EDITS } from '../../../src/core/detectors/same-failure.ts'
import { failureOf } from '../../../src/core/evidence/failures.ts'
import { shellEdits } from '../../../src/core/evidence/file-edits.ts'
import { MAX_CHANGES, MAX_FILES, MAX_VISITS } from '../../../src/core/evidence/file-states.ts'
import { callOf, type Override } from '../../support/observations.ts'

const options = {
  trackedCalls: 64,
  voice: { every: 5 },
  'identical-calls': { schedule: { first: 3, every: 5 }, pollSchedule: { first: 3, every: 5 }, progressAware: true },
  cycle: { maxLength: 4, schedule: { first: 3, every: 5 }, progressAware: true },
  'same-ground': { schedule: { first: 8, every: 5 }, ownedPeriod: 4 },
  'same-error': { schedule: { first: 3, every: 5 }, inputSchedule: { first: 5, every: 5 }, maxTracked: 8 },
  'near-duplicate': { schedule: { first: 5, every: 5 }, reasked: 3 },
  rereading: { schedule: { first: 4, every: 5 }, among: 6 },
  'duplicate-text': { threshold: 3, windowMs: 1000, cooldownMs: 0, minChars: 10, maxTracked: 8, maxMessageIds: 8, headChars: 20 },
  'same-response': { first: 3, every: 5 },
  'edit-revert': { schedule: { first: 3, every: 5 }, maxTracked: 8 },
  'same-failure': { schedule: { first: 3, every: 5 }, maxTracked: 8, acrossCommands: 4 },
}

const test = callOf('bash', { command: 'npm test' }, { result: '1 failed' })
const edit = (content: string, over: Override = {}): CallObservation => callOf('write', { file_path: 'a.ts', content }, { kind: 'mutating', ...over })
const poll = (result: string): CallObservation => callOf('job_output', { job_id: 'bash-1' }, { kind: 'poller', result })

/** Observe the calls in order and return the test call's chain length after the last one. */
function testChain(calls: CallObservation[]): number {
  const state = createBrakeState(options)
  for (const call of calls) state.observeCall(call)
  return state.callCount(test.key)
}

describe('progress', () => {
  it.each<[string, CallObservation[], number]>([
    ['no progress: the test chain grows', [test, test, test], 3],
    ['a new successful change is progress', [test, test, edit('v1'), test], 1],
    ['each new change is progress', [test, edit('v1'), test, edit('v2'), test], 1],
    ['repeating the same change is not', [test, edit('v1'), test, edit('v1'), test, edit('v1'), test], 3],
    ['a failed change is not', [test, test, edit('v1', { failed: true }), test], 3],
    ['a poller reporting news is progress', [poll('running'), test, test, poll('done'), test], 1],
    ['a poller reporting the same is not', [poll('running'), test, test, poll('running'), test], 3],
    ['a refused change is not', [test, test, edit('v1', { refused: true }), test], 3],
    ['a shell change before a failing command is', [test, test, edit('v1', { failed: true, changeStands: true }), test], 1],
  ])('%s', (_, calls, expected) => {
    expect(testChain(calls)).toBe(expected)
  })

  it('refuses a list of call detectors that does not begin with identical-calls, whose place it would take unseen', () => {
    const withoutIdentical = CALL_DETECTORS.filter(entry => entry.kind !== 'identical-calls')
    expect(() => createBrakeState(options, undefined, withoutIdentical)).toThrow('dsh-brake: the call detectors must begin with identical-calls, got same-error')
    expect(() => createBrakeState(options, undefined, [])).toThrow('got none')
    expect(createBrakeState(options, undefined, CALL_DETECTORS.slice(0, 2)).size()).not.toHaveProperty('seenLines')
    expect(createBrakeState(options).size()).toHaveProperty('seenLines')
  })

  it('forgets progress and chains on reset', () => {
    const state = createBrakeState(options)
    state.observeCall(test)
    state.observeCall(test)
    state.reset()
    state.observeCall(test)
    expect(state.callCount(test.key)).toBe(1)
  })

  it('takes results as part of a lap when progress-aware: a cycle whose output moves is work', () => {
    const feed = (progressAware: boolean): string[] => {
      const state = createBrakeState({
        ...options,
        'identical-calls': { ...options['identical-calls'], schedule: { first: 99, every: 5 }, pollSchedule: { first: 99, every: 5 }, progressAware },
        cycle: { ...options.cycle, progressAware },
      })
      const found: string[] = []
      for (let lap = 0; lap < 3; lap++) {
        for (const call of [callOf('grep', { q: 1 }, { result: `${lap * 10} matches` }), callOf('read', { file_path: 'log' })]) {
          const told = state.observeCall(call)
          if (told !== undefined) found.push(told.finding.kind)
        }
      }
      return found
    }
    expect(feed(true)).toEqual([])
    expect(feed(false)).toEqual(['cycle'])
  })

  it('tells a cycle as a cycle, and holds back its calls\' repeat counts as they come', () => {
    const state = createBrakeState({ ...options, 'identical-calls': { ...options['identical-calls'], schedule: { first: 4, every: 5 } } })
    const a = callOf('read', { f: 'a' })
    const b = callOf('bash', { command: 'make' })
    const told = Array.from({ length: 8 }, (_, i) => state.observeCall(i % 2 === 0 ? a : b))
    // The sixth call ends the third lap of a-b; the seventh and eighth are a's and b's fourth: the same loop.
    expect(told[5]).toEqual({ finding: expect.objectContaining({ kind: 'cycle', laps: 3 }) as unknown, also: [], again: false, exactBefore: false })
    expect(told.filter(said => said !== undefined)).toHaveLength(1)
  })
})

describe('one loop, one voice', () => {
  /** The kind of what each of `calls` told, in order, `-` for nothing. */
  function told(state: ReturnType<typeof createBrakeState>, calls: readonly CallObservation[]): string[] {
    return calls.map(call => state.observeCall(call)?.finding.kind ?? '-')
  }
  const four = { ...options, 'identical-calls': { ...options['identical-calls'], schedule: { first: 4, every: 5 } } }

  it('tells a three-call cycle once at its third lap, not again as each call reaches its fourth repeat', () => {
    const lap = ['a', 'b', 'c'].map(file => callOf('read', { file_path: file }))
    const heard = told(createBrakeState(four), Array.from({ length: 8 }, () => lap).flat())
    // Lap 3 (call 9) is the cycle's notice; calls 10 to 12 are each call's fourth: the same loop, held back. Lap 8
    // (call 24) is its next notice, five laps on.
    expect(heard.flatMap((kind, index) => kind === '-' ? [] : [`${index + 1}:${kind}`])).toEqual(['9:cycle', '24:cycle'])
  })

  it('holds back the repeat counts of the calls a noticed run of revisits keeps going back to', () => {
    const state = createBrakeState(four)
    const views = ['a', 'b', 'c', 'd', 'e', 'f'].map(file => callOf('read', { file_path: file }))
    // Four laps of six views: the run of revisits starts with lap two and trips at its eighth call (options: 8), then
    // every five calls; the views' fourth repeats in lap four are the same loop.
    const heard = told(state, Array.from({ length: 4 }, () => views).flat())
    expect(heard.filter(kind => kind !== '-')).toEqual(['same-ground', 'same-ground', 'same-ground'])
    // A new call ends the run; the first view's ninth call is the loop's next notice, five calls after the last.
    state.observeCall(callOf('grep', { pattern: 'new' }))
    expect(told(state, [1, 2, 3, 4, 5].map(() => views[0]!))).toEqual(['-', '-', '-', '-', 'identical-calls'])
  })

  it('starts every loop afresh after progress', () => {
    const state = createBrakeState(four)
    const read = callOf('read', { file_path: 'a' })
    expect(told(state, [read, read, read, read])).toEqual(['-', '-', '-', 'identical-calls'])
    state.observeCall(callOf('write', { file_path: 'a', content: 'v1' }, { kind: 'mutating' }))
    const again = [read, read, read, read].map(call => state.observeCall(call))
    expect(again.map(said => said?.again)).toEqual([undefined, undefined, undefined, false])
  })

  it('hears another plugin\'s notices on a call, and does not repeat them on the next calls', () => {
    const state = createBrakeState(four)
    const read = callOf('read', { file_path: 'a' })
    const heard: string[] = []
    // repeat-tool-reminder speaks after the 3rd, 5th and 8th identical call; the brake's own are due at 4, 9, 14.
    for (let call = 1; call <= 14; call++) {
      heard.push(...told(state, [read]))
      if ([3, 5, 8].includes(call)) state.heardAbout('read')
    }
    expect(heard.flatMap((kind, index) => kind === '-' ? [] : [index + 1])).toEqual([14])
  })
})

const BOUND = 8
/** Small bounds, so that every structure fills up and evicts. */
const small = {
  trackedCalls: BOUND,
  voice: { every: 1 },
  'identical-calls': { schedule: { first: 2, every: 1 }, pollSchedule: { first: 2, every: 1 }, progressAware: true },
  cycle: { maxLength: 4, schedule: { first: 2, every: 1 }, progressAware: true },
  'same-ground': { schedule: { first: 3, every: 1 }, ownedPeriod: 4 },
  'same-error': { schedule: { first: 2, every: 1 }, inputSchedule: { first: 3, every: 1 }, maxTracked: BOUND },
  'near-duplicate': { schedule: { first: 2, every: 1 }, reasked: 1 },
  rereading: { schedule: { first: 1, every: 1 }, among: 3 },
  'duplicate-text': { threshold: 2, windowMs: 1000, cooldownMs: 10, minChars: 4, maxTracked: BOUND, maxMessageIds: BOUND, headChars: 20 },
  'same-response': { first: 2, every: 3 },
  'edit-revert': { schedule: { first: 2, every: 1 }, maxTracked: BOUND },
  'same-failure': { schedule: { first: 2, every: 1 }, maxTracked: BOUND, acrossCommands: 2 },
}

const step = fc.oneof(
  fc.record({
    call: fc.record({
      tool: fc.constantFrom('read', 'bash', 'write', 'job_output'),
      arg: fc.nat(40),
      result: fc.string({ maxLength: 2000 }),
      failed: fc.boolean(),
      kind: fc.constantFrom('default', 'read', 'poller', 'mutating'),
      // Lookups and windows, so that the tables of calls that bring no news fill up too.
      look: fc.option(fc.record({
        term: fc.string({ maxLength: 8 }), file: fc.nat(40), first: fc.nat(300), lines: fc.nat(60), nothing: fc.boolean(),
      })),
    }),
  }),
  fc.record({ text: fc.array(fc.string({ minLength: 4, maxLength: 30 }), { maxLength: 12 }), id: fc.nat(30), at: fc.nat(5000) }),
  fc.record({ response: fc.record({ opening: fc.constantFrom('', 'short', 'x'.repeat(60)), whole: fc.nat(3), calls: fc.boolean() }) }),
  fc.constant({ reset: true as const }),
)

describe('bounded state', () => {
  it('remembers no call for the voice until there is a finding or a notice heard, and forgets before then', () => {
    const state = createBrakeState(options)
    const read = callOf('read', { file_path: 'a' })
    state.forgetCalls()
    state.reset()
    state.observeCall(read)
    state.observeCall(read)
    expect(state.size()['voice']).toBe(0)
    expect(state.observeCall(read)?.finding.kind).toBe('identical-calls')
    expect(state.size()['voice']).toBe(1)
    state.forgetCalls()
    expect(state.size()['voice']).toBe(0)
  })

  it(`keeps the latest ${LATEST_CALLS} calls for a notice heard, and counts afresh once they are forgotten`, () => {
    const state = createBrakeState(options)
    for (let n = 0; n < LATEST_CALLS + 4; n++) state.observeCall(callOf('read', { file_path: `f${n}` }))
    expect(state.size()['latestCalls']).toBe(LATEST_CALLS)
    state.forgetCalls()
    expect(state.size()['latestCalls']).toBe(0)
    state.observeCall(callOf('read', { file_path: 'g' }))
    expect(state.size()['latestCalls']).toBe(1)
  })

  it('tells the duplicate-text parts before any text is claimed, and forgets them on reset', () => {
    const state = createBrakeState(options)
    const before = state.size()
    expect(before['blocks']).toBe(0)
    expect(before['messageIds']).toBe(0)
    state.reset()
    const message = { id: 'm1', source: 'plugin hooks', texts: ['a block of text long enough to be tracked by the detector'] }
    state.observeText({ at: 1, messages: [message] })
    expect(Object.keys(state.size()).sort()).toEqual(Object.keys(before).sort())
    expect(state.size()['messageIds']).toBe(1)
    state.reset()
    expect(state.size()['messageIds']).toBe(0)
  })

  // A property over random streams of calls and claimed texts: per-agent state stays within its bounds whatever the
  // agent does.
  it('never holds more than its bounds', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 300, size: 'max' }), (steps) => {
      const state = createBrakeState(small)
      for (const s of steps) {
        if ('call' in s) {
          const { tool, arg, result, failed, kind, look } = s.call
          // Edits of many files (the file states) and failures (the checks' outcomes) reach the detectors that read them.
          const edits = kind === 'mutating' ? shellEdits(`sed -i '${arg % 3}i\\ x${arg}' f${arg}.py && sed -i 's/a/b${arg % 4}/' g${arg % 90}.py`) : []
          const facets = look === null ? {} : {
            lookup: { terms: [look.term], scope: [`f${look.file}`] },
            window: { file: `f${look.file}`, first: look.first, last: look.first + look.lines },
            nothing: look.nothing,
          }
          state.observeCall(callOf(tool, { arg }, {
            result, failed, kind, edits, failure: failureOf(result, failed), ...facets, ...failed ? { errorLine: result.slice(0, 40) } : {},
          }))
        } else if ('response' in s) {
          state.observeResponse(s.response)
        } else if ('text' in s) {
          state.observeText({ at: s.at, messages: [{ id: `m${s.id}`, source: 'plugin x', texts: [s.text.join('\n\n')] }] })
        } else {
          state.reset()
        }
        const size = state.size()
        expect(size['calls']).toBeLessThanOrEqual(BOUND)
        expect(size['polls']).toBeLessThanOrEqual(BOUND)
        expect(size['history']).toBeLessThanOrEqual(BOUND)
        expect(size['runWindow']).toBeLessThanOrEqual(64)
        expect(size['failingTools']).toBeLessThanOrEqual(BOUND)
        expect(size['blocks']).toBeLessThanOrEqual(BOUND)
        expect(size['messageIds']).toBeLessThanOrEqual(BOUND)
        expect(size['window']).toBeLessThanOrEqual(small.cycle.maxLength + 1)
        expect(size['recentResults']).toBeLessThanOrEqual(256)
        expect(size['recentChars']).toBeLessThanOrEqual(65_536)
        expect(size['voice']).toBeLessThanOrEqual(BOUND)
        expect(size['latestCalls']).toBeLessThanOrEqual(LATEST_CALLS)
        expect(size['responses']).toBeLessThanOrEqual(1)
        expect(size['failingChecks']).toBeLessThanOrEqual(BOUND)
        expect(size['checkOutcomes']).toBeLessThanOrEqual(BOUND)
        expect(size['outcomeEdits']).toBeLessThanOrEqual(OUTCOME_EDITS)
        expect(size['fileStates']).toBeLessThanOrEqual(MAX_FILES)
        expect(size['editsKept']).toBeLessThanOrEqual(EDITS_KEPT)
        expect(size['outcomesPerCheck']).toBeLessThanOrEqual(OUTCOMES)
        expect(size['visitsPerFile']).toBeLessThanOrEqual(MAX_VISITS)
        expect(size['changesPerFile']).toBeLessThanOrEqual(MAX_CHANGES)
        expect(size['statesEntered']).toBeLessThanOrEqual(ENTERED)
        expect(size['commandsPerChain']).toBeLessThanOrEqual(COMMANDS)
        expect(size['filesPerChain']).toBeLessThanOrEqual(NAMED_EDITS)
        expect(size['answered']).toBeLessThanOrEqual(ANSWERED)
        expect(size['seenLines']).toBeLessThanOrEqual(SEEN_LINES)
        expect(size['stretchCalls']).toBeLessThanOrEqual(STRETCH_CALLS)
        expect(size['files']).toBeLessThanOrEqual(FILES)
        expect(size['windows']).toBeLessThanOrEqual(FILES * WINDOWS)
      }
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 300) })
  }, 600_000)
})
