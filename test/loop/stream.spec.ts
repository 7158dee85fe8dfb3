/**
 * Responses watched as they stream, in the real DSH agent loop with dsh-brake loaded as a profile loads it: a response
 * that falls into repeating itself is cut at the source (the scripted provider's stream is closed early), ends with the
 * brake's own finish in the session log, keeps what came before and a bounded part of the repetition, and the turn
 * goes on to a next step where the model reads one notice; real work that only looks repetitive streams whole; the
 * same answer step after step is a loop told like the others; stop mode ends a turn at its second cut.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { createUserMessage, type AssistantMessage, type StreamChunk } from '@deepseek-ai/dsh-llm'
import { describe, expect, it } from 'vitest'
import type { Config } from '../../src/config/keys.ts'
import type { BrakeCutEvent, BrakeNoticeEvent } from '../../src/index.ts'
import { findingNotice, stopReason } from '../../src/messages/notices.ts'
import { SessionId } from '@deepseek-ai/dsh-session'
import { agent, bootDsh, brakeLogs, call, mountProfile, notices, prompt, say, ScriptedModel, tool, type Turn } from '../../scripts/dsh-loop.ts'
import { captureStderr } from '../support/stderr.ts'
import { foldText } from '../../src/core/stream/fold.ts'
import { RUNAWAYS, TEXTS } from './corpus/real-texts.ts'
import { RESPONSES, tokens, type ResponseCase } from './corpus/responses.ts'

/** Default thresholds: 20 copies (256 characters at least) or 3,200 characters, looked at every 256 (README). */
const CHARS = 3200
const COPIES = 20
const MIN_CHARS = 256
const EVERY = 256

interface Heard {
  readonly cuts: Omit<BrakeCutEvent, 'agent'>[]
  readonly notices: Omit<BrakeNoticeEvent, 'agent'>[]
}

async function host(config: Partial<Config> = {}): Promise<{ ctx: Context; heard: Heard }> {
  const ctx = await bootDsh()
  await mountProfile(ctx, [{ id: 'dsh-brake', config }])
  tool(ctx, 'read', args => `contents of ${String((args as { file_path?: unknown }).file_path)}`)
  const heard: Heard = { cuts: [], notices: [] }
  await ctx.plugin({
    name: 'cut-listener',
    apply(ctx: Context) {
      ctx.on('dsh-brake/cut', ({ agent: _, ...data }) => void heard.cuts.push(data))
      ctx.on('dsh-brake/notice', ({ agent: _, ...data }) => void heard.notices.push(data))
    },
  })
  return { ctx, heard }
}

/** A scripted turn that streams `entry` in token-sized deltas, in the part it belongs to. */
function streamed(entry: ResponseCase): Turn {
  return entry.part === 'text' ? { text: tokens(entry.text) } : { reasoning: tokens(entry.text), text: 'Done.' }
}

/** The chunks of the agent's responses the session logged, in order. */
function chunks(target: Agent): StreamChunk[] {
  return target.session.events.filter(event => event.type === 'assistant/chunk').map(event => (event.data as { chunk: StreamChunk }).chunk)
}

/** The assistant messages the session logged, in order. */
function messages(target: Agent): AssistantMessage[] {
  return target.session.events.filter(event => event.type === 'assistant/message').map(event => (event.data as { message: AssistantMessage }).message)
}

/** A message's text in `part`. */
function textOf(message: AssistantMessage, part: 'text' | 'reasoning'): string {
  return message.content.map(block => block.type === part ? block.text : '').join('')
}

function turnEnds(target: Agent): unknown[] {
  return target.session.events.filter(event => event.type === 'turn/end').map(event => (event.data as { reason: unknown }).reason)
}

captureStderr()

describe('a response that repeats itself', () => {
  it.each(RESPONSES.filter(entry => entry.kind === 'loop').map(entry => [entry.name, entry] as const))('%s: cut at the source, the turn goes on', async (_, entry) => {
    const { ctx, heard } = await host()
    const { agent: target, model } = agent(ctx, [streamed(entry), say('Sorry, I will stop repeating that. The migration is done.')])
    await prompt(ctx, target)
    // The provider's stream was closed before its end (how much was spared depends on how long the loop would run).
    const total = [...tokens(entry.text)].length
    expect(model.streams[0]).toMatchObject({ closedEarly: true })
    expect(model.streams[0]!.sent).toBeLessThan(total)
    // The session log marks the cut with the brake's finish, after the open blocks were closed.
    const logged = chunks(target)
    const finish = logged.findIndex(chunk => chunk.type === 'finish')
    expect(logged[finish]).toEqual({ type: 'finish', reason: { kind: 'dsh-brake/cut' } })
    expect(logged.slice(0, finish).filter(chunk => chunk.type === 'block-start').length)
      .toBe(logged.slice(0, finish).filter(chunk => chunk.type === 'block-end').length)
    // It kept what came before the repetition, and a bounded part of it.
    const kept = textOf(messages(target)[0]!, entry.part)
    const { from, unit, within } = entry.loop!
    expect(kept.startsWith(entry.text.slice(0, from))).toBe(true)
    expect(entry.text.startsWith(kept)).toBe(true)
    const folded = foldText(unit).length
    const threshold = Math.min(Math.max(MIN_CHARS, COPIES * folded), Math.max(CHARS, 3 * folded))
    expect(kept.length - from).toBeLessThanOrEqual(within ?? (threshold + EVERY + 2 * folded) * unit.length / folded)
    // One notice, read by the model at its next step, in the same turn, which then completed.
    const [cut] = heard.cuts
    expect(heard.cuts).toHaveLength(1)
    expect(cut!.finding).toMatchObject({ kind: 'runaway', part: entry.part, unit, cuts: 1 })
    expect(cut!.streamed).toBeLessThanOrEqual(kept.length)
    expect(notices(target)).toEqual([{ ...findingNotice(cut!.finding), id: expect.any(String) as string }])
    expect(model.requests).toHaveLength(2)
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('fell into repeating itself')
    expect(turnEnds(target)).toEqual([{ kind: 'completed' }])
    expect(brakeLogs(ctx)).toEqual([])
  })

  it.each(RUNAWAYS.map(entry => [entry.name, entry] as const))('reported by users, %s: cut at the source, at most 4,000 characters kept', async (_, entry) => {
    const { ctx, heard } = await host()
    const { agent: target, model } = agent(ctx, [streamed(entry), say('Sorry about that. Here is the answer.')])
    await prompt(ctx, target)
    expect(model.streams[0]).toMatchObject({ closedEarly: true })
    const kept = textOf(messages(target)[0]!, entry.part)
    expect(entry.text.startsWith(kept)).toBe(true)
    expect(kept.length).toBeLessThanOrEqual(4000)
    expect(heard.cuts).toHaveLength(1)
    expect(turnEnds(target)).toEqual([{ kind: 'completed' }])
  })

  it('is cut in its reasoning before a tool call: the call never streams, and the model makes it at the next step', async () => {
    const { ctx, heard } = await host()
    const loop = RESPONSES.find(entry => entry.name === 'a reasoning passage repeated 400 times')!
    const { agent: target, model } = agent(ctx, [
      { reasoning: tokens(loop.text), calls: [{ name: 'read', args: { file_path: 'server.log' } }] },
      call('read', { file_path: 'server.log' }),
      say('The port is free now.'),
    ])
    await prompt(ctx, target)
    expect(model.streams.map(stream => stream.closedEarly)).toEqual([true, false, false])
    expect(messages(target)[0]!.content.map(block => block.type)).toEqual(['reasoning'])
    expect(target.session.events.filter(event => event.type === 'tool/call')).toHaveLength(1)
    expect(heard.cuts).toHaveLength(1)
    expect(turnEnds(target)).toEqual([{ kind: 'completed' }])
  })

  it('is never cut once it has begun a tool call: its arguments would be cut with it', async () => {
    const { ctx, heard } = await host()
    const { agent: target, model } = agent(ctx, [
      { calls: [{ name: 'read', args: { file_path: 'a.ts' } }], after: tokens(`Reading. ${'again '.repeat(300)}`) },
      (): Turn => ({ calls: [{ name: 'read', args: { file_path: 'b.ts' } }] }),
      say('ok'),
    ])
    await prompt(ctx, target)
    expect(model.streams.every(stream => !stream.closedEarly)).toBe(true)
    expect(heard.cuts).toEqual([])
  })

  it('is left alone when `streamCut` is off', async () => {
    const { ctx, heard } = await host({ streamCut: false })
    const loop = RESPONSES.find(entry => entry.name === 'one token repeated 5,000 times')!
    const { agent: target, model } = agent(ctx, [streamed(loop)])
    await prompt(ctx, target)
    // Every delta, between its block's start and end, then the usage and the finish.
    expect(model.streams).toEqual([{ sent: [...tokens(loop.text)].length + 4, closedEarly: false }])
    expect(textOf(messages(target)[0]!, 'text')).toBe(loop.text)
    expect(heard.cuts).toEqual([])
  })

  it('is cut by the configured thresholds', async () => {
    const { ctx, heard } = await host({ streamCutChars: 800, streamCutCopies: 200 })
    const { agent: target } = agent(ctx, [{ text: tokens('Working. ' + 'try it. '.repeat(400)) }, say('ok')])
    await prompt(ctx, target)
    expect(heard.cuts).toHaveLength(1)
    expect(heard.cuts[0]!.span).toBeGreaterThanOrEqual(800)
    expect(heard.cuts[0]!.span).toBeLessThan(800 + EVERY + 8)
  })

  it('passes a request that is not the agent loop\'s untouched (a session title, a summary)', async () => {
    const { ctx } = await host()
    const { agent: target, model, provider } = agent(ctx, [say('ok'), { text: tokens('title '.repeat(2000)) }])
    await prompt(ctx, target)
    let received = ''
    for await (const chunk of ctx.llm.stream({ provider, model: 'scripted', messages: [], purpose: 'session-title' })) {
      if (chunk.type === 'text-delta') received += chunk.text
    }
    expect(received).toBe('title '.repeat(2000))
    expect(model.streams[1]).toMatchObject({ closedEarly: false })
  })
})

describe('what is not a loop streams whole', () => {
  it.each([...RESPONSES, ...TEXTS].filter(entry => entry.kind === 'trap').map(entry => [entry.name, entry] as const))('%s', async (_, entry) => {
    const { ctx, heard } = await host()
    // A response quoting a tool's output: the output is in the conversation, here in the tool result it came in.
    const quoted = entry.request === undefined ? [] : [(): Turn => ({ calls: [{ name: 'output', args: {} }] })]
    if (entry.request !== undefined) tool(ctx, 'output', () => entry.request!)
    const { agent: target, model } = agent(ctx, [...quoted, streamed(entry)])
    await prompt(ctx, target)
    expect(model.streams.map(stream => stream.closedEarly)).toEqual(quoted.map(() => false).concat(false))
    expect(textOf(messages(target).at(-1)!, entry.part)).toBe(entry.text)
    expect(chunks(target).at(-1)).toEqual({ type: 'finish', reason: { kind: 'stop' } })
    expect(heard.cuts).toEqual([])
    expect(notices(target)).toEqual([])
  })
})

describe('responses that repeat across steps', () => {
  const OPENING = 'The build still fails on the same import. I will restart the dev server and try the build again.'

  it('the same passage opening every step, with no progress, is told once, in the one voice', async () => {
    const { ctx, heard } = await host()
    const script: Turn[] = Array.from({ length: 6 }, (_, i) => ({ text: `${OPENING}\n\nAttempt ${i + 1}.`, calls: [{ name: 'read', args: { file_path: `log-${i}` } }] }))
    const { agent: target } = agent(ctx, [...script, say('Giving up: the import is missing from the lockfile.')])
    await prompt(ctx, target)
    expect(heard.notices.map(({ finding }) => finding.kind)).toEqual(['same-response'])
    expect(notices(target).map(n => n.summary)).toEqual(['same response × 3'])
    expect(notices(target)[0]!.text).toContain('opened with the same passage')
  })

  it('the same answer, turn after turn with nothing done between, is a loop; a new person\'s message starts over', async () => {
    const { ctx, heard } = await host()
    const answer = 'I cannot reach the registry from here, so the install cannot finish. Please check the network settings.'
    const { agent: target } = agent(ctx, Array.from({ length: 4 }, () => say(answer)))
    // A hook that will not let the turn end: each time the model answers, it is told to keep going.
    let pushes = 0
    ctx.on('agent/turn-stopping', ({ agent: which }) => {
      if (which === target && ++pushes < 3) which.steer(createUserMessage({ content: [{ type: 'text', text: 'Keep going until it is done.' }], source: { kind: 'plugin', plugin: 'keep-going' } }))
    })
    await prompt(ctx, target)
    expect(heard.notices.map(({ finding }) => finding)).toEqual([{ kind: 'same-response', count: 3, whole: true, head: answer }])
    await prompt(ctx, target, 'try once more')
    expect(heard.notices).toHaveLength(1)
  })
})

describe('stop mode', () => {
  it('ends the turn at a second cut in it, with the reason, before another request', async () => {
    const { ctx, heard } = await host({ mode: 'stop' })
    const loop = RESPONSES.find(entry => entry.name === 'an answer whose last sentence repeats 300 times')!
    const { agent: target, model } = agent(ctx, [streamed(loop), streamed(loop), say('never asked')])
    await prompt(ctx, target)
    expect(model.requests).toHaveLength(2)
    expect(heard.cuts.map(cut => cut.finding.cuts)).toEqual([1, 2])
    const second = heard.cuts[1]!.finding
    expect(turnEnds(target)).toEqual([{ kind: 'aborted', reason: { kind: 'hook', reason: stopReason({ loop: second, refused: false }) } }])
    expect(notices(target).map(n => n.summary)).toEqual([expect.stringMatching(/^stopped this response, which kept repeating itself: /) as string, expect.stringMatching(/^turn stopped in a loop \(a response repeating itself: .*\); send a message to go on$/) as string])
  })
})

describe('a session with a cut, resumed', () => {
  it('loads with the cut response as the model left it and the notice after it, and goes on', async () => {
    const { ctx } = await host()
    const loop = RESPONSES.find(entry => entry.name === 'an answer whose last sentence repeats 300 times')!
    const { agent: target } = agent(ctx, [streamed(loop), say('The migration is done.')])
    await prompt(ctx, target)
    // What a resume reads: the session log as stored, every event through JSON.
    const stored = JSON.parse(JSON.stringify(target.session.events)) as typeof target.session.events
    const model = new ScriptedModel([say('Nothing else to do.')])
    ctx.llm.registerAdapter(['resumed'], model)
    const handle = await ctx.agentLoop.createAgent(ctx, { sessionId: SessionId('resumed'), seed: stored, agentOptions: { provider: 'resumed', model: 'scripted' } })
    await prompt(ctx, handle.agent, 'anything else?')
    const sent = model.requests[0]!.messages
    const cut = messages(target)[0]!
    expect(sent.map(message => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user'])
    expect(sent[1]!.content).toEqual(cut.content)
    expect(JSON.stringify(sent[2]!.content)).toContain('fell into repeating itself')
    expect(turnEnds(handle.agent)).toEqual([{ kind: 'completed' }, { kind: 'completed' }])
  })
})
