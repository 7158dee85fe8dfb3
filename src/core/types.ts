/**
 * The one shape every detector has, and the plain data that flows in and out of them.
 *
 * Nothing here knows DSH: the adapter (`src/index.ts`) turns tool executions and claimed messages into
 * observations, and findings into notices or denials. Time is always passed in, never read.
 * @module dsh-brake/core/types
 */

/**
 * A pure, synchronous loop detector. It keeps bounded state between observations and answers each one with a
 * finding when that observation trips it.
 */
export interface Detector<Observation, Found> {
  /** Feed one observation; returns a finding when this observation trips the detector, otherwise `undefined`. */
  observe(observation: Observation): Found | undefined
  /** Forget everything (a person or a delegating parent spoke). */
  reset(): void
}

/** One executed tool call of one agent, in call order. */
export interface CallObservation {
  /** Tool name as the model requested it. */
  readonly tool: string
  /** Canonical arguments (key-sorted JSON). Only read to build a finding's preview; never retained. */
  readonly args: string
  /** 64-bit fingerprint of tool name plus canonical arguments: the call identity. */
  readonly key: string
}

/** The same call identity observed `count` times since the last reset. */
export interface RepeatedCallFinding {
  readonly kind: 'repeated-call'
  readonly tool: string
  /** Canonical arguments of the call that tripped the detector (unbounded; the message layer trims it). */
  readonly args: string
  /** How many times this identity has been observed, the current call included. */
  readonly count: number
}

/** A cycle of pairwise-distinct call identities repeated back to back. */
export interface SequenceFinding {
  readonly kind: 'sequence'
  /** Tool names of one lap, in call order, starting with the oldest call of the last lap. */
  readonly tools: readonly string[]
  /** Complete laps seen back to back, the current one included. */
  readonly laps: number
}

/** One text block that crossed the duplicate threshold. */
export interface DuplicateBlock {
  /** Occurrences counted toward this finding (at least the threshold). */
  readonly count: number
  /** Source labels of the messages the block came from, first seen first, at most a handful. */
  readonly sources: readonly string[]
  /** The beginning of the block (newlines normalized); the message layer trims it further. */
  readonly head: string
  /** Length of the whole normalized block, in UTF-16 code units. */
  readonly length: number
}

/** Text blocks repeated across (or inside) the messages claimed for one step. */
export interface DuplicateTextFinding {
  readonly kind: 'duplicate-text'
  /** The blocks that tripped in this observation, in the order they tripped. Never empty. */
  readonly blocks: readonly DuplicateBlock[]
  /** Occurrences within the window that trip a block. */
  readonly threshold: number
  /** The window the counts were taken in, in milliseconds. */
  readonly windowMs: number
}

/** Anything a detector can report. */
export type Finding = RepeatedCallFinding | SequenceFinding | DuplicateTextFinding
