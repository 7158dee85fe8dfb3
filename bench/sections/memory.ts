/**
 * `memory`: the heap one agent keeps after 1e5 distinct calls and 1e4 text blocks, the heap and buffers of an agent
 * whose every bounded table is full, and whether agents that are dropped are collected.
 * @module
 */
import { host, signal, type Waterfall } from '../hosts.ts'
import { afterCollection, dispatch } from '../measure.ts'
import type { Report } from '../report.ts'
import type { TraceCall } from '../trace.ts'

/** Agents kept side by side, divided out: one agent's share is small next to the collector's noise. */
const KEPT = 4
/** Agents made, used and dropped. */
const DROPPED = 1_000

/** The heap, once collected. */
const settle = async (): Promise<number> => (await afterCollection()).heapUsed
/** The heap and the typed arrays allocated outside it, once collected. */
const settleAll = async (): Promise<number> => {
  const { heapUsed, arrayBuffers } = await afterCollection()
  return heapUsed + arrayBuffers
}

/** `count` distinct reads of `agent`, tagged `tag`. */
function distinct(waterfall: Waterfall, agent: object, count: number, tag: string): Promise<number> {
  const calls: TraceCall[] = Array.from({ length: count }, (_, i) => ({
    name: 'read',
    args: { file_path: `${tag}/f-${i}.ts` },
    result: { isError: false, content: [{ type: 'text' as const, text: `contents of ${tag} ${i}` }] },
  }))
  return dispatch(waterfall, calls, agent)
}

/** `count` distinct paragraphs claimed by `agent`, ten a message. */
async function blocks(waterfall: Waterfall, agent: object, count: number, tag: string): Promise<void> {
  for (let i = 0; i < count; i += 10) {
    const body = Array.from({ length: 10 }, (_, k) => `${tag} paragraph ${i + k}: `.padEnd(120, 'x')).join('\n\n')
    const message = { content: [{ type: 'text', text: body }], source: { kind: 'plugin', plugin: 'bench' }, role: 'user', id: `${tag}-${i}` }
    await waterfall('agent/pre-step', { agent, messages: [message], turn: 1, step: 1, signal }, () => Promise.resolve({ kind: 'enter', messages: [message] }))
  }
}

/**
 * Every bounded table of one agent filled: more distinct calls than it remembers, of every kind a session makes, with
 * results of real size. Windows of many files over lines of content (seen lines, rereading), searches that find
 * nothing (questions answered), edits of many files and checks failing after them with tracebacks (file states,
 * failing checks, the same failure), failures of many tools (error chains), a long-running job polled, outputs a
 * few KB long (recent results), and claimed text blocks.
 */
async function saturate(waterfall: Waterfall, agent: object, tag: string, rounds: number): Promise<void> {
  const lines = (from: number, count: number): string => Array.from({ length: count }, (_, k) => `${from + k}\t${tag} line ${from + k} of the module, with its code`).join('\n')
  const call = (name: string, args: Readonly<Record<string, unknown>>, text: string, isError = false): TraceCall => ({ name, args, result: { isError, content: [{ type: 'text', text }] } })
  for (let r = 0; r < rounds; r++) {
    const file = `src/${tag}/m-${r % 97}.py`
    const calls = [
      call('read', { file_path: file, offset: 1 + (r % 7) * 40, limit: 60 }, lines(r * 60, 60)),
      call('grep', { pattern: `missing_${tag}_${r}`, path: `src/${r % 13}` }, 'No matches found'),
      call('edit', { file_path: file, old_string: `value = ${r}`, new_string: `value = ${r + 1}` }, 'Edited.'),
      call('bash', { command: `python -m pytest tests/test_${r % 61}.py` },
        `${lines(r, 30)}\nTraceback (most recent call last):\n  File "${file}", line ${r % 300}, in run_${r % 61}\n    check()\nAssertionError: expected ${r} got ${r + 1}\n[exit code: 1]`),
      call(`tool_${r % 300}`, { input: `${tag}-${r}` }, `Error: tool_${r % 300} failed on ${tag}-${r}: ${'the input was not what it expected; '.repeat(4)}`, true),
      call('job_output', { job_id: `job-${r % 5}` }, `${tag} running ${r}\n${lines(r, 40)}`),
      call('bash', { command: `cat ${tag}-${r}.log` }, lines(r, 80)),
    ]
    await dispatch(waterfall, calls, agent)
  }
  await blocks(waterfall, agent, 2_000, tag)
}

/**
 * {@link DROPPED} agents made, used and dropped: how many the collector finalized, and the heap after them against
 * before.
 */
async function dropped(waterfall: Waterfall): Promise<{ collected: number; heapAfter: number }> {
  const collected = { count: 0 }
  const registry = new FinalizationRegistry(() => { collected.count++ })
  const baseline = await settle()
  // In a function of its own: a suspended async frame can keep its last local alive, which would be ours to blame.
  const useAndDrop = async (): Promise<void> => {
    for (let a = 0; a < DROPPED; a++) {
      const agent = {}
      registry.register(agent, a)
      await distinct(waterfall, agent, 100, `agent-${a}`)
      await blocks(waterfall, agent, 20, `agent-${a}`)
    }
  }
  await useAndDrop()
  // Cordis keeps the arguments of the latest dispatch until the next one: one more call, on an agent that is not
  // counted, lets the last dropped agent go (measured: the same happens with no plugin mounted at all).
  const flush = {}
  await distinct(waterfall, flush, 1, 'flush')
  await blocks(waterfall, flush, 10, 'flush')
  await new Promise(resolve => setTimeout(resolve, 50))
  const afterDropped = await settle()
  await new Promise(resolve => setTimeout(resolve, 50))
  await settle()
  return { collected: collected.count, heapAfter: afterDropped - baseline }
}

export async function memory(report: Report): Promise<void> {
  const waterfall = await host('brake')
  await distinct(waterfall, {}, 2_000, 'warm')
  await blocks(waterfall, {}, 2_000, 'warm')
  await saturate(waterfall, {}, 'warm', 500)
  const before = await settle()
  const kept = Array.from({ length: KEPT }, () => ({}))
  for (const [k, agent] of kept.entries()) {
    await distinct(waterfall, agent, 100_000, `kept-${k}`)
    await blocks(waterfall, agent, 10_000, `kept-${k}`)
  }
  const perAgent = ((await settle()) - before) / KEPT
  // At saturation, typed arrays (allocated outside the JavaScript heap) counted too.
  const beforeFull = await settleAll()
  const full = Array.from({ length: KEPT }, () => ({}))
  for (const [k, agent] of full.entries()) await saturate(waterfall, agent, `full-${k}`, 3_000)
  const perFullAgent = ((await settleAll()) - beforeFull) / KEPT
  const { collected, heapAfter } = await dropped(waterfall)
  report.figures['memory'] = {
    heapPerAgentBytes: perAgent, heapPerSaturatedAgentBytes: perFullAgent, droppedAgents: DROPPED, collectedAgents: collected,
    heapAfterDroppedBytes: heapAfter,
  }
  report.row('heap kept per agent (1e5 calls, 1e4 text blocks)', `${(perAgent / 1024 / 1024).toFixed(2)} MiB`, '≤ 1 MiB', perAgent <= 1024 * 1024)
  report.row('heap and buffers per agent at saturation (every table full)', `${(perFullAgent / 1024 / 1024).toFixed(2)} MiB`, '≤ 0.90 MiB', perFullAgent <= 0.9 * 1024 * 1024)
  report.row('dropped agents collected', `${collected} of 1000`, 'all', collected === DROPPED)
  report.row('  (heap after 1000 dropped agents, vs before)', `${(heapAfter / 1024).toFixed(0)} KiB`, '', undefined)
  // The agents kept are measured as alive until here.
  if (kept.length + full.length === 0) console.log(kept, full)
}
