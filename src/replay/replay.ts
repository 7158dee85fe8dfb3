/**
 * Replaying what agents did through loop-detection plugins, the way DSH's agent loop would have dispatched it: the
 * plugins mounted on a fresh, real Cordis Context with a minimal `tools` service, and the events they listen to driven
 * in DSH's order. No clock: a time window in a plugin sees every event as recent.
 * Design: docs/design.md#source-layout; what is replayed: docs/analyze.md#how-it-is-replayed
 * @module dsh-brake/replay/replay
 */
import { Context, symbols } from '@deepseek-ai/cordis'
import { isStopReason } from '../dsh/readings.js'
import type { Action } from './actions.js'
import type { AgentEvent, CallEvent, ContextMessage } from './agent-events.js'

/** One plugin to mount: the module (with `apply`, `name` and usually `Config`) and its config row. */
export interface Mount {
  readonly plugin: object
  readonly config: Readonly<Record<string, unknown>>
}

/** What the plugins did over one replay. */
export interface ReplayResult {
  /** Their notices, refusals and stops, in the order they came. */
  readonly actions: Action[]
  /** Recorded calls a stop spared: not played, as the stop had ended their turn. */
  spared: number
}

/** What the agents are, where the recording says: the session header each agent's `session.header` shows. */
export interface ReplayOptions {
  readonly headers?: ReadonlyMap<string, Readonly<Record<string, unknown>>>
}

/** Replay one recording through plugins mounted once. */
export type Replayer = (events: readonly AgentEvent[], options?: ReplayOptions) => Promise<ReplayResult>

/** A context message as DSH's loop carries it. */
interface Message {
  readonly id: string
  readonly role: 'user'
  readonly content: readonly { readonly type: string; readonly text?: string }[]
  readonly source: { readonly kind: string; readonly plugin?: unknown; readonly summary?: unknown }
}

/** A guard as `ctx.tools.guard` takes it: a reason refuses the call. */
type Guard = (exec: object) => string | undefined

interface Host {
  waterfall(name: string, ...args: unknown[]): Promise<unknown>
  emit(name: string, ...args: unknown[]): void
  readonly guards: readonly Guard[]
}

/** What the replay keeps per agent. */
interface AgentState {
  readonly name: string
  /** The object plugins key their state on, shaped like the parts of a DSH agent they read. */
  readonly agent: object
  /** Calls of the recording so far (played or not): the next call's index. */
  calls: number
  /** Contexts the last calls' decisions added, waiting for the next step. */
  pending: Message[]
  /** Whether the recording gives this agent's steps (a session log), or each call is its own step (a trace). */
  explicitSteps: boolean
  /** Whether a stop ended the current turn: its calls are spared. */
  stopped: boolean
  /** The running step's signal, which a cancel aborts. */
  step: AbortController
  /** A person's message the agent's next step claims. */
  person: Message | undefined
}

const neverAborted = new AbortController().signal

/**
 * Replay one recording's events through freshly mounted plugins.
 * @returns what the plugins did: notices, refusals and stops, in order, and the calls stops spared.
 * @throws when a plugin refuses its config at mount time.
 */
export async function replay(events: readonly AgentEvent[], mounts: readonly Mount[], options: ReplayOptions = {}): Promise<ReplayResult> {
  const host = await mount(mounts)
  return withoutStopLines(() => play(host, events, options))
}

/**
 * Plugins mounted once, to replay many recordings through: each replay's agents are new objects, so per-agent state
 * starts empty as it does for a new session in DSH, where one mounted plugin serves every agent. Mounting is most of
 * a short recording's replay, so a run over thousands of session logs mounts once.
 * @throws when a plugin refuses its config at mount time.
 */
export async function createReplayer(mounts: readonly Mount[]): Promise<Replayer> {
  const host = await mount(mounts)
  return (events, options = {}) => withoutStopLines(() => play(host, events, options))
}

/**
 * Run `fn` with dsh-brake's stop lines held back from stderr. Live, a stop writes its reason there for the person at
 * the terminal; a replayed stop is a finding the replay reports, not news for this terminal. Everything else written
 * to stderr meanwhile passes.
 */
export async function withoutStopLines<T>(fn: () => Promise<T>): Promise<T> {
  const stderr = process.stderr
  const original = Object.getOwnPropertyDescriptor(stderr, 'write')
  const write = stderr.write.bind(stderr) as (...args: unknown[]) => boolean
  Object.defineProperty(stderr, 'write', {
    configurable: true,
    writable: true,
    value: (chunk: unknown, ...rest: unknown[]) => typeof chunk === 'string' && isStopReason(chunk) ? true : write(chunk, ...rest),
  })
  try {
    return await fn()
  } finally {
    if (original === undefined) delete (stderr as { write?: unknown }).write
    else Object.defineProperty(stderr, 'write', original)
  }
}

async function play(host: Host, events: readonly AgentEvent[], options: ReplayOptions): Promise<ReplayResult> {
  const playback = new Playback(host, options)
  for (const event of events) {
    const state = playback.stateOf(event.agent)
    // Only a step and a call wait for the plugins; the other kinds are done at once.
    const done = (ON_EVENT[event.kind] as Handler<AgentEvent>)(playback, event, state)
    if (done instanceof Promise) await done
  }
  // The model's last step claims whatever the last call added (and a person's message no step claimed yet).
  for (const [name, state] of playback.agents) {
    if ((state.pending.length > 0 || state.person !== undefined) && !state.stopped) await playback.preStep(name, playback.claims(state))
  }
  return playback.result
}

/** What one kind of event does to the replay, given the state of the agent it is about. */
type Handler<E extends AgentEvent> = (playback: Playback, event: E, state: AgentState) => Promise<void> | void

/** Each kind of event, played as DSH's loop would have dispatched it. */
const ON_EVENT: { readonly [K in AgentEvent['kind']]: Handler<Extract<AgentEvent, { kind: K }>> } = {
  user(playback, event, state) {
    // A new turn; its first step claims the message (the `step` that follows, or in a trace the next call).
    playback.turn++
    state.stopped = false
    state.person = userMessage(event.text)
  },
  step(playback, event, state) {
    state.explicitSteps = true
    // A turn that opens without a person's message (a goal round) ends a stop all the same.
    if (event.opensTurn === true && state.person === undefined) {
      playback.turn++
      state.stopped = false
    }
    if (!state.stopped) return playback.preStep(event.agent, [...playback.claims(state), ...event.contexts.map(contextMessage)])
  },
  call: (playback, event, state) => playback.playCall(event, state),
  compaction(playback, event, state) {
    playback.host.emit('session/event', (state.agent as { session: object }).session, { type: event.type, data: event.data })
  },
  resume(playback, event, state) {
    playback.freshAgent(event.agent, state.calls).explicitSteps = state.explicitSteps
  },
}

/** One replay of one recording: its agents, what the plugins did, and where it is in the turns and steps. */
class Playback {
  readonly agents = new Map<string, AgentState>()
  readonly result: ReplayResult = { actions: [], spared: 0 }
  turn = 0
  private stepNumber = 0
  private callSeq = 0
  readonly host: Host
  private readonly options: ReplayOptions

  constructor(host: Host, options: ReplayOptions) {
    this.host = host
    this.options = options
  }

  stateOf(name: string): AgentState {
    return this.agents.get(name) ?? this.freshAgent(name, 0)
  }

  /** A new agent object for `name`, whose calls are numbered on from `calls`. */
  freshAgent(name: string, calls: number): AgentState {
    const state: AgentState = {
      name, agent: {}, calls, pending: [], explicitSteps: false, stopped: false, step: new AbortController(), person: undefined,
    }
    Object.assign(state.agent, fakeAgent(this.options.headers?.get(name) ?? {}, state, this.result))
    this.agents.set(name, state)
    return state
  }

  /** One model step's start: the claimed messages go through `agent/pre-step`; new plugin messages are notices. */
  async preStep(name: string, claimed: Message[]): Promise<void> {
    const state = this.stateOf(name)
    state.pending = []
    state.step = new AbortController()
    this.stepNumber++
    const payload = { agent: state.agent, messages: claimed, turn: this.turn, step: this.stepNumber, signal: state.step.signal }
    const decision = await this.host.waterfall('agent/pre-step', payload, function enter() {
      return Promise.resolve({ kind: 'enter', messages: claimed })
    }) as { kind: string; messages?: readonly Message[] }
    // A rejected step ends the turn; a step cancelled in its pre-step never enters: DSH logs none of its messages.
    if (decision.kind === 'reject') stop(state, this.result, 'the step was rejected')
    if (state.stopped) return
    for (const message of decision.messages ?? []) {
      if (!claimed.includes(message)) this.record(name, state.calls - 1, message)
    }
    // The step's model request: a plugin may still end the turn here, before the model is asked.
    const request = { agent: state.agent, turn: this.turn, step: this.stepNumber, signal: state.step.signal }
    await this.host.waterfall('agent/request', request, function config() {
      return Promise.resolve({})
    })
  }

  private record(agent: string, call: number, message: Message): void {
    if (message.source.kind !== 'plugin') return
    const { plugin, summary } = message.source
    this.result.actions.push({ kind: 'notice', agent, call, text: typeof summary === 'string' ? summary : '', plugin: String(plugin) })
  }

  /** What the agent's next step claims: what the last calls' decisions added, then a person's message, if one waits. */
  claims(state: AgentState): Message[] {
    const person = state.person
    state.person = undefined
    return person === undefined ? state.pending : [...state.pending, person]
  }

  async playCall(event: CallEvent, state: AgentState): Promise<void> {
    // A call DSH logged but never ran reached no hook live: it only takes its number.
    if (event.skipped === true) {
      state.calls++
      return
    }
    // Without steps (a trace), each call is its own step, which claims what the previous call's decision added (often
    // nothing) and the person's message that opened the turn.
    if (state.person !== undefined || (!state.explicitSteps && (state.calls > 0 || state.pending.length > 0))) {
      await this.preStep(event.agent, this.claims(state))
    }
    if (state.stopped) {
      this.result.spared++
      state.calls++
      return
    }
    const execution = {
      token: Symbol('exec'), callId: `call_${++this.callSeq}`, rootCallId: `call_${this.callSeq}`,
      name: event.tool, arguments: event.args, agent: state.agent, signal: neverAborted,
    }
    const reason = refusalOf(this.host.guards, execution)
    if (reason !== undefined) this.result.actions.push({ kind: 'refusal', agent: event.agent, call: state.calls, text: reason })
    const decision = await this.host.waterfall('tools/post-execute', execution, reason === undefined ? recorded(event) : refused(reason), accept) as {
      additionalContexts?: readonly Message[]
    }
    for (const message of decision.additionalContexts ?? []) {
      this.record(event.agent, state.calls, message)
      state.pending.push(message)
    }
    state.calls++
  }
}

/**
 * The parts of a DSH agent a plugin reads: its id, its session's header (whether it is a subagent), an inbox to put
 * claimed messages back into, and `cancel`, which here records a stop.
 */
function fakeAgent(header: Readonly<Record<string, unknown>>, state: AgentState, result: ReplayResult): object {
  return {
    id: state.name,
    session: { id: state.name, header },
    inbox: { prepend() {} },
    cancel(cause: unknown) {
      const reason = (cause as { reason?: unknown } | undefined)?.reason
      stop(state, result, typeof reason === 'string' ? reason : '')
    },
  }
}

/** End the agent's turn after its last call: the running step's signal aborts, and the rest of the turn is skipped. */
function stop(state: AgentState, result: ReplayResult, reason: string): void {
  if (state.stopped) return
  state.stopped = true
  result.actions.push({ kind: 'stop', agent: state.name, call: state.calls - 1, text: reason })
  state.step.abort()
}

/** The first guard's reason to refuse the call, as DSH's registry asks them in order. */
function refusalOf(guards: readonly Guard[], exec: object): string | undefined {
  for (const guard of guards) {
    const reason = guard(exec)
    if (reason !== undefined) return reason
  }
  return undefined
}

/** A fresh root Context with a `tools` service for guards, and the plugins mounted in order. */
async function mount(mounts: readonly Mount[]): Promise<Host> {
  const ctx = new Context()
  const guards: Guard[] = []
  ctx.provide('tools', {
    guard(guard: Guard) {
      guards.push(guard)
      return () => void guards.splice(guards.indexOf(guard), 1)
    },
  })
  for (const mount of mounts) {
    await ctx.plugin(mount.plugin as never, mount.config as never)
  }
  // The events service itself, not the context's tracing wrapper of it: its dispatch is the same (the same hooks, in
  // the same order, given the same arguments), but through the wrapper every property it reads is looked up anew,
  // which was a large part of a replay's time and garbage. The wrapper only ties what a call makes to its caller's
  // context; the loop's dispatch makes nothing.
  const events = (ctx as unknown as { events: Record<symbol, unknown> }).events
  const service = (events[symbols.original] ?? events) as Omit<Host, 'guards'>
  return { waterfall: service.waterfall.bind(service), emit: service.emit.bind(service), guards }
}

/** The result as the recording has it; an error code, where recorded, as DSH's failure info carries it. */
function recorded(event: CallEvent): object {
  const content = [{ type: 'text', text: event.text }]
  if (event.errorCode === undefined) return { content, isError: event.isError }
  return { content, isError: event.isError, error: { message: event.text, info: { name: 'Error', code: event.errorCode } } }
}

/** The failed result DSH makes of a guard's refusal. */
function refused(reason: string): object {
  return { content: [{ type: 'text', text: `Error: ${reason}` }], isError: true, error: { message: reason } }
}

function accept(): Promise<unknown> {
  return Promise.resolve({ kind: 'accept' })
}

function userMessage(text: string): Message {
  return { id: globalThis.crypto.randomUUID(), role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } }
}

function contextMessage(message: ContextMessage): Message {
  return { id: message.id, role: 'user', content: message.texts.map(text => ({ type: 'text', text })), source: message.source }
}
