/**
 * dsh-brake through the real `dsh` CLI, the way a user walks it: `dsh plugin --profile headless add <checkout>` (and
 * `add <tarball>`), the bundle row in `--dump-config`, user config in the profile's `cordis.patch.yml`, then
 * `dsh --profile headless "<task>"` against a scripted model server. Stock headless tools execute for real in a
 * temporary workspace; the stock repeat-tool-reminder runs alongside, as in every stock profile. Each scenario checks
 * the notices and refusals that reached the model's requests, and what the session log on disk holds.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../support/dsh.ts'
import { dsh, freshHome, sessionEvents, storedNotices, workspace, writeUserPatch, type Run } from './cli.ts'
import { startModelServer, textOf, type Answer, type ModelServer, type WireMessage } from './model-server.ts'

const call = (name: string, args: unknown): Answer => ({ calls: [{ name, args }] })
const repeat = (n: number, answer: Answer): Answer[] => Array.from({ length: n }, () => answer)

/** The brake's notices in the model's requests, by the request they first appear in (1-based), deduplicated. */
function noticesSent(server: ModelServer): { request: number; text: string }[] {
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

/** The tool results the model was sent in the last request, in order. */
function toolResults(server: ModelServer): string[] {
  const last = server.requests.at(-1)
  return (last?.messages ?? []).filter((message: WireMessage) => message.role === 'tool').map(textOf)
}

let linkHome: string
let server: ModelServer | undefined

/** Play `script` in a fresh workspace with `files`, under `config` (the profile patch), and return the run. */
async function play(home: string, script: Answer[], config: string, files: Record<string, string> = {}): Promise<{ run: Run; server: ModelServer; cwd: string }> {
  writeUserPatch(home, config)
  const cwd = workspace(files)
  server = await startModelServer([...script, { text: 'done' }])
  const run = await dsh(['--profile', 'headless', 'Fix the failing check.'], { home, cwd, baseUrl: server.url })
  await server.close()
  return { run, server, cwd }
}

beforeAll(async () => {
  linkHome = freshHome()
  const added = await dsh(['plugin', '--profile', 'headless', 'add', PACKAGE_ROOT], { home: linkHome, cwd: linkHome })
  expect(added.code, added.stderr).toBe(0)
})

afterAll(async () => {
  await server?.close().catch(() => undefined)
})

describe('installing into a profile', () => {
  it('`dsh plugin add <checkout>` links it and puts the bundle row in the composed profile', async () => {
    const dump = await dsh(['--profile', 'headless', '--dump-config'], { home: linkHome, cwd: linkHome })
    expect(dump.code, dump.stderr).toBe(0)
    expect(dump.stdout).toMatch(/# == dsh-brake\n(?:.*\n)*?\s*- id: dsh-brake\n\s+name: dsh-brake/)
  })
})

describe('scenarios on the stock headless tools', () => {
  it('an identical-call loop: the sixth read carries the notice, beside repeat-tool-reminder\'s own', async () => {
    const { run, server: model, cwd } = await play(linkHome, repeat(7, call('read', { file_path: 'notes.txt' })), '[]\n', { 'notes.txt': 'the answer is 42\n' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe('done')
    const sent = noticesSent(model)
    expect(sent.map(n => [n.request, n.text.split('\n')[0]])).toEqual([
      [7, '[dsh-brake] You have called `read` with these exact arguments 6 times and got the same result each time:'],
    ])
    const stored = sessionEvents(linkHome, cwd)
    expect(storedNotices(stored).map(n => n.summary)).toEqual(['read × 6, same result'])
    const reminders = stored.filter(e => e.type === 'user/message' && (e.data?.['source'] as { plugin?: string }).plugin === 'repeat-tool-reminder')
    expect(reminders.map(e => (e.data?.['source'] as { summary: string }).summary)).toEqual(['read × 3', 'read × 5'])
  })
})
