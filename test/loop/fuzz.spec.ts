/**
 * Property-based fuzzing of the plugin as DSH dispatches it: random interleavings of tool calls (odd arguments,
 * failures, parallel duplicates), claimed messages (people, plugins, the brake's own notices, unknown source kinds,
 * non-text content), several agents (a subagent among them), agent-less calls and dropped agents, through the real
 * Cordis waterfalls, in every mode. The brake must never fail internally, never lose a downstream decision or context,
 * every notice must be valid lossless JSON with a bounded summary and a fresh id, and a stop (stop mode only) must end
 * the turn through the agent's own cancel with a hook cause at the model request of a step that entered with the stop
 * notice, and never concern an agent-less call.
 * `npm test` runs a few hundred cases; `npm run test:fuzz` runs 10 000.
 */
import { Context } from '@deepseek-ai/cordis'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as Brake from '../../src/index.ts'

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300)
const signal = new AbortController().signal

const text = fc.oneof(
  fc.constantFrom('ok', '', 'Error: boom', 'FAIL x\n[exit code: 1]', '\uD800 lone', '😀'.repeat(50)),
  fc.string({ maxLength: 300 }),
  fc.constant('Stop hook: the task is not finished until the linter and the full test suite pass. Keep working.'),
)
const args = fc.oneof(
  fc.record({ file_path: fc.constantFrom('a.ts', 'b.ts', 'c\uDC00.ts') }),
  fc.record({ command: fc.constantFrom('npm test', 'git commit -m x', 'ls'), description: fc.string({ maxLength: 20 }) }),
  fc.string({ maxLength: 40 }), // the raw string DSH passes when argument JSON does not parse
  fc.jsonValue({ maxDepth: 6 }),
)
const call = fc.record({
  kind: fc.constant('call' as const),
  // 3: a call without an agent.
  agent: fc.nat(3),
  tool: fc.constantFrom('read', 'bash', 'edit', 'job_output', 'todo_write', 'grep', 'subagent', 'x'.repeat(300)),
  args,
  result: text,
  isError: fc.boolean(),
  copies: fc.integer({ min: 1, max: 6 }),
})
const block = fc.oneof(
  text.map(t => ({ type: 'text', text: t })),
  fc.constant({ type: 'image', attachment: { attachmentId: 'a', mediaType: 'image/png', bytes: 1, width: 1, height: 1 } }),
)
const source = fc.constantFrom(
  { kind: 'user' }, { kind: 'plugin', plugin: 'hooks-claude-code' }, { kind: 'plugin', plugin: 'dsh-brake', form: 'notice', summary: 's' },
  { kind: 'subagent-report', form: 'relay' }, { kind: 'something-new' }, { kind: 'plugin' },
)
const claim = fc.record({
  kind: fc.constant('claim' as const),
  agent: fc.nat(2),
  messages: fc.array(fc.record({ source, content: fc.array(block, { maxLength: 3 }), replay: fc.boolean() }), { maxLength: 4 }),
  reject: fc.boolean(),
})
const drop = fc.record({ kind: fc.constant('drop' as const), agent: fc.nat(2) })
const script = fc.array(fc.oneof({ weight: 6, arbitrary: call }, { weight: 3, arbitrary: claim }, { weight: 1, arbitrary: drop }), { maxLength: 60, size: 'max' })

function checkNotice(message: unknown, ids: Set<string>): void {
  expect(JSON.parse(JSON.stringify(message))).toEqual(message)
  const { content, source: from, role, id } = message as {
    content: { type: string; text: string }[]
    source: { kind: string; plugin: string; form: string; summary: string }
    role: string
    id: string
  }
  expect(Object.keys(message as object)).toEqual(['content', 'source', 'role', 'id'])
  expect(role).toBe('user')
  expect(from).toMatchObject({ kind: 'plugin', plugin: 'dsh-brake', form: 'notice' })
  expect(from.summary.length).toBeGreaterThan(0)
  expect(from.summary.length).toBeLessThanOrEqual(120)
  expect(content.every(b => b.type === 'text' && b.text.length < 2000)).toBe(true)
  expect(ids.has(id)).toBe(false)
  ids.add(id)
}

/**
 * The guard path without a full registry: a `tools` service whose `guard` keeps the brake's guard, consulted before
 * each post-execute the way the registry does (a string refuses: the result becomes `Error: <reason>`).
 */
function guardHost(ctx: Context): { judge: (exec: object) => string | undefined } {
  const guards: ((exec: object) => string | undefined)[] = []
  ctx.provide('tools', { guard: (fn: (exec: object) => string | undefined) => { guards.push(fn); return () => undefined } })
  return { judge: exec => guards.reduce<string | undefined>((reason, guard) => reason ?? guard(exec), undefined) }
}

let refusals = 0
let stops = 0

interface FuzzAgent {
  readonly id: string
  readonly session: { readonly header: Record<string, unknown> }
  cancel(cause: unknown, options: unknown): void
}

/** An agent as the brake sees one: an id, a session header (agent 2 is agent 0's subagent) and a cancel. */
function fuzzAgent(index: number, generation: number, log: { cancels: unknown[][] }): FuzzAgent {
  return {
    id: `agent-${index}-${generation}`,
    session: { header: index === 2 ? { origin: 'subagent', parentSession: 'agent-0-0' } : {} },
    cancel: (...args) => void log.cancels.push(args),
  }
}

describe('fuzzing the waterfalls', () => {
  it(`never fails inside, never loses a decision, only emits valid notices (${RUNS} runs)`, async () => {
    await fc.assert(fc.asyncProperty(script, fc.boolean(), fc.constantFrom('remind', 'deny', 'stop'), async (steps, progressAware, mode) => {
      const ctx = new Context()
      const host = guardHost(ctx)
      const config = { callWarnCount: 2, callReWarnEvery: 1, callDenyCount: 3, sequenceCount: 2, duplicateTextThreshold: 2 }
      await ctx.plugin(Brake, { ...config, progressAware, mode })
      const waterfall = (ctx as unknown as { waterfall: (...a: unknown[]) => Promise<unknown> }).waterfall.bind(ctx)
      const log = { cancels: [] as unknown[][] }
      const agents: (FuzzAgent | undefined)[] = [0, 1, 2].map(i => fuzzAgent(i, 0, log))
      let generation = 0
      const ids = new Set<string>()
      const claimed: unknown[] = []
      let n = 0
      for (const step of steps) {
        if (step.kind === 'drop') {
          agents[step.agent] = fuzzAgent(step.agent, ++generation, log)
        } else if (step.kind === 'call') {
          for (let copy = 0; copy < step.copies; copy++) {
            const exec = { token: Symbol('t'), callId: `c${++n}`, rootCallId: `c${n}`, name: step.tool, signal, agent: agents[step.agent], arguments: step.args }
            const reason = host.judge(exec)
            if (reason !== undefined) {
              expect(typeof reason).toBe('string')
              expect(reason.length).toBeLessThan(600)
              expect(mode).not.toBe('remind')
              expect(exec.agent).toBeDefined()
              refusals++
            }
            const result = Object.freeze(reason !== undefined
              ? { isError: true, content: [{ type: 'text', text: `Error: ${reason}` }], error: { message: reason } }
              : { isError: step.isError, content: [{ type: 'text', text: step.result }], ...step.isError ? { error: { message: step.result } } : { value: null } })
            const theirs = { content: [{ type: 'text', text: 'downstream' }], source: { kind: 'plugin', plugin: 'other' }, role: 'user', id: `d${n}` }
            const downstream = { kind: 'block', feedback: [{ type: 'text', text: 'blocked' }], additionalContexts: [theirs] }
            const decision = await waterfall('tools/post-execute', exec, result, () => Promise.resolve(downstream)) as typeof downstream
            expect(decision.kind).toBe('block')
            // Only a failed delegation of a stopped subagent's parent gains lines, after downstream's own feedback.
            expect(decision.feedback.slice(0, 1)).toEqual(downstream.feedback)
            for (const line of decision.feedback.slice(1)) {
              expect(line.text).toMatch(/^\nThe subagent did not fail at the task: it was stopped in a loop\. dsh-brake stopped the turn: /)
            }
            if (decision.feedback.length > 1) expect(step.tool === 'subagent' && exec.agent?.id.startsWith('agent-0-')).toBe(true)
            expect(decision.additionalContexts.at(-1)).toBe(theirs)
            for (const ours of decision.additionalContexts.slice(0, -1)) {
              checkNotice(ours, ids)
              claimed.push(ours)
            }
          }
        } else {
          const messages = step.messages.map((m, i) => m.replay && claimed.length > 0
            ? claimed[(n + i) % claimed.length]
            : { content: m.content, source: m.source, role: 'user', id: `m${++n}` })
          const enter = step.reject ? { kind: 'reject' } : { kind: 'enter', messages }
          const who = agents[step.agent % 3]!
          const decision = await waterfall('agent/pre-step', { agent: who, messages, turn: 1, step: n, signal }, () => Promise.resolve(enter)) as { kind: string; messages?: unknown[] }
          if (step.reject) {
            expect(decision).toBe(enter)
            continue
          }
          expect(decision.messages!.slice(0, messages.length)).toEqual(messages)
          for (const ours of decision.messages!.slice(messages.length)) checkNotice(ours, ids)
          // The step's model request: a stop ends the turn here, through the agent's own cancel, with a hook cause.
          const cancelled = log.cancels.length
          const proposed = { provider: 'p', model: 'm' }
          expect(await waterfall('agent/request', { agent: who, turn: 1, step: n, signal }, () => Promise.resolve(proposed))).toBe(proposed)
          if (log.cancels.length > cancelled) {
            expect(mode).toBe('stop')
            const [[cause, options], ...more] = log.cancels.slice(cancelled) as [[{ kind: string; reason: string }, unknown]]
            expect(more).toEqual([])
            expect(cause.kind).toBe('hook')
            expect(cause.reason).toMatch(/^dsh-brake stopped the turn: /)
            expect(options).toEqual({ keepInbox: true })
            // The step that ends the turn entered with the stop notice.
            expect(decision.messages!.map(m => (m as { content: { text?: string }[] }).content[0]?.text ?? '').some(t => t.startsWith('[dsh-brake] The turn was stopped here'))).toBe(true)
            stops++
          }
        }
      }
      // Nothing failed inside: the containment log stayed empty.
      expect(ctx.logger.buffer.filter(m => m.name === 'dsh-brake')).toEqual([])
    }), { numRuns: RUNS })
    // The cases did reach the guard's refusals and stops, not only notices.
    expect(refusals).toBeGreaterThan(0)
    expect(stops).toBeGreaterThan(0)
  }, 600_000)
})
