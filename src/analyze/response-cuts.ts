/**
 * Responses that repeat themselves, in a session log: where the brake cut one in the session itself (the response
 * ends with its finish `dsh-brake/cut`), and, replaying each response's text and reasoning through the same watch the
 * plugin runs, where it would cut under a config and how many output tokens the response spent past that point.
 * @module dsh-brake/analyze/response-cuts
 */
import { LIMITS, resolveOptions } from '../config/resolve.js'
import { Config } from '../config/schema.js'
import { createWatchMemory, memoryFits, type WatchMemory } from '../core/stream/folded-window.js'
import type { RunawayOptions } from '../core/stream/runaway-rules.js'
import { RunawayWatch, type Repetition } from '../core/stream/runaway-watch.js'
import { foldText } from '../core/stream/fold.js'
import { createQuotedRun, quotableText, type QuotedRun } from '../core/stream/quotes.js'
import type { RecordedCall, RecordedResponse } from '../replay/session-recording.js'
import { CUT_FINISH } from '../dsh/stream.js'
import type { LiveCut, ResponseCut } from './analysis.js'
import { charsAsTokens, proportion } from './tokens.js'

/**
 * Where the brake would cut each response under `config` (the plugin's config map), in response order. `calls`, the
 * agent's calls, give the tool output each response could quote, as the live watch reads it in its request.
 */
export function wouldCut(
  responses: readonly RecordedResponse[], config: Readonly<Record<string, unknown>>, calls: readonly RecordedCall[] = [],
): ResponseCut[] {
  const stream = streamOptionsOf(config)
  if (stream === undefined) return []
  const cuts: ResponseCut[] = []
  const memory = watchMemoryFor(stream)
  for (const response of responses) {
    const quotedRun = createQuotedRun(() => foldText(quotableText(outputsBefore(calls, response.callsBefore), LIMITS.streamQuoteChars)))
    const total = responseChars(response)
    // Blocks stream one after another (reasoning, then the answer): a cut in the second comes after all of the first.
    let before = 0
    for (const block of response.blocks) {
      const chars = length(block.deltas)
      // A block shorter than the fewest characters cut cannot repeat enough: most blocks, not watched at all.
      const found = chars < stream.minChars ? undefined : firstRepetition(block.deltas, stream, quotedRun, memory)
      if (found === undefined) {
        before += chars
        continue
      }
      const at = before + found.seen
      // The reported output tokens by the share of characters past the cut, or the characters as tokens.
      const reported = response.outputTokens
      const estimated = reported === undefined || total === 0
      cuts.push({
        response: response.index + 1, callsBefore: response.callsBefore, part: block.part, unit: found.unit, copies: found.copies, at,
        repeatsFrom: Math.max(before, at - found.span + found.unit.length),
        tokensAfter: estimated ? charsAsTokens(total - at) : proportion(reported, total - at, total),
        estimated,
        cutInSession: response.finish === CUT_FINISH,
      })
      break
    }
  }
  return cuts
}

/**
 * The stream options of each config met, resolved once: a run cuts thousands of logs under the same config objects,
 * and resolving one (its schema, then every rule checked) cost as much as watching a small log. A config that does not
 * resolve throws each time, as it is not kept.
 */
const resolvedStreams = new WeakMap<object, RunawayOptions | undefined>()

function streamOptionsOf(config: Readonly<Record<string, unknown>>): RunawayOptions | undefined {
  if (resolvedStreams.has(config)) return resolvedStreams.get(config)
  const stream = resolveOptions(Config(config)).stream
  resolvedStreams.set(config, stream)
  return stream
}

/**
 * Watch memory kept for this thread, one for each shape of stream options met (one per config, at most): every block
 * of every log is watched one after another, in {@link wouldCut}, which never lets go of the thread mid-watch, and a
 * watch clears the memory it is handed; so one memory serves them all, made once rather than per log (tens of KB
 * outside the heap, which cost more to make than a small log's watching).
 */
const watchMemories: WatchMemory[] = []

/** Memory for watches under `stream`: one kept for its shape, or made and kept. */
function watchMemoryFor(stream: RunawayOptions): WatchMemory {
  const kept = watchMemories.find(memory => memoryFits(memory, stream))
  if (kept !== undefined) return kept
  const made = createWatchMemory(stream)
  watchMemories.push(made)
  return made
}

/**
 * The responses the brake cut in the session itself: numbered from 1, with the calls made before each, and where the
 * cut fell: the characters it had streamed, and the part it was streaming.
 */
export function cutInSession(responses: readonly RecordedResponse[]): LiveCut[] {
  return responses.filter(response => response.finish === CUT_FINISH).map(liveCut)
}

/** Where the brake cut `response` in the session: after all it streamed, in the part it streamed last. */
export function liveCut(response: RecordedResponse): LiveCut {
  return { response: response.index + 1, callsBefore: response.callsBefore, at: responseChars(response), part: response.blocks.at(-1)?.part ?? 'text' }
}

/** The first repetition the plugin's watch finds in `deltas`, streamed as they were, watched in `memory`. */
function firstRepetition(
  deltas: readonly string[], stream: RunawayOptions, quotedRun: QuotedRun, memory: WatchMemory,
): Repetition | undefined {
  const watch = new RunawayWatch(stream, quotedRun, memory)
  for (const delta of deltas) {
    const found = watch.push(delta)
    if (found !== undefined) return found
  }
  return undefined
}

/** The outputs of the calls before a response, newest first, as its request held them. */
function* outputsBefore(calls: readonly RecordedCall[], callsBefore: number): Generator<string> {
  for (let i = Math.min(callsBefore, calls.length) - 1; i >= 0; i--) yield calls[i]!.text
}

/** The characters a response streamed, its reasoning and its answer. */
export function responseChars(response: RecordedResponse): number {
  return response.blocks.reduce((total, block) => total + length(block.deltas), 0)
}

function length(deltas: readonly string[]): number {
  return deltas.reduce((sum, delta) => sum + delta.length, 0)
}
