/**
 * A realistic, deterministic tool-call trace for the benchmarks: tool names and argument sizes of a coding session,
 * with exact repeats and short call cycles mixed in, and results of realistic size that carry the volatile fragments
 * real tools print (durations, exit codes, ids).
 */

/** A deterministic pseudo-random generator (mulberry32), so every run measures the same trace. */
export function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface TraceCall {
  readonly name: string
  readonly args: Readonly<Record<string, unknown>>
  readonly result: { readonly isError: boolean; readonly content: readonly { type: 'text'; text: string }[] }
}

const TOOLS = ['read', 'grep', 'glob', 'bash', 'edit', 'write', 'job_output', 'web_search', 'todo_write', 'str_replace_editor']

function words(next: () => number, count: number): string {
  const vocabulary = ['const', 'return', 'value', 'parse', 'token', 'error', 'config', 'server', 'test', 'module', 'async', 'await']
  let out = ''
  for (let i = 0; i < count; i++) out += `${vocabulary[Math.floor(next() * vocabulary.length)]} `
  return out
}

function freeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) freeze(inner)
    Object.freeze(value)
  }
  return value
}

/** One fresh call: small (70 %), medium (20 %) or 4 KB (10 %) arguments. */
function fresh(next: () => number, i: number): TraceCall {
  const name = TOOLS[Math.floor(next() * TOOLS.length)]!
  const size = next()
  const args: Record<string, unknown> = size < 0.7
    ? { file_path: `src/module-${i % 5000}.ts` }
    : size < 0.9
      ? { command: `npm test -- ${words(next, 20)}`, description: 'Run the relevant tests', timeoutMs: 120_000, workdir: '/home/dev/app' }
      : { file_path: `src/generated-${i}.ts`, content: words(next, 680) }
  const failed = next() < 0.1
  const text = failed
    ? `Error: cannot read "src/module-${i % 5000}.ts": not found`
    : `${words(next, 30)}\n Tests  ${Math.floor(next() * 40)} passed (40)\n Duration  ${(next() * 9).toFixed(2)}s\n[exit code: ${next() < 0.3 ? 1 : 0}]`
  return freeze({ name, args, result: { isError: failed, content: [{ type: 'text', text }] } })
}

/** A trace of `length` calls: 75 % fresh, 15 % exact repeats of a recent call, 10 % inside 4-call cycles of 3 laps. */
export function trace(length: number, seed = 42): TraceCall[] {
  const next = random(seed)
  const calls: TraceCall[] = []
  while (calls.length < length) {
    const roll = next()
    if (roll < 0.75 || calls.length < 16) {
      calls.push(fresh(next, calls.length))
    } else if (roll < 0.9) {
      calls.push(calls[calls.length - 1 - Math.floor(next() * 16)]!)
    } else {
      const cycle = [0, 1, 2, 3].map(k => fresh(next, calls.length + k))
      for (let lap = 0; lap < 3; lap++) calls.push(...cycle)
    }
  }
  return calls.slice(0, length)
}

/** A text of about `bytes` characters: paragraphs of a few lines, separated by blank lines, a tenth of them repeated. */
export function text(bytes: number, seed = 7): string {
  const next = random(seed)
  const paragraphs: string[] = []
  let size = 0
  while (size < bytes) {
    const paragraph = paragraphs.length > 4 && next() < 0.1
      ? paragraphs[Math.floor(next() * paragraphs.length)]!
      : Array.from({ length: 2 + Math.floor(next() * 5) }, () => words(next, 12).trimEnd()).join('\n')
    paragraphs.push(paragraph)
    size += paragraph.length + 2
  }
  return paragraphs.join('\n\n').slice(0, bytes)
}
