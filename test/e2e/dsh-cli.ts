/**
 * Driving the real `dsh` CLI the way a user does: a fresh DSH_HOME, `dsh plugin --profile headless add …`, the
 * profile's `cordis.patch.yml`, then `dsh --profile headless "<task>"` against the scripted model server. Only the
 * model is scripted; everything else is the published CLI (installed in test/e2e/cli by scripts/e2e-setup.ts).
 */
import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { zstdDecompressSync } from 'node:zlib'
import { expect } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { startModelServer, textOf, type Answer, type ModelServer } from './model-server.ts'

/** The CLI entry of the pinned release, installed from the recipe with pnpm 10; and the same installed with 11 and 12. */
export const CLI = join(PACKAGE_ROOT, 'test/e2e/cli/node_modules/@deepseek-ai/dsh/lib/bin.js')
export const CLI_PNPM11 = join(PACKAGE_ROOT, '.e2e/cli-pnpm11/node_modules/@deepseek-ai/dsh/lib/bin.js')
export const CLI_PNPM12 = join(PACKAGE_ROOT, '.e2e/cli-pnpm12/node_modules/@deepseek-ai/dsh/lib/bin.js')

if (!existsSync(CLI)) throw new Error('the dsh CLI is not installed: run `npm run test:e2e` (it installs it first)')

/** Where the temporary homes and workspaces of this run live. */
const ROOT = mkdtempSync(join(tmpdir(), 'dsh-brake-e2e-'))

/** Remove every home and workspace this run created. */
export function cleanUp(): void {
  rmSync(ROOT, { recursive: true, force: true })
}

/**
 * Where and how to run the CLI: its home and folder, the model server, a time limit, another install of it, and the
 * folder whose `pnpm` it finds on PATH (`dsh plugin add` runs pnpm; default .e2e/bin, pnpm 11).
 */
export interface RunOptions {
  readonly home: string
  readonly cwd: string
  readonly baseUrl?: string
  readonly timeoutMs?: number
  readonly cli?: string
  readonly pnpmBin?: string
  /** More environment for this run; `undefined` takes a variable out (telemetry is off unless a test turns it on). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** A fresh DSH_HOME. */
export function freshHome(): string {
  return mkdtempSync(join(ROOT, 'home-'))
}

/** A fresh DSH_HOME whose `profile` (headless unless named) has this checkout added, as a user adds it. */
export async function homeWithBrake(profile = 'headless'): Promise<string> {
  const home = freshHome()
  const added = await dsh(['plugin', '--profile', profile, 'add', PACKAGE_ROOT], { home, cwd: home })
  expect(added.code, added.stderr).toBe(0)
  return home
}

/** A fresh workspace with the given files. */
export function workspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(ROOT, 'work-'))
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content)
  return dir
}

/**
 * The machine's environment without anything that would steer DSH or the test runner (DSH_*, DEEPSEEK_*, VITEST*,
 * NODE_OPTIONS): what is left (certificates, proxies, the registry) is what pnpm needs to reach the registry.
 */
function inherited(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(DSH_|DEEPSEEK_|VITEST|NODE_OPTIONS$|TEST$)/.test(key)) continue
    out[key] = value
  }
  return out
}

/**
 * Run the CLI with a controlled environment: Node 22 and pnpm first on PATH (the plugin command runs pnpm), the home,
 * no telemetry (unless `env` turns it on), and the model server as the DeepSeek endpoint with a dummy key.
 */
export function dsh(args: readonly string[], options: RunOptions): Promise<Run> {
  const base: Record<string, string> = {
    ...inherited(),
    PATH: [dirname(process.execPath), options.pnpmBin ?? join(PACKAGE_ROOT, '.e2e/bin'), process.env['PATH'] ?? '/usr/bin:/bin'].join(':'),
    HOME: process.env['HOME'] ?? options.home,
    DSH_HOME: options.home,
    DSH_AGENTS_HOME: join(options.home, 'agents'),
    DSH_TELEMETRY_DISABLED: '1',
    DEEPSEEK_API_KEY: 'sk-scripted',
    ...options.baseUrl === undefined ? {} : { DEEPSEEK_BASE_URL: options.baseUrl },
  }
  const env = Object.fromEntries(Object.entries({ ...base, ...options.env })
    .filter((entry): entry is [string, string] => entry[1] !== undefined))
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath, [options.cli ?? CLI, ...args],
      { cwd: options.cwd, env, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    )
    child.stdin?.end()
  })
}

/**
 * Play `script` (then "done") in a fresh workspace with `files`, under `config` (the profile patch): `dsh --profile
 * headless` on `home` against a scripted model server, closed once the run ends, whether or not it went well.
 */
export async function play(
  home: string, script: Answer[], config: string, files: Record<string, string> = {},
): Promise<{ run: Run; server: ModelServer; cwd: string }> {
  writeUserPatch(home, config)
  const cwd = workspace(files)
  const server = await startModelServer([...script, { text: 'done' }])
  try {
    const run = await dsh(['--profile', 'headless', 'Fix the failing check.'], { home, cwd, baseUrl: server.url })
    return { run, server, cwd }
  } finally {
    await server.close()
  }
}

/** Write the profile's user patch layer. */
export function writeUserPatch(home: string, yaml: string, profile = 'headless'): void {
  const dir = join(home, 'profiles', profile)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'cordis.patch.yml'), yaml)
}

/** A session log event as stored on disk. */
export interface StoredEvent {
  readonly type: string
  readonly seq?: number
  readonly data?: Record<string, unknown>
}

/** Every session log written under `home` for `cwd`, decoded: the file is one zstd frame per append batch. */
export function sessionEvents(home: string, cwd: string): StoredEvent[] {
  return sessionFiles(home, cwd).flatMap(file => linesOf(file))
}

/** The session logs written under `home` for `cwd`, oldest first. */
export function sessionFiles(home: string, cwd: string): string[] {
  const base = join(home, 'sessions')
  return readdirSync(base).flatMap(dir => readdirSync(join(base, dir)).map(session => join(base, dir, session, 'session.jsonl.zstd')))
    .filter(file => existsSync(file))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    // The first line is the session header, which names the working directory.
    .filter(file => (linesOf(file)[0] as { cwd?: string } | undefined)?.cwd === cwd)
}

function linesOf(file: string): StoredEvent[] {
  return decodeFrames(readFileSync(file)).split('\n').filter(line => line !== '').map(line => JSON.parse(line) as StoredEvent)
}

/** Decompress concatenated zstd frames; Node's one-shot decompressor stops after the first and says how far it read. */
function decodeFrames(buffer: Buffer): string {
  let text = ''
  for (let offset = 0; offset < buffer.length;) {
    const { buffer: frame, engine } = zstdDecompressSync(buffer.subarray(offset), { info: true }) as unknown as {
      buffer: Buffer
      engine: { bytesWritten: number }
    }
    if (engine.bytesWritten <= 0) throw new Error('zstd: no progress decoding the session log')
    text += frame.toString('utf8')
    offset += engine.bytesWritten
  }
  return text
}

/** The brake's notices in a session log: summary and text. */
export function storedNotices(events: readonly StoredEvent[]): { summary: string; text: string }[] {
  return events.filter(event => event.type === 'user/message')
    .map(event => event.data as { source: { plugin?: string; summary?: string }; content: { text?: string }[] })
    .filter(message => message.source.plugin === 'dsh-brake')
    .map(message => ({ summary: message.source.summary ?? '', text: message.content.map(part => part.text ?? '').join('') }))
}

/** The brake's notices in the model's requests, by the request they first appear in (1-based), deduplicated. */
export function noticesSent(server: ModelServer): { request: number; text: string }[] {
  const seen = new Set<string>()
  const out: { request: number; text: string }[] = []
  server.requests.forEach((request, index) => {
    for (const message of request.messages) {
      const text = textOf(message)
      if (message.role === 'user' && text.startsWith('[dsh-brake]') && !seen.has(text)) {
        seen.add(text)
        out.push({ request: index + 1, text })
      }
    }
  })
  return out
}

/** What `dsh-brake analyze` says of one scenario's session: its loops, and the brake's actions as `kind@call`. */
export interface Analyzed {
  /** Each loop's kind, first call, calls and period (null for a kind that has none). */
  readonly loops: [kind: string, firstCall: number, calls: number, period: number | null][]
  /** Each loop's tokens: all of it, wasted from its first repeat, and saved after the first notice under the patch. */
  readonly costs: [tokens: number, wasted: number, saved: number | null][]
  /** Where the replay under the scenario's patch puts each notice, refusal and stop. */
  readonly replayed: string[]
  /** Where the session log says the live run gave them. */
  readonly said: string[]
}

/** Run the built `dsh-brake analyze --json` on the one session log left in `cwd`'s name, with `patch` as its config. */
export function analyze(home: string, cwd: string, patch: string): Analyzed {
  const files = sessionFiles(home, cwd)
  expect(files).toHaveLength(1)
  writeFileSync(join(cwd, 'brake-patch.yml'), patch)
  const out = execFileSync(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js'), 'analyze', '--json', '--config', 'brake-patch.yml', files[0]!], { cwd })
  type Action = { kind: string; call: number }
  type Tokens = { total: number }
  type Loop = { kind: string; firstCall: number; calls: number; period: number | null; tokens: Tokens; wasted: Tokens }
  const report = JSON.parse(out.toString()) as {
    loops: (Loop & { saved: Record<string, { afterNotice: Tokens | null }> })[]
    sessions: { agents: { actionsByConfig: Record<string, Action[]>; said: Action[] }[] }[]
  }
  const where = (actions: Action[]): string[] => actions.map(action => `${action.kind}@${action.call}`)
  // A quiet session (no loop, nothing the brake would do or did) is only counted.
  const agent = report.sessions[0]?.agents[0] ?? { actionsByConfig: { 'brake-patch.yml': [] }, said: [] }
  return {
    loops: report.loops.map(loop => [loop.kind, loop.firstCall, loop.calls, loop.period]),
    costs: report.loops.map(loop => [loop.tokens.total, loop.wasted.total, loop.saved['brake-patch.yml']?.afterNotice?.total ?? null]),
    replayed: where(agent.actionsByConfig['brake-patch.yml']!),
    said: where(agent.said),
  }
}
