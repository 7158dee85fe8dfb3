/**
 * Responses that repeat themselves, through the real `dsh` CLI (headless profile, DSH's DeepSeek provider, the stock
 * repeat-tool-reminder beside the brake) against a scripted model server that streams slowly, as a provider does: a
 * reasoning passage repeated 400 times before a tool call, a final answer whose last sentence repeats 300 times, one
 * token repeated 5,000 times, a diagram's row repeating inside a code fence, and line breaks one a token after an
 * answer. Each is cut early, seen at the server as the client closing the request long before its end; the turn goes
 * on as designed; the session log on disk shows the brake's finish and the notice. Real work that only looks
 * repetitive (the corpus traps) streams whole.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { RUNAWAYS } from '../loop/corpus/real-texts.ts'
import { RESPONSES, tokens } from '../loop/corpus/responses.ts'
import { cleanUp, dsh, freshHome, sessionEvents, sessionFiles, storedNotices, workspace, writeUserPatch, type Run, type StoredEvent } from './dsh-cli.ts'
import { startModelServer, textOf, type Answer, type ModelServer } from './model-server.ts'

let home: string

beforeAll(async () => {
  home = freshHome()
  const added = await dsh(['plugin', '--profile', 'headless', 'add', PACKAGE_ROOT], { home, cwd: home })
  expect(added.code, added.stderr).toBe(0)
})

afterAll(() => {
  cleanUp()
})

interface Played {
  readonly run: Run
  readonly server: ModelServer
  readonly events: StoredEvent[]
  readonly cwd: string
}

async function play(script: Answer[], patch = '[]\n', files: Record<string, string> = { 'notes.txt': 'the answer is 42\n' }): Promise<Played> {
  writeUserPatch(home, patch)
  const cwd = workspace(files)
  const server = await startModelServer(script)
  const run = await dsh(['--profile', 'headless', 'Read the notes.'], { home, cwd, baseUrl: server.url })
  await server.close()
  return { run, server, events: sessionEvents(home, cwd), cwd }
}

const entry = (name: string): (typeof RESPONSES)[number] => RESPONSES.find(response => response.name === name)!

/** The finish of each response in the session log on disk. */
function finishes(events: readonly StoredEvent[]): string[] {
  return events.filter(event => event.type === 'assistant/chunk')
    .map(event => (event.data?.['chunk'] as { type: string; reason?: { kind: string } }))
    .filter(chunk => chunk.type === 'finish').map(chunk => chunk.reason!.kind)
}

/** The assistant messages in the session log on disk: the text of each in `part`. */
function assistantTexts(events: readonly StoredEvent[], part: 'text' | 'reasoning'): string[] {
  return events.filter(event => event.type === 'assistant/message')
    .map(event => (event.data?.['message'] as { content: { type: string; text?: string }[] }).content)
    .map(content => content.filter(block => block.type === part).map(block => block.text ?? '').join(''))
}

/** The turns' end reasons, in order. */
function turnEnds(events: readonly StoredEvent[]): string[] {
  return events.filter(event => event.type === 'turn/end').map(event => (event.data?.['reason'] as { kind: string }).kind)
}

describe('a response that repeats itself, on the real CLI', () => {
  it('a reasoning passage repeated 400 times before a tool call: cut, then the call is made at the next step', async () => {
    const loop = entry('a reasoning passage repeated 400 times')
    const { run, server, events } = await play([
      { reasoning: [...tokens(loop.text)], calls: [{ name: 'read', args: { file_path: 'notes.txt' } }] },
      { calls: [{ name: 'read', args: { file_path: 'notes.txt' } }] },
      { text: 'The answer is 42.' },
    ])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe('The answer is 42.')
    const [cut, ...rest] = server.streams
    expect(cut!.closedEarly).toBe(true)
    // The client closed the request before the server had written the answer (the server writes ahead of what the
    // client has read, by as much as the machine's load allows: how far ahead is not the brake's to bound).
    expect(cut!.written).toBeLessThan(cut!.total)
    expect(rest.map(stream => stream.closedEarly)).toEqual([false, false])
    // The cut response kept its start, and a bounded part of the repetition (20 copies of its 90 characters, and at
    // most a look's 256 and a unit more); it never asked for the call.
    const [kept] = assistantTexts(events, 'reasoning')
    expect(loop.text.startsWith(kept!)).toBe(true)
    expect(kept!.length).toBeLessThan(loop.loop!.from + 20 * 90 + 256 + 2 * 90)
    expect(events.filter(event => event.type === 'tool/call')).toHaveLength(1)
    expect(finishes(events)).toEqual(['dsh-brake/cut', 'tool-calls', 'stop'])
    // The model read the notice at its next request.
    expect(storedNotices(events).map(n => n.summary)).toEqual([expect.stringMatching(/^stopped this response, which kept repeating itself: I'll kill the stale process now\. Then I.* × \d+$/) as string])
    expect(server.requests[1]!.messages.filter(message => message.role === 'user').map(textOf).at(-1)).toContain('In your reasoning, this came')
    expect(turnEnds(events)).toEqual(['completed'])
  })

  it('a final answer whose last sentence repeats 300 times: cut, and the turn goes on to a short answer', async () => {
    const loop = entry('an answer whose last sentence repeats 300 times')
    const { run, server, events } = await play([{ text: [...tokens(loop.text)] }, { text: 'The migration is done.' }])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe('The migration is done.')
    expect(server.streams[0]).toMatchObject({ closedEarly: true })
    expect(server.streams[0]!.written).toBeLessThan(server.streams[0]!.total)
    expect(server.requests).toHaveLength(2)
    expect(textOf(server.requests[1]!.messages.at(-1)!)).toContain('In your answer, this came')
    expect(finishes(events)).toEqual(['dsh-brake/cut', 'stop'])
    expect(turnEnds(events)).toEqual(['completed'])
  })

  it('one token repeated 5,000 times: cut within 1,000 characters; `analyze` finds the cut in the log', async () => {
    const loop = entry('one token repeated 5,000 times')
    const { run, server, events, cwd } = await play([{ text: [...tokens(loop.text)] }, { text: 'Sorry: the court ruled for the plaintiff.' }])
    expect(run.code, run.stderr).toBe(0)
    expect(server.streams[0]).toMatchObject({ closedEarly: true })
    expect(server.streams[0]!.written).toBeLessThan(server.streams[0]!.total)
    const [kept] = assistantTexts(events, 'text')
    // 256 characters of it, and at most a look's 256 more.
    expect(kept!.length).toBeLessThan(loop.loop!.from + 256 + 256 + 'court '.length)
    expect(storedNotices(events).map(n => n.summary)).toEqual([expect.stringMatching(/^stopped this response, which kept repeating itself: court × \d+$/) as string])
    // The log as the CLI wrote it (deltas packed into storage rows) reads back with the cut, where the brake made it.
    const out = execFileSync(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js'), 'analyze', '--json', sessionFiles(home, cwd)[0]!], { cwd })
    type Agent = { cutInSession: unknown[]; cuts: Record<string, { at: number; cutInSession: boolean }[]> }
    const agent = (JSON.parse(out.toString()) as { sessions: { agents: Agent[] }[] }).sessions[0]?.agents[0]
    expect(agent!.cutInSession).toEqual([expect.objectContaining({ response: 1, callsBefore: 0, part: 'text' })])
    expect(agent!.cuts['defaults']).toEqual([expect.objectContaining({ part: 'text', unit: 'court ', cutInSession: true })])
    // Within the last delta the live run passed on (the look falls inside it).
    expect(agent!.cuts['defaults']![0]!.at).toBeLessThanOrEqual(kept!.length)
    expect(agent!.cuts['defaults']![0]!.at).toBeGreaterThan(kept!.length - 'court '.length)
  })

  it('a diagram\'s row repeating inside a code fence: cut after some hundred rows, where a table\'s rows were never cut', async () => {
    const loop = RUNAWAYS.find(runaway => runaway.name.startsWith('a diagram row in a code fence'))!
    const { run, server, events, cwd } = await play([{ text: [...tokens(loop.text)] }, { text: 'The diagram ends at the handlers.' }])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe('The diagram ends at the handlers.')
    expect(server.streams[0]).toMatchObject({ closedEarly: true })
    expect(server.streams[0]!.written).toBeLessThan(server.streams[0]!.total)
    // Kept: the diagram up to its box, and the row from its 100th copy to the look after it (a look every 64 rows).
    const [kept] = assistantTexts(events, 'text')
    expect(loop.text.startsWith(kept!)).toBe(true)
    expect(kept!.length).toBeGreaterThan(loop.loop!.from + 100 * 22)
    expect(kept!.length).toBeLessThanOrEqual(loop.loop!.from + loop.loop!.within! + 8)
    expect(finishes(events)).toEqual(['dsh-brake/cut', 'stop'])
    expect(storedNotices(events).map(n => n.summary)).toEqual([expect.stringMatching(/^stopped this response, which kept repeating itself: \| \| × 1\d\d$/) as string])
    expect(textOf(server.requests[1]!.messages.at(-1)!)).toContain('In your answer, this came')
    expect(turnEnds(events)).toEqual(['completed'])
    const out = execFileSync(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js'), 'analyze', '--json', sessionFiles(home, cwd)[0]!], { cwd })
    type Agent = { cuts: Record<string, { unit: string; cutInSession: boolean }[]> }
    const agent = (JSON.parse(out.toString()) as { sessions: { agents: Agent[] }[] }).sessions[0]?.agents[0]
    expect(agent!.cuts['defaults']).toEqual([expect.objectContaining({ unit: '  |                  |\n', cutInSession: true })])
  })

  it('line breaks, one a token, after the answer: cut at the 800th, and the turn completes', async () => {
    const loop = RUNAWAYS.find(runaway => runaway.name.startsWith('line breaks, one a token'))!
    const answer = loop.text.slice(0, loop.loop!.from)
    const { run, server, events } = await play([{ text: [...tokens(answer), ...Array.from({ length: 15_000 }, () => '\n')] }, { text: 'Done: the summary is above.' }])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe('Done: the summary is above.')
    expect(server.streams[0]).toMatchObject({ closedEarly: true })
    expect(server.streams[0]!.written).toBeLessThan(server.streams[0]!.total)
    // The answer whole (its last line break the run's first), and the line breaks up to the run's 800th.
    const [kept] = assistantTexts(events, 'text')
    expect(kept).toBe(answer + '\n'.repeat(799))
    expect(finishes(events)).toEqual(['dsh-brake/cut', 'stop'])
    expect(storedNotices(events).map(n => n.summary)).toEqual([expect.stringMatching(/^stopped this response, which kept repeating itself: .*× 800$/) as string])
    expect(turnEnds(events)).toEqual(['completed'])
  })

  it('in stop mode, a second cut in the turn ends it, with the reason', async () => {
    const loop = entry('one token repeated 5,000 times')
    const { run, server, events } = await play([{ text: [...tokens(loop.text)] }, { text: [...tokens(loop.text)] }, { text: 'never sent' }], '- id: dsh-brake\n  config:\n    mode: stop\n')
    expect(server.requests).toHaveLength(2)
    expect(server.streams.map(stream => stream.closedEarly)).toEqual([true, true])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/dsh-brake stopped the turn: .*2 responses in this turn fell into repeating themselves and were cut, the last one repeating court/)
    expect(turnEnds(events)).toEqual(['aborted'])
  })
})

describe('what is not a loop streams whole, on the real CLI', () => {
  it('every trap of the corpus, each streamed before a tool call; a quote of a tool\'s output after the call that returned it', async () => {
    const traps = RESPONSES.filter(response => response.kind === 'trap')
    // Each call prints the next trap's source: what a quoting trap quotes is in the conversation before it streams.
    const files: Record<string, string> = { [`part-${traps.length}.txt`]: 'done\n' }
    for (const [i, trap] of traps.entries()) files[`part-${i}.txt`] = trap.request ?? `part ${i}\n`
    const print = (i: number): { name: string; args: unknown } =>
      ({ name: 'bash', args: { command: `cat part-${i}.txt`, description: `Print part ${i}` } })
    const script: Answer[] = [
      { calls: [print(0)] },
      ...traps.map((trap, i) => ({ [trap.part]: [...tokens(trap.text)], calls: [print(i + 1)] })),
    ]
    const { run, server, events } = await play([...script, { text: 'All parts read.' }], '[]\n', files)
    expect(run.code, run.stderr).toBe(0)
    expect(server.streams.map(stream => stream.closedEarly)).toEqual(script.map(() => false).concat(false))
    expect(finishes(events)).not.toContain('dsh-brake/cut')
    expect(traps.map(trap => trap.part === 'text' ? trap.text : '')).toEqual(assistantTexts(events, 'text').slice(1, traps.length + 1))
    expect(storedNotices(events)).toEqual([])
  })
})
