/**
 * Responses that repeat across steps: the same answer step after step, or every response opening with the same
 * passage while nothing changes. Each response is reduced as it streams to its opening and a hash of its whole text,
 * so a long answer costs no more to remember than a short one.
 * Design: docs/design.md#responses
 * @module dsh-brake/core/detectors/same-response
 */
import { fingerprint } from '../tables/fingerprint.js'
import type { Evidence, SameResponseFinding } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Characters of a response's opening passage kept, at most. */
export const OPENING_CHARS = 400
/** Characters an opening must have to be compared. */
export const OPENING_MIN = 40

/** One response, reduced. */
export interface ResponseObservation {
  /** Its opening passage, whitespace folded. */
  readonly opening: string
  /** A hash of its whole visible text, whitespace folded. */
  readonly whole: number
  /** Whether it asked for a tool call. */
  readonly calls: boolean
  /** The progress epoch it was given in. */
  readonly epoch: number
}

/** Reduce a response's visible text to its opening and a hash of the whole, as it streams. */
export interface ResponseDigest {
  push(text: string): void
  /** The opening passage so far. */
  readonly opening: string
  /** The hash of the whole text so far. */
  readonly whole: number
}

/** Raw characters kept for the opening: twice what it keeps, as folding whitespace shortens it. */
const HEAD_CHARS = 2 * OPENING_CHARS

/** Start a digest of one response. */
export function createResponseDigest(): ResponseDigest {
  let head = ''
  // Two 32-bit FNV-1a lanes with different offsets, read as 53 bits: collisions stay far below one in a billion for
  // the handful of responses one agent's loop compares.
  let low = 0x811c9dc5
  let high = 0x050c5d1f
  // Whitespace is folded: a run of it counts as one space, and only between two other characters.
  let started = false
  let blank = false
  const mix = (code: number): void => {
    low = Math.imul(low ^ code, 0x01000193)
    high = Math.imul(high ^ code, 0x01000193)
  }
  return {
    push(text) {
      if (head.length < HEAD_CHARS) head += text.slice(0, HEAD_CHARS - head.length)
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i)
        if (code === 32 || code === 9 || code === 10 || code === 13) {
          blank = started
          continue
        }
        if (blank) mix(32)
        mix(code)
        started = true
        blank = false
      }
    },
    get opening() {
      return (head.split(/\n\s*\n/, 1)[0] ?? '').replace(/\s+/g, ' ').trim().slice(0, OPENING_CHARS)
    },
    get whole() {
      return (high >>> 11) * 0x100000000 + (low >>> 0)
    },
  }
}

/** Create the detector of responses that repeat, on `schedule` (counted in responses). */
export function createSameResponseDetector(schedule: Schedule): Detector<ResponseObservation, Evidence<SameResponseFinding>> {
  let key: number | undefined
  let epoch = 0
  let count = 0
  let noticed = 0
  return {
    observe(response) {
      const whole = !response.calls
      const opening = response.opening.length >= OPENING_MIN ? fingerprint(`opening ${response.opening}`) : undefined
      // An answer with no visible text (reasoning alone) says nothing to compare.
      const next = whole ? response.opening === '' ? undefined : fingerprint(`answer ${response.whole}`) : opening
      if (next === undefined || next !== key || response.epoch !== epoch) {
        key = next
        epoch = response.epoch
        count = next === undefined ? 0 : 1
        noticed = 0
        return undefined
      }
      count++
      if (!isDue(schedule, count, noticed)) return undefined
      noticed = count
      return { finding: { kind: 'same-response', count, whole, head: response.opening }, calls: [next] }
    },
    reset() {
      key = undefined
      count = 0
      noticed = 0
    },
    size: () => ({ responses: count === 0 ? 0 : 1 }),
  }
}
