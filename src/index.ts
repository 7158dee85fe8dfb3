/**
 * dsh-brake: stops DSH agents from spinning.
 *
 * This file is the only one that knows DSH. It turns executed tool calls (`tools/post-execute`) and claimed context
 * messages (`agent/pre-step`) into observations for the pure detectors in `./core`, and their findings into
 * plugin-sourced `notice` messages, or, in deny mode, into refusals through `ctx.tools.guard`. State lives per agent
 * in a `WeakMap`, so subagents are isolated and a disposed agent costs nothing. Nothing here may throw into the host:
 * every listener contains its own errors, logs the first one, and passes the downstream decision through unchanged.
 * @module dsh-brake
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { MessageId, UserMessage } from '@deepseek-ai/dsh-llm'
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { Config, resolveOptions } from './config.js'
import { createBrakeState, type BrakeState } from './core/brake-state.js'
import { callKey } from './core/canonical.js'
import type { TextMessage } from './core/duplicate-text.js'
import { errorLine, reportsShellFailure } from './core/normalize.js'
import { createToolFilter, memoizeByName } from './core/patterns.js'
import { classOf, createPolicyResolver, identityOf, type ToolPolicy } from './core/policies.js'
import { REFUSED, resultOf } from './core/results.js'
import type { CallObservation, Finding, ToolClass } from './core/types.js'
import {
  denialReason, duplicateTextNotice, repeatedCallNotice, repeatedErrorNotice, sequenceNotice, sourceLabel,
  type NoticeText,
} from './messages.js'

export { Config }
export type { Mode } from './config.js'

/** The plugin name, also its bundle row id and the `source.plugin` of every notice. */
export const name = 'dsh-brake'

/**
 * Mount the brake.
 * @param ctx - the plugin context; listeners and the guard are registered on it and go away with it.
 * @param config - the validated config (Cordis fills the defaults); rules beyond types are checked here, loudly.
 */
export function apply(ctx: Context, config: Config): void {
  const { detectors } = resolveOptions(config)
  const deny = config.mode === 'deny'
  const tracked = createToolFilter(config.include, config.exclude)
  const policyFor = createPolicyResolver(config.toolPolicies)
  // One lookup per tool name for the whole run: its policy, or `null` when `include` / `exclude` leave it out.
  const watched = memoizeByName((tool): ToolPolicy | null => tracked(tool) ? policyFor(tool) : null)
  const states = new WeakMap<Agent, BrakeState>()
  // What the guard worked out about an execution, reused by post-execute for the same execution object.
  const described = new WeakMap<object, Identity | null>()
  // Executions this plugin refused; their refusal reason already told the model, so no notice repeats it.
  const refused = new WeakSet<object>()
  const logger = ctx.logger(name)
  const reported = new Set<string>()

  /** Log the first failure of each listener; the brake then simply stays out of the way for that call. */
  function contain(where: string, error: unknown): void {
    if (reported.has(where)) return
    reported.add(where)
    logger.error('dsh-brake: %s failed and was skipped; the agent is unaffected (later failures here are not logged): %s',
      where, error instanceof Error ? error.stack ?? error.message : String(error))
  }

  function stateOf(agent: Agent): BrakeState {
    let state = states.get(agent)
    if (state === undefined) states.set(agent, state = createBrakeState(detectors))
    return state
  }

  /**
   * Fill in the call's class and identity; `false` when the call is not watched (no agent, excluded, or a bookkeeping
   * tool: all transparent).
   */
  function identify(exec: ToolExecution, into: Identity): boolean {
    const policy = exec.agent === undefined ? null : watched(exec.name)
    if (policy === null) return false
    const kind = classOf(policy, exec.arguments)
    if (kind === 'bookkeeping') return false
    const args = identityOf(policy, exec.arguments)
    const key = callKey(exec.name, args)
    // Arguments too deeply nested to walk have no identity: such a call is not watched.
    if (key === undefined) return false
    into.kind = kind
    into.key = key
    into.args = args
    return true
  }

  /** Deny mode: the identity the guard worked out for an execution, kept for post-execute (`null`: not watched). */
  function describe(exec: ToolExecution): Identity | null {
    let found = described.get(exec)
    if (found === undefined) {
      const fresh: Identity = { kind: 'default', key: 0, args: undefined }
      found = identify(exec, fresh) ? fresh : null
      described.set(exec, found)
    }
    return found
  }

  // One observation, filled in for each call: the detectors read it before `observeCall` returns and keep only its
  // numbers and result, so a fresh object per call would only feed the collector on the hottest path.
  const seen: Observation = {
    tool: '', args: undefined, key: 0, kind: 'default', result: REFUSED, failed: false, refused: false, errorLine: undefined, epoch: 0,
  }

  /** Fill in the identity part of `seen`; `false` when the call is not watched. */
  function identified(exec: ToolExecution): boolean {
    // Only the guard's work is worth keeping for post-execute; a weak entry per call costs the collector.
    if (!deny) return identify(exec, seen)
    const known = describe(exec)
    if (known === null) return false
    seen.kind = known.kind
    seen.key = known.key
    seen.args = known.args
    return true
  }

  /** Fill in the rest of `seen` from the execution and its result. */
  function observation(exec: ToolExecution, result: Readonly<ToolExecutionResult>): CallObservation {
    const wasRefused = deny && refused.has(exec)
    const text = resultText(result)
    seen.tool = exec.name
    seen.result = wasRefused ? REFUSED : resultOf(text)
    // A shell command that exited non-zero is a failed call, although DSH reports it as a successful tool call.
    seen.failed = result.isError || reportsShellFailure(text)
    seen.refused = wasRefused
    // The error shape is only taken from real error results: a shell failure's first line is its output, not an error.
    seen.errorLine = result.isError ? errorLine(text) : undefined
    seen.epoch = 0
    return seen
  }

  function callNotice(found: Finding, exec: ToolExecution): NoticeText | undefined {
    switch (found.kind) {
      case 'repeated-call':
        // A call this plugin refused carries the refusal reason already.
        return deny && refused.has(exec) ? undefined : repeatedCallNotice(found, deny ? config.callDenyCount : undefined)
      case 'repeated-error':
        return repeatedErrorNotice(found)
      case 'sequence':
        return sequenceNotice(found)
      default:
        return undefined
    }
  }

  // Counting happens here, after the fact, because every attempt passes through post-execute: successes,
  // failures, and calls refused by a guard or by pre-execute policy alike.
  ctx.on('tools/post-execute', (exec, result, next) => {
    let notices: UserMessage[] | undefined
    try {
      if (identified(exec)) {
        const findings = stateOf(exec.agent!).observeCall(observation(exec, result))
        if (findings !== undefined) {
          for (const found of findings) {
            const text = callNotice(found, exec)
            if (text !== undefined) (notices ??= []).push(notice(text))
          }
        }
      }
    } catch (error) {
      contain('tools/post-execute', error)
    }
    // Nothing to add, as for almost every call: the downstream decision goes back as it comes, without a turn of the
    // event loop of our own.
    if (notices === undefined) return next()
    const ours = notices
    // A downstream listener may answer with a plain decision rather than a promise: take either.
    return Promise.resolve(next()).then((decision) => {
      try {
        // Our notices first, everything downstream kept as it came (block feedback, accept content or value, contexts).
        return { ...decision, additionalContexts: [...ours, ...decision.additionalContexts ?? []] } as PostToolDecision
      } catch (error) {
        contain('tools/post-execute', error)
        return decision
      }
    })
  })

  ctx.on('agent/pre-step', async (payload, next) => {
    let notices: UserMessage[] | undefined
    try {
      notices = observeClaimed(payload.agent, payload.messages)
    } catch (error) {
      contain('agent/pre-step', error)
    }
    const decision = await next()
    if (notices === undefined) return decision
    try {
      if (decision.kind === 'reject' || payload.signal.aborted) return decision
      // A new array: the default decision's `messages` is the very array the loop claimed.
      return { ...decision, messages: [...decision.messages, ...notices] }
    } catch (error) {
      contain('agent/pre-step', error)
      return decision
    }
  })

  /** Reset on a person's (or a delegating parent's) message; feed every other claimed text to the detector. */
  function observeClaimed(agent: Agent, claimed: readonly UserMessage[]): UserMessage[] | undefined {
    if (claimed.some(message => message.source.kind === 'user')) states.delete(agent)
    const texts: TextMessage[] = []
    for (const message of claimed) {
      const source = message.source as { readonly kind: string; readonly plugin?: unknown }
      // A person's own words are not injected context; our own notices are never evidence of anything.
      if (source.kind === 'user' || (source.kind === 'plugin' && source.plugin === name)) continue
      const parts: string[] = []
      for (const block of message.content) if (block.type === 'text') parts.push(block.text)
      if (parts.length > 0) texts.push({ id: message.id, source: sourceLabel(source), texts: parts })
    }
    if (texts.length === 0) return undefined
    const found = stateOf(agent).observeText({ at: Date.now(), messages: texts })
    return found === undefined ? undefined : [notice(duplicateTextNotice(found))]
  }

  if (deny) {
    // Only deny mode needs the tools service; the listeners above run without it.
    ctx.inject(['tools'], (ctx) => {
      ctx.tools.guard((exec) => {
        try {
          const call = describe(exec)
          // Pollers are never refused: waiting on something is not a loop the brake can judge before the result.
          if (call === null || call.kind === 'poller') return undefined
          const state = states.get(exec.agent!)
          if (state === undefined) return undefined
          const count = state.callCount(call.key)
          if (count < config.callDenyCount) return undefined
          refused.add(exec)
          return denialReason(exec.name, count, config.progressAware)
        } catch (error) {
          // A throwing guard would turn the call into an error that skips post-execute: abstain instead.
          contain('guard', error)
          return undefined
        }
      })
    })
  }
}

/** An observation as the adapter fills it in. */
type Observation = { -readonly [K in keyof CallObservation]: CallObservation[K] }

/** A watched call's class and identity. */
interface Identity {
  kind: Exclude<ToolClass, 'bookkeeping'>
  key: number
  args: unknown
}

/** A result's content as text for comparison: text blocks as they are, any other block by its type. */
function resultText(result: Readonly<ToolExecutionResult>): string {
  // By index: destructuring would build an iterator for every call.
  const only = result.content[0]
  if (result.content.length === 1 && only?.type === 'text') return only.text
  let text = ''
  for (const block of result.content) text += block.type === 'text' ? `${block.text}\n` : `[${block.type}]\n`
  return text
}

/** A plugin-sourced notice, built structurally as strict lossless JSON with a fresh id per attachment. */
function notice({ text, summary }: NoticeText): UserMessage {
  return {
    content: [{ type: 'text', text }],
    source: { kind: 'plugin', plugin: name, form: 'notice', summary },
    role: 'user',
    id: globalThis.crypto.randomUUID() as MessageId,
  }
}
