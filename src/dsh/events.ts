/**
 * What the brake does, as typed Cordis events for other plugins: a dashboard, a cost meter, a policy that escalates
 * further. Each notice, refusal and stop is emitted once, as it happens, with plain data (the finding that caused it,
 * the text the model reads) and the agent it concerns. Listeners run synchronously inside the brake's own listeners; a
 * listener that throws is contained like any other failure inside the brake, and never reaches the agent.
 * @module dsh-brake/dsh/events
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { StopCause } from '../core/stops.js'
import type { RunawayFinding, Finding } from '../core/kinds.js'

/** The tool call an event concerns: its name and DSH's id for it. */
export interface BrakeCall {
  readonly name: string
  readonly callId: string
}

/** A notice the brake gave the model. */
export interface BrakeNoticeEvent {
  readonly agent: Agent
  /** The call whose result the notice rides; absent for a duplicate-text notice, which rides a step's messages. */
  readonly call?: BrakeCall
  /** The loop's strongest evidence: what the notice leads with. */
  readonly finding: Finding
  /** What else the same loop showed at that call, which the notice names in a line (usually nothing). */
  readonly also: readonly Finding[]
  /** Whether the brake had told the model about this loop before: it went on after its notice. */
  readonly again: boolean
  /** The notice as the model reads it, and its one-line summary. */
  readonly text: string
  readonly summary: string
}

/** A call the brake refused before it ran (deny and stop modes). */
export interface BrakeRefusalEvent {
  readonly agent: Agent
  readonly call: BrakeCall
  /** Identical calls counted before this one. */
  readonly count: number
  /** The refusal reason, as the model reads it after `Error: `. */
  readonly reason: string
}

/** A turn the brake ended (stop mode). */
export interface BrakeStopEvent {
  readonly agent: Agent
  /** The loop that went on after its notice, and whether its last call was refused. */
  readonly cause: StopCause
  /** The reason, as the session log's `turn/end` keeps it. */
  readonly reason: string
}

/** A response the brake cut short, as it streamed, because it had fallen into repeating itself. */
export interface BrakeCutEvent {
  readonly agent: Agent
  readonly turn: number
  readonly step: number
  /** Where it repeated, what, how often, and how many responses of the turn were cut. */
  readonly finding: RunawayFinding
  /** Characters of back-to-back repetition when it was cut. */
  readonly span: number
  /** Characters of that block streamed before the cut (what the response kept of it). */
  readonly streamed: number
}

declare module '@deepseek-ai/cordis' {
  interface Events {
    /** dsh-brake gave the model a notice. */
    'dsh-brake/notice'(event: BrakeNoticeEvent): void
    /** dsh-brake refused a call before it ran. */
    'dsh-brake/refusal'(event: BrakeRefusalEvent): void
    /** dsh-brake ended an agent's turn. */
    'dsh-brake/stop'(event: BrakeStopEvent): void
    /** dsh-brake cut a response short: it had fallen into repeating itself. */
    'dsh-brake/cut'(event: BrakeCutEvent): void
  }
}

/** The events, by name. */
export interface BrakeEvents {
  'dsh-brake/notice': BrakeNoticeEvent
  'dsh-brake/refusal': BrakeRefusalEvent
  'dsh-brake/stop': BrakeStopEvent
  'dsh-brake/cut': BrakeCutEvent
}

/** Tell other plugins what the brake did, by one of its events; a listener's failure is contained. */
export type EmitBrakeEvent = <K extends keyof BrakeEvents>(name: K, event: BrakeEvents[K]) => void
