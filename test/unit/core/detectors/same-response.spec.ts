import { describe, expect, it } from 'vitest'
import { createResponseDigest, createSameResponseDetector, OPENING_CHARS, type ResponseObservation } from '../../../../src/core/detectors/same-response.ts'

/** A response as the brake reduces it, from its visible text streamed in `parts`. */
function response(text: string | readonly string[], calls = false, epoch = 0): ResponseObservation {
  const digest = createResponseDigest()
  for (const part of typeof text === 'string' ? [text] : text) digest.push(part)
  return { opening: digest.opening, whole: digest.whole, calls, epoch }
}

/** The counts at which the detector speaks over `responses`, with a schedule of 3, then every 5. */
function countsTold(responses: readonly ResponseObservation[]): number[] {
  const detector = createSameResponseDetector({ first: 3, every: 5 })
  return responses.flatMap(seen => detector.observe(seen)?.finding.count ?? [])
}

const ANSWER = 'The tests pass now. I changed the parser to accept trailing commas and added two cases for it.'
const OPENING = 'The server did not come up, so I will restart it and look at the log again before anything else.'

describe('the response digest', () => {
  it('keeps the opening passage, up to the first blank line, whitespace folded', () => {
    expect(response('First  line\nstill   the first passage.\n\nSecond passage.').opening).toBe('First line still the first passage.')
  })

  it('keeps a bounded opening however long the response', () => {
    expect(response('word '.repeat(100_000)).opening.length).toBeLessThanOrEqual(OPENING_CHARS)
  })

  it('hashes the whole text the same however it was split into deltas, and whatever its spacing', () => {
    const whole = response(ANSWER).whole
    expect(response(ANSWER.split(/(?<= )/)).whole).toBe(whole)
    expect(response(`\n  ${ANSWER.replaceAll(' ', '  ')}\n`).whole).toBe(whole)
  })

  it('tells apart texts that differ past their opening', () => {
    expect(response(`${ANSWER}\n\nDone.`).whole).not.toBe(response(`${ANSWER}\n\nDone!`).whole)
    expect(response('ab').whole).not.toBe(response('a b').whole)
  })
})

describe('responses that repeat across steps', () => {
  it('counts the same answer step after step, and speaks on the schedule', () => {
    expect(countsTold(Array.from({ length: 13 }, () => response(ANSWER)))).toEqual([3, 8, 13])
  })

  it('reports the answer whole, with its opening', () => {
    const detector = createSameResponseDetector({ first: 2, every: 5 })
    detector.observe(response(ANSWER))
    expect(detector.observe(response(ANSWER))).toEqual({
      finding: { kind: 'same-response', count: 2, whole: true, head: ANSWER },
      calls: [expect.any(Number) as number],
    })
  })

  it('counts responses opening with the same passage before tool calls', () => {
    const found = countsTold(Array.from({ length: 3 }, (_, i) => response(`${OPENING}\n\nAttempt ${i}.`, true)))
    expect(found).toEqual([3])
  })

  it('does not count answers that open alike but say different things', () => {
    expect(countsTold(Array.from({ length: 6 }, (_, i) => response(`${OPENING}\n\nThis time: ${i}.`)))).toEqual([])
  })

  it('does not count a short common opening ("Let me check.")', () => {
    expect(countsTold(Array.from({ length: 6 }, () => response('Let me check.', true)))).toEqual([])
  })

  it('does not count empty answers (reasoning alone)', () => {
    expect(countsTold(Array.from({ length: 6 }, () => response('')))).toEqual([])
  })

  it('starts again after progress, or another response between', () => {
    const same = response(ANSWER)
    expect(countsTold([same, same, { ...same, epoch: 1 }, same, same])).toEqual([])
    expect(countsTold([same, same, response('Something else entirely, at some length, to break the run.'), same, same])).toEqual([])
  })

  it('forgets on reset, and holds at most one run', () => {
    const detector = createSameResponseDetector({ first: 3, every: 5 })
    detector.observe(response(ANSWER))
    detector.observe(response(ANSWER))
    expect(detector.size()).toEqual({ responses: 1 })
    detector.reset()
    expect(detector.size()).toEqual({ responses: 0 })
    expect(detector.observe(response(ANSWER))).toBeUndefined()
  })
})
