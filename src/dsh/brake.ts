/**
 * One mounted brake: what its listeners and its guard share. State lives per agent in a `WeakMap`, so subagents are
 * isolated and a disposed agent costs nothing; the mounted plugin's context owns everything else, so a restart (a
 * config edit, HMR) starts afresh.
 * @module dsh-brake/dsh/brake
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { ToolExecution } from '@deepseek-ai/dsh-tools'
import type { Config } from '../config/keys.js'
import type { ResolvedConfig } from '../config/resolve.js'
import { createBrakeState, type BrakeState, type DetectorFault } from '../core/brake-state.js'
import type { RunawayOptions } from '../core/stream/runaway-rules.js'
import { createIdentify, type Identity } from '../core/identity/identify.js'
import type { BrakeEvents, EmitBrakeEvent } from './events.js'
import { FILE_CHANGING_SHELL_COMMANDS, STOCK_TOOL_POLICIES } from './stock-tools.js'
import { createStopMode, type StopMode } from './stop-mode.js'
import { createSubagentStops, type SubagentStops } from './subagents.js'

/** What the listeners and the guard of one mounted brake share. */
export interface Brake {
  readonly name: string
  readonly config: Readonly<Config>
  /** Deny and stop modes: the guard refuses exact repeats past `callDenyCount`. */
  readonly deny: boolean
  /** Stop mode, when on: a loop that goes on after its notice ends the turn. */
  readonly stopMode: StopMode | undefined
  /** The call's class and identity; `undefined` when it is not watched, an agent-less call among them. */
  identify(exec: ToolExecution): Identity | undefined
  /** The agent's state, created on first use. */
  stateOf(agent: Agent): BrakeState
  /** The agent's state if it has one. */
  existingState(agent: Agent): BrakeState | undefined
  /** Forget the agent: its next call starts with fresh counts, and a stop it had coming is off. */
  forget(agent: Agent): void
  /** Reasons of stopped subagents, waiting for their parents' delegation results. */
  readonly subagents: SubagentStops
  readonly emit: EmitBrakeEvent
  /** The context of the agent owning `session` was compacted: forget its calls. */
  compacted(session: object): void
  /** Executions this brake refused: their refusal reason already told the model, so no notice repeats it. */
  readonly refused: WeakSet<object>
  /** Log the first failure at `where`; the brake then simply stays out of the way for that call or step. */
  contain(where: string, error: unknown): void
  /** How a streaming response is watched for repeating itself; undefined when that is off. */
  readonly stream: RunawayOptions | undefined
  /** The agent loop's model requests, by their signal, as `agent/request` announced them: whose, which turn and step. */
  readonly requests: WeakMap<AbortSignal, LoopRequest>
  /** Responses cut in each agent's current turn. */
  readonly cuts: WeakMap<Agent, { turn: number; count: number }>
  /** Notices waiting for each agent's next step (about its responses, which no tool result carries). */
  readonly waiting: WeakMap<Agent, UserMessage[]>
}

/** A model request the agent loop made: for which agent, in which turn and step. */
export interface LoopRequest {
  readonly agent: Agent
  readonly turn: number
  readonly step: number
}

/** Create the shared part of a brake mounted on `ctx` as plugin `name`. */
export function createBrake(
  ctx: Context, name: string, { config, detectors, stream }: ResolvedConfig, report: (line: string) => void,
): Brake {
  const identify = createIdentify({
    include: config.include,
    exclude: config.exclude,
    policies: config.toolPolicies,
    defaults: STOCK_TOOL_POLICIES,
    fileChangingCommands: [...FILE_CHANGING_SHELL_COMMANDS, ...config.fileChangingCommands],
  })
  const states = new WeakMap<Agent, BrakeState>()
  // Compaction shows in a session's log, which names no agent: the agents' sessions, as they are first seen.
  const sessions = new WeakMap<object, Agent>()
  const logger = ctx.logger(name)
  const reported = new Set<string>()
  function contain(where: string, error: unknown): void {
    if (reported.has(where)) return
    reported.add(where)
    logger.error('dsh-brake: %s failed and was skipped; the agent is unaffected (later failures here are not logged): %s',
      where, error instanceof Error ? error.stack ?? error.message : String(error))
  }
  // One signature for the three events (Cordis types each name with its own payload; a generic name cannot pair them).
  const emitEvent: (name: keyof BrakeEvents, event: BrakeEvents[keyof BrakeEvents]) => void = ctx.emit.bind(ctx)
  const emit: EmitBrakeEvent = (name, event) => {
    try {
      emitEvent(name, event)
    } catch (error) {
      contain(`${name} listener`, error)
    }
  }
  // A call detector that throws is switched off for its agent, and said once for all agents.
  const detectorFault: DetectorFault = (detector, error) => contain(`tools/post-execute: the ${detector} detector`, error)
  const subagents = createSubagentStops()
  const waiting = new WeakMap<Agent, UserMessage[]>()
  // Made from the brake's parts ahead of the brake itself, which forgets through it.
  const stopMode = config.mode === 'stop'
    ? createStopMode({ name, subagents, emit, contain, report, goals: () => ctx.get('goals') })
    : undefined
  return {
    name,
    config,
    deny: config.mode !== 'remind',
    stopMode,
    identify: exec => exec.agent === undefined ? undefined : identify(exec.name, exec.arguments),
    stateOf(agent) {
      let state = states.get(agent)
      if (state === undefined) {
        states.set(agent, state = createBrakeState(detectors, detectorFault))
        // Every DSH agent has a session; a host that hands in a bare agent still gets the rest of the brake.
        const session: unknown = agent.session
        if (typeof session === 'object' && session !== null) sessions.set(session, agent)
      }
      return state
    },
    existingState: agent => states.get(agent),
    forget(agent) {
      states.delete(agent)
      waiting.delete(agent)
      stopMode?.forget(agent)
    },
    subagents,
    emit,
    compacted(session) {
      const agent = sessions.get(session)
      if (agent !== undefined) states.get(agent)?.forgetCalls()
    },
    refused: new WeakSet(),
    contain,
    stream,
    requests: new WeakMap(),
    cuts: new WeakMap(),
    waiting,
  }
}
