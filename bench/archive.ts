/**
 * A generated archive of real-shaped DSH session logs, for `dsh-brake analyze`'s figures: each log as DSH writes it
 * (a header line, then session events as JSON Lines in zstd frames, runs of deltas packed into storage rows), of the
 * size of a real one (about 170 events, 100 KB of JSON, 25 KB of zstd): a prompt, then about 24 steps, each with its
 * streamed reasoning, one tool call and its result, and the provider's usage. One session in twenty goes round the
 * same read six times. Sessions are spread over project folders of 1,000, so a part of the archive is a folder too.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { zstdCompressSync } from 'node:zlib'
import { random, text } from './trace.ts'

/** Sessions in one project folder of the archive. */
export const PER_PROJECT = 1_000

/**
 * Make (once: it is kept in `dir` and reused) an archive of `count` sessions under `dir/sessions/project-<n>/`. Returns
 * the archive's folder.
 */
export function makeArchive(dir: string, count: number): string {
  const done = join(dir, `.complete-${count}`)
  if (existsSync(done)) return dir
  for (let i = 0; i < count; i++) {
    const project = `project-${Math.floor(i / PER_PROJECT)}`
    const id = `session-${String(i).padStart(6, '0')}`
    const folder = join(dir, 'sessions', project, id)
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'session.jsonl.zstd'), sessionLog(id, `/work/${project}`, i))
  }
  writeFileSync(done, '')
  return dir
}

/** One session's log bytes. */
function sessionLog(id: string, cwd: string, seed: number): Buffer {
  const next = random(seed + 1)
  const lines: object[] = [{ type: 'session', version: 0, id, createdAt: 1_800_000_000_000 + seed, cwd }]
  const add = (type: string, data: object): void => {
    lines.push({ type, seq: lines.length - 1, time: 1_800_000_000_000 + seed + lines.length, data })
  }
  const loops = seed % 20 === 7
  add('turn/start', { turn: 1 })
  const steps = 20 + Math.floor(next() * 8)
  for (let step = 1; step <= steps; step++) {
    add('step/start', { turn: 1, step })
    if (step === 1) add('user/message', { role: 'user', id: `${id}-prompt`, source: { kind: 'user' }, content: [{ type: 'text', text: text(1_500, seed) }] })
    const reasoning = text(400 + Math.floor(next() * 400), seed * 31 + step)
    const deltas = reasoning.match(/[\s\S]{1,12}/g) ?? []
    lines.push({ type: 'reasoning-chunks', seq0: lines.length - 1, time0: 1_800_000_000_000, data: { turn: 1, step, index: 0, dt: deltas.slice(1).map(() => 3), texts: deltas } })
    const callId = `call_${step}`
    const looping = loops && step >= 5 && step < 11
    const file = looping ? 'src/stuck.ts' : `src/module-${Math.floor(next() * 200)}.ts`
    const args = JSON.stringify({ file_path: file })
    add('assistant/chunk', { turn: 1, step, chunk: { type: 'finish', reason: { kind: 'tool-calls' } } })
    add('assistant/message', {
      turn: 1, step, usage: { inputTokens: 8_000 + step * 900, outputTokens: 120 + Math.floor(next() * 300) },
      message: { role: 'assistant', id: `${id}-a${step}`, source: { kind: 'model', provider: 'deepseek', model: 'deepseek-chat' }, content: [{ type: 'reasoning', text: reasoning }, { type: 'tool-call', id: callId, name: 'read', arguments: args }] },
    })
    add('tool/call', { turn: 1, step, callId, name: 'read', arguments: args })
    const result = looping ? `<path>${file}</path>\n${text(1_200, 99)}` : `<path>${file}</path>\n${text(1_000 + Math.floor(next() * 1_000), seed * 7 + step)}`
    add('tool/result', {
      turn: 1, step,
      message: { role: 'user', id: `${id}-r${step}`, source: { kind: 'tool', callId }, content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: result }], isError: false }] },
    })
    add('step/end', { turn: 1, step })
  }
  add('turn/end', { turn: 1, reason: { kind: 'completed' } })
  // One zstd frame per append batch, as DSH flushes: a dozen lines each.
  const frames: Buffer[] = []
  for (let i = 0; i < lines.length; i += 12) frames.push(zstdCompressSync(Buffer.from(`${lines.slice(i, i + 12).map(line => JSON.stringify(line)).join('\n')}\n`)))
  return Buffer.concat(frames)
}
