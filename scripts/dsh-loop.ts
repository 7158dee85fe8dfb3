/**
 * A real DSH agent loop in-process, for the tests and the demo: the published tool registry, session store, system
 * prompt, agent registry and agent loop, with a scripted model adapter in place of a provider. Only the model is
 * scripted.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import Include, { entryListSchema, type PatchOptions } from '@deepseek-ai/cordis-plugin-include'
import Loader, { type EntryOptions } from '@deepseek-ai/cordis-plugin-loader'
import yaml from 'js-yaml'
import { PACKAGE_ROOT, PROFILES_ROOT } from './paths.ts'
import type { Agent } from '@deepseek-ai/dsh-agent'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import LlmRuntime, { CallId, LlmAdapter, createUserMessage } from '@deepseek-ai/dsh-llm'
import type { GenerateOptions, LlmResolvedModelInfo, StreamChunk, UserMessage } from '@deepseek-ai/dsh-llm'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime, { defineContentToolFixture } from '@deepseek-ai/dsh-tools'

if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== 'function') {
  throw new Error(`the DSH agent loop needs Node >= 22.19 (this is ${process.version}); run the tests through npm, whose scripts pick a Node 22 (scripts/node.mjs)`)
}

/**
 * What a block of a response streams: its whole text in one delta, or the deltas one by one (a lazy iterable
 * streams a response too long to hold, as a model stuck repeating itself would).
 */
export type Deltas = string | Iterable<string>

/** One scripted model turn: a tool call (or several, in parallel) or a final text, either after its reasoning. */
export type Turn =
  | {
    readonly calls: readonly { readonly name: string; readonly args: unknown; readonly raw?: string }[]
    readonly text?: Deltas
    readonly reasoning?: Deltas
    /** Text streamed after the calls, as some providers order a response's blocks. */
    readonly after?: Deltas
  }
  | { readonly text: Deltas; readonly reasoning?: Deltas }
  | ((request: GenerateOptions) => Turn)

/** Shorthand for a turn with one tool call. */
export function call(name: string, args: unknown = {}): Turn {
  return { calls: [{ name, args }] }
}

/** `turn` `n` times over: a model stuck in place. */
export function repeat<T>(n: number, turn: T): T[] {
  return Array.from({ length: n }, () => turn)
}

/** Shorthand for a final text turn. */
export function say(text: string): Turn {
  return { text }
}

let callSeq = 0

/** A text or reasoning block streamed delta by delta, closed with the text it streamed. */
function* block(index: number, type: 'text' | 'reasoning', deltas: Deltas): Generator<StreamChunk> {
  yield { type: 'block-start', index, blockType: type }
  let text = ''
  for (const delta of typeof deltas === 'string' ? [deltas] : deltas) {
    text += delta
    yield type === 'text' ? { type: 'text-delta', index, text: delta } : { type: 'reasoning-delta', index, text: delta }
  }
  yield { type: 'block-end', index, block: { type, text } }
}

function* chunks(turn: Exclude<Turn, (request: GenerateOptions) => Turn>): Generator<StreamChunk> {
  let index = 0
  if (turn.reasoning !== undefined) yield* block(index++, 'reasoning', turn.reasoning)
  if (turn.text !== undefined) yield* block(index++, 'text', turn.text)
  if ('calls' in turn) {
    for (const c of turn.calls) {
      const id = CallId(`call_${++callSeq}`)
      const args = c.raw ?? JSON.stringify(c.args)
      yield { type: 'block-start', index, blockType: 'tool-call' }
      yield { type: 'tool-call-delta', index, id, name: c.name, argumentsDelta: args }
      yield { type: 'block-end', index, block: { type: 'tool-call', id, name: c.name, arguments: args } }
      index++
    }
    if (turn.after !== undefined) yield* block(index++, 'text', turn.after)
  }
  yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } }
  yield { type: 'finish', reason: 'calls' in turn ? { kind: 'tool-calls' } : { kind: 'stop' } }
}

/** A model that plays a script, one entry per request, and records every request. */
export class ScriptedModel extends LlmAdapter {
  readonly requests: GenerateOptions[] = []
  /** For each request, in order: the chunks the model sent, and whether its stream was closed before its end. */
  readonly streams: { sent: number; closedEarly: boolean }[] = []
  private readonly script: Turn[]
  constructor(script: Turn[]) {
    super()
    this.script = script
  }

  override resolveModel(provider: string, model: string): Promise<LlmResolvedModelInfo> {
    return Promise.resolve({ provider, id: model, name: model })
  }

  stream(options: GenerateOptions): AsyncIterable<StreamChunk> {
    this.requests.push(options)
    let entry = this.script.shift()
    if (entry === undefined) throw new Error('ScriptedModel: script exhausted')
    while (typeof entry === 'function') entry = entry(options)
    const record = { sent: 0, closedEarly: false }
    this.streams.push(record)
    return play(chunks(entry), record)
  }
}

/**
 * Stream `chunks` as a provider would, noting how many were sent and whether the reader stopped before the end.
 * A scripted model has nothing to wait for; the adapter's contract is an async iterable all the same.
 */
// oxlint-disable-next-line typescript/require-await
async function* play(chunks: Iterable<StreamChunk>, record: { sent: number; closedEarly: boolean }): AsyncIterable<StreamChunk> {
  let ended = false
  try {
    for (const chunk of chunks) {
      record.sent++
      yield chunk
    }
    ended = true
  } finally {
    record.closedEarly = !ended
  }
}

/** What a test tool returns, given its arguments and how often it ran. */
export type ToolBody = (args: unknown, runs: number) => string

/** Boot the DSH services and the agent loop on a fresh root context. */
export async function bootDsh(): Promise<Context> {
  const ctx = new Context()
  await ctx.plugin(LlmRuntime)
  await ctx.plugin(SessionStore)
  await ctx.plugin(SystemPrompt, {})
  await ctx.plugin(ToolRuntime, {})
  await ctx.plugin(AgentRegistry)
  await ctx.plugin(AgentLoop, { agents: [] })
  return ctx
}

/** Profile directories this process made, removed when it exits. */
const madeProfiles: string[] = []

/**
 * Remove `profile` when the process exits. One `exit` listener serves them all: a listener per profile would pass
 * Node's limit of ten in a test file that mounts many, and Node would warn of a leak on every run.
 */
function removeOnExit(profile: string): void {
  if (madeProfiles.length === 0) process.once('exit', () => madeProfiles.forEach(dir => rmSync(dir, { recursive: true, force: true })))
  madeProfiles.push(profile)
}

/**
 * Mount dsh-brake the way a DSH profile does: a profile directory whose `node_modules/dsh-brake` links to this
 * checkout (what `dsh plugin add <dir>` records), the real Loader and Include, an empty `cordis.yml`, our bundle's
 * `cordis.patch.yml` as the bundle layer, then the user's patch rows. The plugin is imported by its bare name, so
 * the built `dist/` and the package's `exports` are what run.
 */
export async function mountProfile(ctx: Context, userPatch: readonly PatchOptions[] = []): Promise<void> {
  mkdirSync(PROFILES_ROOT, { recursive: true })
  const profile = mkdtempSync(join(PROFILES_ROOT, 'profile-'))
  removeOnExit(profile)
  mkdirSync(join(profile, 'node_modules'))
  // A junction on Windows needs no privilege, as DSH's own links there; elsewhere it is a plain link.
  symlinkSync(PACKAGE_ROOT, join(profile, 'node_modules', 'dsh-brake'), 'junction')
  writeFileSync(join(profile, 'cordis.yml'), '[]\n')
  const bundle = yaml.load(readFileSync(join(PACKAGE_ROOT, 'cordis.patch.yml'), 'utf8'), { schema: entryListSchema }) as PatchOptions[]
  ctx.baseUrl = pathToFileURL(profile).href + '/'
  await ctx.plugin(Loader)
  ctx.loader.builtins.include = Include
  // The root include as DSH's app boot mounts it: an entry list file plus the layers' patches, applied in order.
  const root: EntryOptions = {
    id: 'include',
    name: 'cordis:include',
    config: { path: pathToFileURL(join(profile, 'cordis.yml')).href, patches: [...bundle, ...userPatch] },
  }
  await ctx.loader.create(root)
  await ctx.loader.await()
}

/** Register a content tool whose text result comes from `body` (default: `ok`). Returns a run counter. */
export function tool(ctx: Context, name: string, body: ToolBody = () => 'ok', concurrent = false): { runs: number } {
  const counter = { runs: 0 }
  ctx.tools.register({
    ...defineContentToolFixture({
      name,
      description: name,
      parameters: {},
      execute(args: unknown) {
        counter.runs++
        return Promise.resolve([{ type: 'text', text: body(args, counter.runs) }])
      },
    }),
    ...concurrent ? { isConcurrencySafe: () => true } : {},
  })
  return counter
}

let agentSeq = 0

/** Create an agent driven by a scripted model of its own. */
export function agent(ctx: Context, script: Turn[]): { agent: Agent; model: ScriptedModel; provider: string } {
  const provider = `scripted-${++agentSeq}`
  const model = new ScriptedModel(script)
  ctx.llm.registerAdapter([provider], model)
  return { agent: ctx.agentLoop.create(SessionId(`agent-${agentSeq}`), { provider, model: 'scripted' }), model, provider }
}

/** A person's message. */
export function human(text: string): UserMessage {
  return createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } })
}

/** Resolve when `agent` next goes idle. */
export function idle(ctx: Context, agent: Agent): Promise<void> {
  return new Promise((resolve) => {
    const dispose = ctx.on('agent/status', ({ agent: which, status }) => {
      if (which === agent && status === 'idle') {
        dispose()
        resolve()
      }
    })
  })
}

/** Send a person's prompt and wait until the agent has finished the turn. */
export async function prompt(ctx: Context, target: Agent, text = 'go'): Promise<void> {
  const done = idle(ctx, target)
  target.followup(human(text))
  await done
}

/** The session's logged user/message events. */
export function userMessages(target: Agent): UserMessage[] {
  return [...target.session.events]
    .filter((event): event is SessionEvent<'user/message'> => event.type === 'user/message')
    .map(event => event.data)
}

/** The brake's notices in the session log, in order. */
export function notices(target: Agent): { text: string; summary: string; id: string }[] {
  return userMessages(target)
    .filter(message => message.source.kind === 'plugin' && (message.source as { plugin?: string }).plugin === 'dsh-brake')
    .map(message => ({
      text: message.content.map(block => block.type === 'text' ? block.text : '').join(''),
      summary: (message.source as { summary?: string }).summary ?? '',
      id: message.id,
    }))
}

/** Every tool result in the session log, in order: tool name, text, whether it failed. */
export function results(target: Agent): { name: string; text: string; isError: boolean }[] {
  const names = new Map<string, string>()
  const out: { name: string; text: string; isError: boolean }[] = []
  for (const event of target.session.events) {
    if (event.type === 'tool/call') {
      const data = (event).data
      names.set(data.callId, data.name)
    }
    if (event.type === 'tool/result') {
      const [block] = (event).data.message.content
      out.push({
        name: names.get(block.toolCallId) ?? '?',
        text: block.content.map(part => part.type === 'text' ? part.text : '').join(''),
        isError: block.isError === true,
      })
    }
  }
  return out
}

/** dsh-brake's lines in the logger's ring buffer (every level DSH keeps), `%s` placeholders filled in. */
export function brakeLogs(ctx: Context): string[] {
  return ctx.logger.buffer.filter(m => m.name === 'dsh-brake').map(({ args: [format, ...rest] }) => {
    let i = 0
    return String(format).replace(/%s/g, () => String(rest[i++]))
  })
}
