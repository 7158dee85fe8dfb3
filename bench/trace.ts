/**
 * A realistic, deterministic tool-call trace for the benchmarks: the tools of a coding session with the arguments
 * each takes, small, medium and 4 KB, with exact repeats, short call cycles and polls mixed in, and results of
 * realistic size that carry the volatile fragments real tools print (durations, exit codes).
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

/**
 * The tools of a coding session, each with the arguments DSH's stock tools take (in the order a model writes them)
 * and how often it is called: small arguments 70 % of the time, medium (a shell command, an edit) 20 %, 4 KB (a file
 * written whole) 10 %.
 */
const TOOLS: readonly {
  readonly name: string
  readonly weight: number
  readonly args: (next: () => number, i: number) => Record<string, unknown>
}[] = [
  { name: 'read', weight: 30, args: (next, i) => next() < 0.8 ? { file_path: `src/module-${i % 5000}.ts` } : { file_path: `src/module-${i % 5000}.ts`, offset: 1 + Math.floor(next() * 400), limit: 200 } },
  { name: 'grep', weight: 10, args: next => ({ pattern: words(next, 2).trim(), path: 'src', output_mode: 'content' }) },
  { name: 'glob', weight: 8, args: next => ({ pattern: `src/**/*${words(next, 1).trim()}*.ts` }) },
  { name: 'job_output', weight: 10, args: next => ({ job_id: `bash-${Math.floor(next() * 4)}` }) },
  { name: 'web_search', weight: 6, args: next => ({ query: words(next, 6).trim() }) },
  { name: 'todo_write', weight: 3, args: next => ({ todos: [{ content: words(next, 5).trim(), status: 'in_progress' }] }) },
  { name: 'str_replace_editor', weight: 3, args: (_, i) => ({ command: 'view', path: `src/module-${i % 5000}.ts` }) },
  { name: 'bash', weight: 14, args: next => ({ command: `npm test -- ${words(next, 20)}`, description: 'Run the relevant tests', timeoutMs: 120_000 }) },
  { name: 'edit', weight: 6, args: (next, i) => ({ file_path: `src/module-${i % 5000}.ts`, old_string: words(next, 12), new_string: words(next, 12) }) },
  { name: 'write', weight: 10, args: (next, i) => ({ file_path: `src/generated-${i}.ts`, content: words(next, 680) }) },
]
const TOTAL = TOOLS.reduce((sum, tool) => sum + tool.weight, 0)

/** One fresh call of a tool picked by weight, with a result of realistic size (a tenth of them failures). */
function fresh(next: () => number, i: number): TraceCall {
  let roll = next() * TOTAL
  let pick = 0
  while (roll >= TOOLS[pick]!.weight) roll -= TOOLS[pick++]!.weight
  const { name } = TOOLS[pick]!
  const args = TOOLS[pick]!.args(next, i)
  const failed = next() < 0.1
  const text = failed
    ? `Error: cannot read "src/module-${i % 5000}.ts": not found`
    : `${words(next, 30)}\n Tests  ${Math.floor(next() * 40)} passed (40)\n Duration  ${(next() * 9).toFixed(2)}s\n[exit code: ${next() < 0.3 ? 1 : 0}]`
  return freeze({ name, args, result: { isError: failed, content: [{ type: 'text', text }] } })
}

/**
 * A trace of `length` calls, drawn as: a fresh call (75 % of draws), an exact repeat of one of the last 16 calls
 * (15 %), or a cycle of 4 fresh calls run for 3 laps (10 %, so about half of all calls sit in cycles).
 */
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
