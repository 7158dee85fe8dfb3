/**
 * The one shape every detector has, and the one rule for when its next notice is due.
 * @module dsh-brake/core/detectors/detector
 */

/**
 * A pure, synchronous loop detector. It keeps bounded state between observations and answers each one with a
 * finding when that observation trips it. Everything it needs comes in the observation; everything it tells goes out
 * by return.
 */
export interface Detector<Observation, Found> {
  /** Feed one observation; returns a finding when this observation trips the detector, otherwise `undefined`. */
  observe(observation: Observation): Found | undefined
  /** Forget everything (a person or a delegating parent spoke). */
  reset(): void
  /** How many entries each of its bounded structures holds now (for the bound checks in the tests). */
  size(): Readonly<Record<string, number>>
}

/** When notices fall on a count of repeats: at `first`, then every `every` further repeats after the last notice. */
export interface Schedule {
  readonly first: number
  readonly every: number
}

/**
 * Whether a notice is due at `count`, when the last one for the same evidence was given at `lastNotice` (0: none yet).
 * Measured from the last notice rather than from `first`, so a notice held back by a detector's own condition (a
 * second variant not yet seen) comes as soon as the condition holds, and the next one `every` repeats after it.
 */
export function isDue(schedule: Schedule, count: number, lastNotice: number): boolean {
  return lastNotice === 0 ? count >= schedule.first : count >= lastNotice + schedule.every
}
