/**
 * `llm/stream`: every response of the agent loop, watched as it streams. A response that repeats itself is cut at the
 * source, so generation and its bill stop, and its notice goes into the agent's inbox to keep the turn going; each
 * finished response is also compared with the ones before it, step after step. Only the agent loop's own requests
 * are watched, and a failure in here lets the chunks pass as they came.
 * Design: docs/design.md#responses
 * @module dsh-brake/dsh/stream
 */
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock, GenerateOptions, Message, StreamChunk } from '@deepseek-ai/dsh-llm'
import { LIMITS } from '../config/resolve.js'
import { RunawayWatch, type Repetition } from '../core/stream/runaway-watch.js'
import { foldText } from '../core/stream/fold.js'
import { createQuotedRun, quotableText, type QuotedRun } from '../core/stream/quotes.js'
import { createResponseDigest } from '../core/detectors/same-response.js'
import type { RunawayFinding } from '../core/kinds.js'
import { findingNotice, loopNotice } from '../messages/notices.js'
import type { Brake, LoopRequest } from './brake.js'
import { notice } from './notices.js'

declare module '@deepseek-ai/dsh-llm' {
  interface FinishReasonMap {
    /** dsh-brake cut the response short: it had fallen into repeating itself. */
    'dsh-brake/cut': { kind: 'dsh-brake/cut' }
  }
}

/** The finish a cut response ends with: a normal end to DSH's loop, and the mark of the cut in the session log. */
export const CUT_FINISH = 'dsh-brake/cut'

/** The listener: the agent loop's requests are watched, any other passes untouched. */
export function onStream(brake: Brake, options: GenerateOptions, next: () => AsyncIterable<StreamChunk>): AsyncIterable<StreamChunk> {
  let request: LoopRequest | undefined
  try {
    request = options.purpose === undefined && options.signal !== undefined ? brake.requests.get(options.signal) : undefined
  } catch (error) {
    brake.contain('llm/stream', error)
  }
  return request === undefined ? next() : watch(brake, request, options.messages, next)
}

/** An open block of the response: its kind, and for text and reasoning the watch on it. */
interface OpenBlock {
  readonly type: string
  readonly watch: RunawayWatch | undefined
}

async function* watch(
  brake: Brake, request: LoopRequest, messages: readonly Message[], next: () => AsyncIterable<StreamChunk>,
): AsyncGenerator<StreamChunk> {
  const open = new Map<number, OpenBlock>()
  // What the response could be quoting, read and folded only if a repetition comes to be weighed.
  const quotedRun = createQuotedRun(() => foldText(quotableText(requestTexts(messages), LIMITS.streamQuoteChars)))
  const digest = createResponseDigest()
  let watching = true
  let calls = false
  let finished = false
  let cut: { index: number; part: RunawayFinding['part']; found: Repetition } | undefined
  for await (const chunk of next()) {
    yield chunk
    if (!watching) continue
    try {
      if (chunk.type === 'finish') finished = true
      if (chunk.type === 'block-start' && chunk.blockType === 'tool-call') calls = true
      // A response that started a tool call is no longer cut: the call's arguments would be cut with it.
      cut = calls ? undefined : observe(brake, chunk, open, digest, quotedRun)
    } catch (error) {
      brake.contain('llm/stream', error)
      watching = false
    }
    // Leaving the loop stops reading the provider's stream: DSH's adapter closes the request.
    if (cut !== undefined) break
  }
  if (cut !== undefined) {
    yield* endCut(brake, request, open, cut)
    return
  }
  if (!watching || !finished) return
  try {
    const told = brake.stateOf(request.agent).observeResponse({ opening: digest.opening, whole: digest.whole, calls })
    if (brake.stopMode?.responseCounted(request.agent, told) === true || told === undefined) return
    const text = loopNotice(told)
    brake.emit('dsh-brake/notice', { agent: request.agent, finding: told.finding, also: told.also, again: told.again, ...text })
    waitFor(brake, request.agent, notice(brake.name, text))
  } catch (error) {
    brake.contain('llm/stream', error)
  }
}

/**
 * Follow one chunk: blocks opening and closing, text and reasoning fed to their watches (and visible text to the
 * digest). Returns the repetition a watch found, with the block it is in.
 */
function observe(
  brake: Brake, chunk: StreamChunk, open: Map<number, OpenBlock>, digest: ReturnType<typeof createResponseDigest>, quotedRun: QuotedRun,
): { index: number; part: RunawayFinding['part']; found: Repetition } | undefined {
  switch (chunk.type) {
    case 'block-start': {
      const watched = brake.stream !== undefined && (chunk.blockType === 'text' || chunk.blockType === 'reasoning')
      open.set(chunk.index, { type: chunk.blockType, watch: watched ? new RunawayWatch(brake.stream, quotedRun) : undefined })
      return undefined
    }
    case 'block-end':
      open.delete(chunk.index)
      return undefined
    case 'text-delta':
    case 'reasoning-delta': {
      if (chunk.type === 'text-delta') digest.push(chunk.text)
      const found = open.get(chunk.index)?.watch?.push(chunk.text)
      return found === undefined ? undefined : { index: chunk.index, part: chunk.type === 'text-delta' ? 'text' : 'reasoning', found }
    }
    default:
      return undefined
  }
}

/**
 * The end of a cut response: its open blocks closed with the text DSH logged of them, a finish of the brake's own, and
 * then the notice (or, for the turn's second cut in stop mode, the stop) for the model's next step.
 */
function* endCut(
  brake: Brake, request: LoopRequest, open: ReadonlyMap<number, OpenBlock>, cut: { index: number; part: RunawayFinding['part']; found: Repetition },
): Generator<StreamChunk> {
  const { agent, turn } = request
  let closing: StreamChunk[] = []
  try {
    closing = closingBlocks(agent, open)
  } catch (error) {
    // Left open, the blocks still hold what streamed: DSH's loop assembles them from their deltas.
    brake.contain('llm/stream: closing a cut response', error)
  }
  yield* closing
  yield { type: 'finish', reason: { kind: CUT_FINISH } }
  try {
    const counted = brake.cuts.get(agent)
    const cuts = counted?.turn === turn ? counted.count + 1 : 1
    brake.cuts.set(agent, { turn, count: cuts })
    const finding: RunawayFinding = { kind: 'runaway', part: cut.part, unit: cut.found.unit.slice(0, UNIT_KEPT), copies: cut.found.copies, cuts }
    brake.emit('dsh-brake/cut', { agent, turn, step: request.step, finding, span: cut.found.span, streamed: cut.found.seen })
    const stop = cuts > 1 ? brake.stopMode?.cutEndsTurn(agent, turn, { loop: finding, refused: false }) : undefined
    const text = findingNotice(finding)
    if (stop === undefined) brake.emit('dsh-brake/notice', { agent, finding, also: [], again: cuts > 1, ...text })
    agent.inject(stop ?? notice(brake.name, text))
  } catch (error) {
    brake.contain('llm/stream: after a cut', error)
  }
}

/** Characters of a repeated unit a cut's finding keeps (a notice quotes fewer). */
const UNIT_KEPT = 400

/**
 * A `block-end` for each open block, in the order they opened, with the block DSH's loop assembled so far: the deltas
 * it logged for this step (DSH appends each chunk to the session as it reads it, before it asks for the next), so the
 * brake keeps no copy of a response's text.
 */
function closingBlocks(agent: Agent, open: ReadonlyMap<number, OpenBlock>): StreamChunk[] {
  const texts = new Map<number, string[]>()
  for (const index of open.keys()) texts.set(index, [])
  const events = agent.session.events
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type === 'step/start') break
    if (event.type !== 'assistant/chunk') continue
    const chunk = event.data.chunk
    if (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') texts.get(chunk.index)?.push(chunk.text)
  }
  const closing: StreamChunk[] = []
  for (const [index, block] of open) {
    const text = texts.get(index)!.reverse().join('')
    if (block.type === 'text' || block.type === 'reasoning') closing.push({ type: 'block-end', index, block: { type: block.type, text } as ContentBlock })
  }
  return closing
}

/** The texts of the request a response may quote, newest first: the person's and the tools' (not the model's own). */
function* requestTexts(messages: readonly Message[]): Generator<string> {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') yield* blockTexts(messages[i]!.content)
}

function* blockTexts(blocks: readonly ContentBlock[]): Generator<string> {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!
    if (block.type === 'text') yield block.text
    else if (block.type === 'tool-result') yield* blockTexts(block.content)
  }
}

/** Notices kept waiting for an agent's next step, at most (responses that end without a next step let them pile). */
const WAITING = 4

/** Put `message` before the agent's next step (the pre-step listener adds it). */
function waitFor(brake: Brake, agent: Agent, message: ReturnType<typeof notice>): void {
  const waiting = brake.waiting.get(agent) ?? []
  waiting.push(message)
  brake.waiting.set(agent, waiting.slice(-WAITING))
}
