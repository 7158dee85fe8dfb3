/**
 * Stop mode through the real `dsh` CLI (headless profile, stock tools, repeat-tool-reminder beside it), with a scripted
 * model that ignores every notice and refusal: each runaway ends within its bound, the reason shows in the headless
 * output and in the session log on disk, a poll whose output changes runs to its end, and a stopped subagent's reason
 * reaches its parent's tool result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repeat } from '../../scripts/dsh-loop.ts'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { analyze, cleanUp, dsh, freshHome, sessionEvents, storedNotices, workspace, writeUserPatch, type Run, type StoredEvent } from './dsh-cli.ts'
import { startModelServer, textOf, type Answer, type ModelServer } from './model-server.ts'

const STOP = '- id: dsh-brake\n  config:\n    mode: stop\n'
const call = (name: string, args: unknown): Answer => ({ calls: [{ name, args }] })

let home: string

beforeAll(async () => {
  home = freshHome()
  const added = await dsh(['plugin', '--profile', 'headless', 'add', PACKAGE_ROOT], { home, cwd: home })
  expect(added.code, added.stderr).toBe(0)
  writeUserPatch(home, STOP)
})

afterAll(() => {
  cleanUp()
})

/** What a play left: the CLI run, the model server's record, and the session log. */
interface Played {
  readonly run: Run
  readonly server: ModelServer
  readonly cwd: string
  readonly events: StoredEvent[]
}

/** Play `script` (then a closing `done`) in a fresh workspace with `files`. */
async function play(script: Answer[], files: Record<string, string> = {}): Promise<Played> {
  const cwd = workspace(files)
  const server = await startModelServer([...script, { text: 'done' }])
  const run = await dsh(['--profile', 'headless', 'Read the notes.'], { home, cwd, baseUrl: server.url })
  await server.close()
  return { run, server, cwd, events: sessionEvents(home, cwd) }
}

/** Tool results in the session log, in order. */
function toolResults(events: readonly StoredEvent[]): string[] {
  return events.filter(event => event.type === 'tool/result').map(event => textOf(
    { role: 'tool', content: (event.data?.['message'] as { content: { content: { type: string; text?: string }[] }[] }).content[0]!.content },
  ))
}

/** The hook reasons turns ended with, in the session log. */
function hookReasons(events: readonly StoredEvent[]): string[] {
  return events.filter(event => event.type === 'turn/end')
    .map(event => event.data?.['reason'] as { kind: string; reason?: { kind: string; reason: string } })
    .filter(reason => reason.kind === 'aborted' && reason.reason?.kind === 'hook')
    .map(reason => reason.reason!.reason)
}

describe('stop mode on the real CLI, with a model that ignores every notice and refusal', () => {
  it('40 identical reads end within 15 calls; the reason is printed and kept in the session log', async () => {
    const { run, server, cwd, events } = await play(repeat(40, call('read', { file_path: 'notes.txt' })), { 'notes.txt': 'the answer is 42\n' })
    const results = toolResults(events)
    expect(results.length).toBeLessThanOrEqual(15)
    expect(server.requests).toHaveLength(results.length)
    const [reason] = hookReasons(events)
    // The reminder speaks at 3, 5 and 8, so the brake gives no notice of its own: the first refusal, at 11, stops.
    expect(reason).toMatch(/^dsh-brake stopped the turn: .*`read` was called 11 times with the same arguments, the last of them refused/)
    // A headless run takes one prompt: the reason asks for no message it could not take.
    expect(reason).not.toMatch(/send a message/i)
    expect(run.stderr).toContain(reason)
    expect(run.code).toBe(1)
    // The turn's last step closed with the stop notice, which the transcript shows.
    expect(storedNotices(events).map(n => n.summary).at(-1)).toBe('turn stopped in a loop (read × 11, same result); send a message to go on')
    // `dsh-brake analyze` replays the log under the same config and stops where the live run stopped.
    const analyzed = analyze(home, cwd, STOP)
    // The stop notice is the stop's own: not a notice of its own.
    expect(analyzed.replayed).toEqual(['refusal@11', 'stop@11'])
    expect(analyzed.said).toEqual(analyzed.replayed)
  })

  it('a four-call cycle repeated 15 times ends within 40 calls', async () => {
    const files = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'd.txt': 'd\n' }
    const lap = Object.keys(files).map(file => call('read', { file_path: file }))
    const { run, cwd, events } = await play(repeat(15, lap).flat(), files)
    expect(toolResults(events).length).toBeLessThanOrEqual(40)
    const analyzed = analyze(home, cwd, STOP)
    expect(analyzed.replayed.at(-1)).toBe(`stop@${toolResults(events).length}`)
    expect(analyzed.said).toEqual(analyzed.replayed)
    const [reason] = hookReasons(events)
    expect(reason).toMatch(/The same 4 calls went round \d+ times \(\d+ calls\): read → read → read → read/)
    expect(run.stderr).toContain(reason)
    expect(run.code).toBe(1)
  })

  it('a poll whose output changes runs all 12 calls, and the run succeeds', async () => {
    const job = call('bash', { command: 'for i in $(seq 1 80); do echo "step $i"; sleep 0.2; done', description: 'Build', run_in_background: true })
    const poll = call('job_output', { job_id: 'bash-1', wait: true, timeout_ms: 500 })
    const { run, events } = await play([job, ...repeat(12, poll)])
    expect(run.code, run.stderr).toBe(0)
    expect(toolResults(events).slice(1)).toHaveLength(12)
    expect(hookReasons(events)).toEqual([])
    expect(run.stderr).not.toContain('dsh-brake')
  })

  it('a subagent stopped in a loop: its reason reaches the parent\'s tool result', async () => {
    const delegate = call('subagent', { description: 'Read the notes', prompt: 'Read notes.txt.', run_in_background: false })
    // The child reads until the brake stops it at the eleventh; the parent's next request gets the closing text.
    const { server, events } = await play([delegate, ...repeat(11, call('read', { file_path: 'notes.txt' }))], { 'notes.txt': 'the answer is 42\n' })
    const parentSaw = server.requests.at(-1)!.messages.filter(message => message.role === 'tool').map(textOf)
    expect(parentSaw.at(-1)).toMatch(/^Error: subagent run was cancelled\nThe subagent did not fail at the task: it was stopped in a loop\. dsh-brake stopped the turn: .*`read` was called 11 times/)
    expect(hookReasons(events)).toHaveLength(1)
  })
})
