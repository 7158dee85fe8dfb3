/**
 * `stream`: what watching a response as it streams costs (`llm/stream`): the longest response a model gives, through
 * the brake, a wrapper that only passes chunks on, and nothing; and the state a live response holds.
 * @module
 */
import { Context } from '@deepseek-ai/cordis'
import * as Brake from '../../dist/index.js'
import { afterCollection, rounds } from '../measure.ts'
import { ratio, type Report } from '../report.ts'
import { text } from '../trace.ts'

/** The longest response a model gives (64 000 tokens, about 256 000 characters), repeating nothing, in 4-character deltas. */
const LENGTH = 256_000
/** A fast provider streams about 1 000 tokens a second, some 4 000 characters: the share of one core the watch takes then. */
const FAST_CHARS_PER_SECOND = 4_000
/** Responses held open at once to measure the state of one. */
const OPEN = 50

type Chunk = Record<string, unknown>
type Waterfall = (name: string, ...args: unknown[]) => unknown

/** The response streamed: its text, and the deltas it comes in. */
interface Response {
  readonly body: string
  readonly deltas: readonly string[]
}

function* source(response: Response, upTo = response.deltas.length): Generator<Chunk> {
  const { body, deltas } = response
  yield { type: 'block-start', index: 0, blockType: 'text' }
  for (let i = 0; i < upTo; i++) yield { type: 'text-delta', index: 0, text: deltas[i] }
  if (upTo < deltas.length) return
  yield { type: 'block-end', index: 0, block: { type: 'text', text: body } }
  yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 64_000 } }
  yield { type: 'finish', reason: { kind: 'stop' } }
}

// A provider's stream is an async iterable; this one has nothing to wait for.
// oxlint-disable-next-line typescript/require-await
async function* provider(response: Response, upTo?: number): AsyncGenerator<Chunk> {
  yield* source(response, upTo)
}

async function streaming(plugin: 'none' | 'wrapper' | 'brake'): Promise<Waterfall> {
  const ctx = new Context()
  const on = (ctx as unknown as { on: (name: string, listener: (...args: unknown[]) => unknown) => void }).on.bind(ctx)
  // The least any listener that wraps the stream costs: an async generator passing every chunk on.
  if (plugin === 'wrapper') {
    on('llm/stream', (_options: unknown, next: unknown) => (async function* () {
      yield* (next as () => AsyncIterable<Chunk>)()
    })())
  }
  if (plugin === 'brake') await ctx.plugin(Brake as never, {} as never)
  return (ctx as unknown as { waterfall: Waterfall }).waterfall.bind(ctx)
}

/** One response of the agent loop, announced as DSH announces it, read to its end (or `upTo` deltas, left open). */
async function respond(waterfall: Waterfall, response: Response, agent: object, upTo?: number): Promise<AsyncIterator<Chunk>> {
  const turn = new AbortController().signal
  await waterfall('agent/request', { agent, signal: turn, turn: 1, step: 1, config: {} }, () => Promise.resolve({}))
  const stream = waterfall('llm/stream', { provider: 'bench', model: 'bench', messages: [], signal: turn }, () => provider(response, upTo)) as AsyncIterable<Chunk>
  const reader = stream[Symbol.asyncIterator]()
  for (let read = 0; upTo === undefined || read < upTo + 1; read++) if ((await reader.next()).done === true) break
  return reader
}

/**
 * State per live response: responses held open mid-stream after `chars` characters. The watch keeps its characters
 * in typed arrays, outside the JavaScript heap: both are counted.
 */
async function heldOpen(brake: Waterfall, response: Response, chars: number): Promise<number> {
  const settle = async (): Promise<number> => {
    const { heapUsed, arrayBuffers } = await afterCollection()
    return heapUsed + arrayBuffers
  }
  const before = await settle()
  const open = await Promise.all(Array.from({ length: OPEN }, () => respond(brake, response, {}, chars / 4)))
  const held = ((await settle()) - before) / OPEN
  await Promise.all(open.map(reader => reader.return?.() ?? Promise.resolve()))
  return held
}

export async function streamWatch(report: Report): Promise<void> {
  const body = text(LENGTH, 11)
  const response: Response = { body, deltas: Array.from({ length: Math.ceil(LENGTH / 4) }, (_, i) => body.slice(i * 4, i * 4 + 4)) }
  const hosts = { none: await streaming('none'), wrapper: await streaming('wrapper'), brake: await streaming('brake') }
  const time = (waterfall: Waterfall) => async (): Promise<number> => {
    const start = process.hrtime.bigint()
    await respond(waterfall, response, {})
    return Number(process.hrtime.bigint() - start)
  }
  for (const waterfall of Object.values(hosts)) await time(waterfall)()
  const t = await rounds({ none: time(hosts.none), wrapper: time(hosts.wrapper), brake: time(hosts.brake) })
  const perChar = (ns: number): number => ns / LENGTH
  const watching = perChar(t.brake - t.wrapper)
  const share = watching * FAST_CHARS_PER_SECOND / 1e9
  // After 3 000 characters and after all 256 000.
  const early = await heldOpen(hosts.brake, response, 3_000)
  const late = await heldOpen(hosts.brake, response, LENGTH - 4)
  report.figures['stream'] = {
    responseChars: LENGTH, deltaChars: 4,
    nsPerChar: { passedThrough: perChar(t.none), wrapper: perChar(t.wrapper), brake: perChar(t.brake) },
    watchNsPerChar: watching, brakeOverPassThrough: t.brake / t.none, brakeOverWrapper: t.brake / t.wrapper,
    coreShareAtFastStream: share, memoryPerOpenResponseBytes: { after3000: early, after256000: late },
  }
  report.row('stream watch per character (past a pass-through wrapper)', `${watching.toFixed(0)} ns`, '', undefined)
  report.row('  a 64k-token response through the brake ÷ passed through untouched', ratio(t.brake / t.none), '', undefined)
  report.row('  share of one core at 1 000 tokens/s (4 000 chars/s)', `${(share * 100).toFixed(3)} %`, '≤ 1 %', share <= 0.01)
  report.row('  (per character: untouched / wrapper / brake)', `${perChar(t.none).toFixed(0)} / ${perChar(t.wrapper).toFixed(0)} / ${perChar(t.brake).toFixed(0)} ns`, '', undefined)
  report.row('state per live response after 256 000 chars ÷ after 3 000', ratio(late / early), '≤ 1.25×', late / early <= 1.25)
  report.row('  (memory per live response after 3 000 / 256 000 chars)', `${(early / 1024).toFixed(0)} / ${(late / 1024).toFixed(0)} KiB`, '', undefined)
}
