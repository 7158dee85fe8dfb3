/**
 * What an agent did, as a neutral list of events: the one input the replay and the labelling rule read, whether it
 * came from a real-trace file (the evaluation) or from a DSH session log (`dsh-brake analyze`).
 * @module dsh-brake/replay/agent-events
 */

/** A message an agent claims at the start of a model step, other than a person's: another plugin's context, a hook. */
export interface ContextMessage {
  readonly id: string
  readonly source: { readonly kind: string; readonly plugin?: string; readonly summary?: string }
  readonly texts: readonly string[]
}

/** One executed tool call and the result the model got back. */
export interface CallEvent {
  readonly kind: 'call'
  readonly agent: string
  readonly tool: string
  readonly args: unknown
  readonly isError: boolean
  readonly text: string
  /** The error code DSH recorded with a failed result (`INVALID_ARGS`, …), where there is one. */
  readonly errorCode?: string
  /**
   * A call DSH never ran: it cancelled the step first and logged a failed result for the call
   * (`ABORTED_BEFORE_DISPATCH`). No tool hook saw it live, so the replay and the labelling rule pass over it; it still
   * counts in the agent's call numbering, as it does in the log.
   */
  readonly skipped?: boolean
}

/**
 * What an agent did, in order.
 *
 * - `user`: a person's message (or a delegating parent's task): it opens a turn, and the step that claims it resets
 *   the agent's loop state.
 * - `step`: a model step begins and claims these messages, with the person's message of a `user` event just before
 *   it (session logs, which also give its `id`, `turn/step`; a trace has one step per call, implied). `opensTurn`: the
 *   turn's first step, which opens a new turn even without a person's message (a goal round, say).
 * - `call`: a tool call and its result (or a call DSH logged but never ran: `skipped`).
 * - `compaction`: the agent's context was compacted (the session event, as the log has it).
 * - `resume`: DSH restarted and resumed the session with a fresh agent, whose plugins' per-agent state starts empty.
 */
export type AgentEvent =
  | { readonly kind: 'user'; readonly agent: string; readonly text: string }
  | { readonly kind: 'step'; readonly agent: string; readonly id?: string; readonly contexts: readonly ContextMessage[]; readonly opensTurn?: boolean }
  | CallEvent
  | { readonly kind: 'compaction'; readonly agent: string; readonly type: string; readonly data: unknown }
  | { readonly kind: 'resume'; readonly agent: string }
