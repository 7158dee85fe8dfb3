/**
 * Replaying recorded agent activity through loop-detection plugins, the way DSH would have dispatched it.
 *
 * Each replay mounts the given plugins on a fresh, real Cordis Context and drives the two events they listen to:
 * `agent/pre-step` once per model step (the first step of a turn claims the person's message, with
 * `source: { kind: 'user' }`, which resets the detectors; every later step claims the contexts the previous call's
 * decision added, exactly as DSH's agent loop puts them in the next step's inbox), and `tools/post-execute` once per
 * call, with an execution object and a result shaped like DSH's. Every plugin-sourced message that comes back is a
 * notice, recorded against the call whose result it follows.
 *
 * The input is a neutral list of per-agent events, not a trace file's format, so the same replay can serve a
 * session-log analyzer. Assumptions: one call per model step (true of the traces' single-call agents), and no clock
 * (the replay runs in milliseconds, so time windows in a plugin see every event as recent).
 */
import { Context } from '@deepseek-ai/cordis'

/** What an agent did, in order: a person's message, or one executed tool call with its result. */
export type AgentEvent =
  | { readonly kind: 'user'; readonly agent: string; readonly text: string }
  | {
    readonly kind: 'call'
    readonly agent: string
    readonly tool: string
    readonly args: unknown
    readonly isError: boolean
    readonly text: string
  }

/** One plugin to mount: the module (with `apply`, `name` and usually `Config`) and its config row. */
export interface Mount {
  readonly plugin: object
  readonly config: Readonly<Record<string, unknown>>
}

/** A notice a plugin gave, placed after the agent's `call`-th call (0-based since the run start; -1: before any). */
export interface Notice {
  readonly agent: string
  readonly call: number
  readonly plugin: string
  readonly hook: 'post-execute' | 'pre-step'
  readonly summary: string
}

/** A context message as DSH's loop carries it. */
interface Message {
  readonly id: string
  readonly role: 'user'
  readonly content: readonly { readonly type: string; readonly text?: string }[]
  readonly source: { readonly kind: string; readonly plugin?: unknown; readonly summary?: unknown }
}

type Waterfall = (name: string, ...args: unknown[]) => Promise<unknown>

/** What the replay keeps per agent: the object plugins key their state on, and the contexts waiting for its next step. */
interface AgentState {
  readonly agent: object
  calls: number
  pending: Message[]
}

const signal = new AbortController().signal

/**
 * Replay one run's events through freshly mounted plugins.
 * @returns the notices, in the order they were given.
 * @throws when a plugin refuses its config at mount time.
 */
export async function replay(events: readonly AgentEvent[], mounts: readonly Mount[]): Promise<Notice[]> {
  const waterfall = await host(mounts)
  const agents = new Map<string, AgentState>()
  const notices: Notice[] = []
  let turn = 0
  let step = 0
  let callSeq = 0

  function stateOf(name: string): AgentState {
    let state = agents.get(name)
    if (state === undefined) {
      state = { agent: { id: name }, calls: 0, pending: [] }
      agents.set(name, state)
    }
    return state
  }

  /** One model step's start: the claimed messages go through `agent/pre-step`; new plugin messages are notices. */
  async function preStep(name: string, claimed: Message[]): Promise<void> {
    const state = stateOf(name)
    state.pending = []
    step++
    const decision = await waterfall('agent/pre-step', { agent: state.agent, messages: claimed, turn, step, signal }, function enter() {
      return Promise.resolve({ kind: 'enter', messages: claimed })
    }) as { kind: string; messages?: readonly Message[] }
    for (const message of decision.messages ?? []) {
      if (!claimed.includes(message)) record(name, state.calls - 1, 'pre-step', message)
    }
  }

  function record(agent: string, call: number, hook: Notice['hook'], message: Message): void {
    if (message.source.kind !== 'plugin') return
    notices.push({ agent, call, plugin: String(message.source.plugin), hook, summary: typeof message.source.summary === 'string' ? message.source.summary : '' })
  }

  for (const event of events) {
    const state = stateOf(event.agent)
    if (event.kind === 'user') {
      turn++
      await preStep(event.agent, [...state.pending, userMessage(event.text)])
      continue
    }
    // Every step after a turn's first claims what the previous call's decision added (often nothing).
    if (state.calls > 0 || state.pending.length > 0) await preStep(event.agent, state.pending)
    const execution = {
      token: Symbol('exec'), callId: `call_${++callSeq}`, rootCallId: `call_${callSeq}`,
      name: event.tool, arguments: event.args, agent: state.agent, signal,
    }
    const result = { content: [{ type: 'text', text: event.text }], isError: event.isError }
    const decision = await waterfall('tools/post-execute', execution, result, accept) as { additionalContexts?: readonly Message[] }
    for (const message of decision.additionalContexts ?? []) {
      record(event.agent, state.calls, 'post-execute', message)
      state.pending.push(message)
    }
    state.calls++
  }
  // The model's last step claims whatever the last call added.
  for (const [name, state] of agents) {
    if (state.pending.length > 0) await preStep(name, state.pending)
  }
  return notices
}

/** A fresh root Context with the plugins mounted in order; its waterfall, bound. */
async function host(mounts: readonly Mount[]): Promise<Waterfall> {
  const ctx = new Context()
  for (const mount of mounts) {
    await ctx.plugin(mount.plugin as never, mount.config as never)
  }
  return (ctx as unknown as { waterfall: Waterfall }).waterfall.bind(ctx)
}

function accept(): Promise<unknown> {
  return Promise.resolve({ kind: 'accept' })
}

function userMessage(text: string): Message {
  return { id: globalThis.crypto.randomUUID(), role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } }
}
