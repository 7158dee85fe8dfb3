/**
 * Per-agent state stays within its bounds whatever the agent does: a property over random streams of calls and
 * claimed texts, with small bounds so that every structure fills up and evicts.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createBrakeState } from '../../src/core/brake-state.ts'
import { callOf } from '../support/observations.ts'

const BOUND = 8
const options = {
  trackedCalls: BOUND,
  oneVoice: true,
  calls: { schedule: { first: 2, every: 1 }, pollSchedule: { first: 2, every: 1 }, progressAware: true },
  sequences: { maxLength: 4, schedule: { first: 2, every: 1 }, progressAware: true },
  revisits: { schedule: { first: 3, every: 1 }, ownedPeriod: 4 },
  errors: { schedule: { first: 2, every: 1 }, inputSchedule: { first: 3, every: 1 }, maxTracked: BOUND },
  text: { threshold: 2, windowMs: 1000, cooldownMs: 10, minChars: 4, maxTracked: BOUND, maxMessageIds: BOUND, headChars: 20 },
}

const step = fc.oneof(
  fc.record({
    call: fc.record({
      tool: fc.constantFrom('read', 'bash', 'write', 'job_output'),
      arg: fc.nat(40),
      result: fc.string({ maxLength: 2000 }),
      failed: fc.boolean(),
      kind: fc.constantFrom('default', 'read', 'poller', 'mutating'),
    }),
  }),
  fc.record({ text: fc.array(fc.string({ minLength: 4, maxLength: 30 }), { maxLength: 12 }), id: fc.nat(30), at: fc.nat(5000) }),
  fc.constant({ reset: true as const }),
)

describe('bounded state', () => {
  it('never holds more than its bounds', () => {
    fc.assert(fc.property(fc.array(step, { maxLength: 300, size: 'max' }), (steps) => {
      const state = createBrakeState(options)
      for (const s of steps) {
        if ('call' in s) {
          const { tool, arg, result, failed, kind } = s.call
          state.observeCall(callOf(tool, { arg }, { result, failed, kind, ...failed ? { errorLine: result.slice(0, 40) } : {} }))
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
        expect(size['window']).toBeLessThanOrEqual(options.sequences.maxLength + 1)
        expect(size['recentResults']).toBeLessThanOrEqual(256)
        expect(size['recentChars']).toBeLessThanOrEqual(65_536)
      }
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 300) })
  }, 600_000)
})
