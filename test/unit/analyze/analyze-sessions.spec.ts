/**
 * The analysis over several logs, on logs written as DSH writes them: each loop's kind read from its calls (not from
 * the first part of the rule that fired), what it cost, wasted and what the brake would save; whether the model heard the live
 * notices; subagents under their session; the overview; quiet sessions counted and listed on request; and the
 * progress line that shows only on a terminal.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Loop } from '../../../src/analyze/analysis.ts'
import { analyzeSessions } from '../../../src/analyze/analyze-sessions.ts'
import { createProgressLine } from '../../../src/analyze/progress-line.ts'
import { htmlReport } from '../../../src/analyze/report-html.ts'
import { textReport } from '../../../src/analyze/report-text.ts'
import { brakeNotice, header, message, SessionScript, writeLog, type ScriptedCall } from '../../support/session-logs.ts'

const home = mkdtempSync(join(tmpdir(), 'dsh-brake-sessions-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

type Usage = { inputTokens: number; outputTokens: number } | null
const USAGE = { inputTokens: 1000, outputTokens: 20 }
const DEFAULTS = [{ name: 'defaults', config: {} }]

/** Each of `calls` in a step of its own, with `usage` per step (null: the log has none). */
function steps(script: SessionScript, calls: readonly ScriptedCall[], usage: Usage = USAGE): SessionScript {
  calls.forEach((call, index) => {
    if (index > 0) script.openStep()
    script.respond([call], usage)
  })
  return script
}

const read = (file: string, result = `contents of ${file}`): ScriptedCall => ({ name: 'read', args: { file_path: file }, result })
const times = <T>(count: number, item: T): T[] => Array.from({ length: count }, () => item)

let logs = 0
/** The analysis of one session: `calls`, one a step, after a prompt. */
async function one(calls: readonly ScriptedCall[], usage: Usage = USAGE, setups = DEFAULTS) {
  const id = `session-${++logs}`
  const file = writeLog(home, id, steps(new SessionScript(header(id)).prompt('go'), calls, usage).end().bytes())
  return analyzeSessions([file], setups)
}

async function loopsOf(calls: readonly ScriptedCall[], usage: Usage = USAGE): Promise<Loop[]> {
  return (await one(calls, usage)).sessions.flatMap(session => session.agents.flatMap(agent => agent.loops))
}

describe('a loop\'s kind is read from its calls', () => {
  it('a cycle of 4 with one call twice in the lap is a cycle of 4, not identical calls', async () => {
    const lap = [read('src/app.ts'), { name: 'grep', args: { pattern: 'port' }, result: 'app.ts:3' }, read('src/app.ts'), { name: 'bash', args: { command: 'make' }, result: 'error' }]
    const [loop] = await loopsOf(times(4, lap).flat())
    expect(loop).toMatchObject({ kind: 'cycle', period: 4, what: 'read src/app.ts → grep port → read src/app.ts → bash make', firstCall: 1, begins: 3, lastCall: 16 })
    expect(loop!.foundBy).toEqual(['identical-calls', 'cycle'])
  })

  it('a viewing lap of 7 gone over again is same ground with a lap of 7, in order or not', async () => {
    const windows = Array.from({ length: 7 }, (_, i) => ({ name: 'read', args: { file_path: 'big.py', offset: i * 50 }, result: `window ${i}` }))
    const [inOrder] = await loopsOf([...windows, ...windows, ...windows])
    expect(inOrder).toMatchObject({ kind: 'same-ground', period: 7, begins: 8 })
    const [shuffled] = await loopsOf([...windows, ...[3, 0, 6, 1, 5, 2, 4].map(i => windows[i]!)])
    expect(shuffled).toMatchObject({ kind: 'same-ground', period: 7, foundBy: ['same-ground'] })
  })

  it('the same call again is identical calls', async () => {
    const [loop] = await loopsOf(times(5, read('notes.txt')))
    expect(loop).toMatchObject({ kind: 'identical-calls', period: 1, what: 'read notes.txt', firstCall: 1, begins: 2, lastCall: 5 })
  })

  it('one tool failing the same way across arguments is the same error', async () => {
    const failing = (path: string): ScriptedCall => ({ name: 'grep', args: { pattern: 'x', path }, result: 'Error: the search index is not built', isError: true })
    const [loop] = await loopsOf([failing('a'), failing('b'), failing('c'), failing('d')])
    expect(loop).toMatchObject({ kind: 'same-error', foundBy: ['same-error'], what: 'grep: Error: the search index is not built', firstCall: 1, begins: 2, lastCall: 4 })
  })

  it('the same context text claimed step after step is duplicate text', async () => {
    const hook = (): ReturnType<typeof message> => message('Stop hook: the task is not finished until the linter and the full test suite pass. Keep working.', { kind: 'plugin', plugin: 'hooks' })
    const id = `session-${++logs}`
    const script = new SessionScript(header(id)).prompt('go')
    for (let call = 1; call <= 4; call++) {
      if (call > 1) script.openStep([hook()])
      script.respond([read(`file-${call}.txt`)])
    }
    const analysis = await analyzeSessions([writeLog(home, id, script.end().bytes())], DEFAULTS)
    const [loop] = analysis.sessions[0]!.agents[0]!.loops
    expect(loop).toMatchObject({ kind: 'duplicate-text', foundBy: ['duplicate-text'], firstCall: 1, lastCall: 3, calls: 0, tokens: { total: 3 * 24, estimated: true }, wasted: { total: 2 * 24 } })
    // Both reports place it by the steps that claimed it, and count none of the reads between them as the loop's.
    const text = textReport(analysis)
    expect(text).toMatch(/loop 1: duplicate text \("Stop hook: .*"\), claimed after calls 1–3, found by duplicate-text\n/)
    expect(text).not.toMatch(/duplicate text .*\(\d+ calls?, from call/)
    const html = htmlReport(analysis)
    expect(html).toContain('claimed after calls 1–3</td>')
    // The timeline shades the calls of a loop; the reads between the text's copies are none.
    expect(html).toContain('<title>call 2: read</title>')
    expect(html).not.toContain('fill="#f28e2b"><title>call')
  })

  it('the same answer response after response is the same response', async () => {
    const id = `session-${++logs}`
    const answer = 'I cannot reach the registry from here, so the install cannot finish.'
    const script = new SessionScript(header(id)).prompt('go').respond([read('a.txt')])
    for (let i = 0; i < 3; i++) script.openStep().stream([{ part: 'text', deltas: [answer] }]).respond([], { inputTokens: 100, outputTokens: 30 })
    const analysis = await analyzeSessions([writeLog(home, id, script.end().bytes())], DEFAULTS)
    const [loop] = analysis.sessions[0]!.agents[0]!.loops
    expect(loop).toMatchObject({ kind: 'same-response', foundBy: ['same-response'], what: answer, tokens: { total: 90, estimated: false }, wasted: { total: 60 } })
  })
})

describe('what a loop cost, wasted, and what the brake would save', () => {
  it('prices a loop from the usage records: all of it, from its first repeat, after the first notice and after a stop', async () => {
    const setups = [{ name: 'remind', config: {} }, { name: 'stop', config: { mode: 'stop' } }]
    const [loop] = (await one(times(12, read('notes.txt')), USAGE, setups)).sessions[0]!.agents[0]!.loops
    const each = (calls: number) => ({ input: calls * 1000, output: calls * 20, total: calls * 1020, estimated: false })
    expect(loop!.tokens).toEqual(each(12))
    expect(loop!.wasted).toEqual(each(11))
    // Remind mode: a notice after the 4th call; stop mode: the notice, then the stop after the 9th.
    expect(loop!.firstAction).toEqual({ remind: expect.objectContaining({ kind: 'notice', call: 4 }) as unknown, stop: expect.objectContaining({ kind: 'notice', call: 4 }) as unknown })
    expect(loop!.saved).toEqual({ remind: { afterNotice: each(8), afterStop: null }, stop: { afterNotice: each(8), afterStop: each(3) } })
  })

  it('estimates it from the text where the log has no usage, and says so', async () => {
    const [loop] = await loopsOf(times(4, read('notes.txt', 'x'.repeat(400))), null)
    // Each call: 400 characters of result (100 tokens in) and 25 of arguments (7 tokens out, rounded up).
    expect(loop!.tokens).toEqual({ input: 400, output: 28, total: 428, estimated: true })
  })
})

describe('a session that never reached a model', () => {
  it('costs nothing: its prompt was never sent (a missing API key fails the request before it leaves)', async () => {
    const noKey = (id: string): string => writeLog(home, id, new SessionScript(header(id)).prompt('Fix the failing check.', [message('x'.repeat(400), { kind: 'plugin', plugin: 'runtime-context' })])
      .stream([], 'error').raw({ type: 'step/end', data: { turn: 1, step: 1 } })
      .raw({ type: 'turn/end', data: { turn: 1, reason: { kind: 'error', error: { message: 'no API key', code: 'MISSING_CREDENTIAL' } } } }).bytes())
    const answered = writeLog(home, 'session-answered', steps(new SessionScript(header('session-answered')).prompt('go'), [read('a.txt')]).end().bytes())
    const analysis = await analyzeSessions([noKey('session-nokey-1'), noKey('session-nokey-2'), answered], DEFAULTS)
    // The answered session's one step: 1000 in, 20 out. The two that never reached a model add nothing.
    expect(analysis.overview.sessions).toBe(3)
    expect(analysis.overview.tokens).toEqual({ input: 1000, output: 20, total: 1020, estimated: false })
  })
})

describe('a stop, as the session and the replay tell it', () => {
  it('is a stop, not a notice: the stop\'s closing notice is the stop\'s own, and the loop\'s first word said is the refusal', async () => {
    // Stop mode beside the reminder, as a real run goes: no notice of the brake's own, the 11th read refused, the turn
    // stopped, its last step claiming the stop notice.
    const id = 'session-stopped'
    const script = new SessionScript(header(id)).prompt('go')
    steps(script, times(10, read('notes.txt', 'same')))
    script.openStep().respond([{ ...read('notes.txt', 'Error: dsh-brake refused this call: `read` has already run 10 times with these exact arguments while nothing changed; another identical call will not give a different answer.'), isError: true }])
    script.openStep([brakeNotice('turn stopped in a loop (read × 11, same result); send a message to go on')])
    script.raw({ type: 'turn/end', data: { turn: 1, reason: { kind: 'aborted', reason: { kind: 'hook', reason: 'dsh-brake stopped the turn: a loop went on after its notice, with nothing changing. `read` was called 11 times.' } } } })
    const analysis = await analyzeSessions([writeLog(home, id, script.bytes())], [{ name: 'stop', config: { mode: 'stop' } }])
    const agent = analysis.sessions[0]!.agents[0]!
    expect(agent.said.map(action => `${action.kind}@${action.call}`)).toEqual(['refusal@11', 'stop@11'])
    expect(agent.loops[0]!.firstSaid).toEqual(expect.objectContaining({ kind: 'refusal', call: 11 }))
    expect(agent.actionsByConfig['stop']!.filter(action => action.kind === 'notice' && action.text.startsWith('turn stopped'))).toEqual([])
    expect(textReport(analysis)).not.toMatch(/said in the session: notice at call 11/)
  })
})

describe('which action acts on a loop, and whether the model heard it', () => {
  /** Four identical reads (calls 1 to 4, a loop), then `others` other reads; the brake said `notice` after call `at`. */
  async function noticedAt(at: number, others: number, loop = 4): Promise<Loop> {
    const id = `session-${++logs}`
    const script = steps(new SessionScript(header(id)).prompt('go'), times(loop, read('notes.txt')), null)
    const notice = brakeNotice('read × 4, same result')
    for (let call = loop + 1; call < loop + 1 + others; call++) {
      // The step after the notice's call claims it, as DSH's loop does.
      script.openStep(call === at + 1 ? [notice] : []).respond([{ ...read(`other-${call}.txt`), ...call === at ? { notice } : {} }], null)
    }
    const analysis = await analyzeSessions([writeLog(home, id, script.end().bytes())], DEFAULTS)
    return analysis.sessions[0]!.agents[0]!.loops[0]!
  }

  it('credits a loop with an action up to two calls after its last, as the evaluation scores it; not further on', async () => {
    expect((await noticedAt(6, 4)).firstSaid).toEqual({ kind: 'notice', call: 6, text: 'read × 4, same result' })
    expect((await noticedAt(7, 4)).firstSaid).toBeNull()
  })

  it('counts the calls a loop went on after the brake\'s first live notice on it', async () => {
    const id = `session-${++logs}`
    const notice = brakeNotice('read × 4, same result')
    const script = new SessionScript(header(id)).prompt('go')
    for (let call = 1; call <= 10; call++) {
      if (call > 1) script.openStep(call === 5 ? [notice] : [])
      script.respond([{ ...read('notes.txt'), ...call === 4 ? { notice } : {} }], null)
    }
    const heardLate = await analyzeSessions([writeLog(home, id, script.end().bytes())], DEFAULTS)
    expect(heardLate.sessions[0]!.agents[0]!.loops[0]!.callsAfterSaid).toBe(6)
    expect(heardLate.overview.heard).toEqual({ loops: 1, endedSoon: 0 })
  })
})

describe('sessions, subagents and the overview', () => {
  it('groups a subagent under its parent session, named by its own id', async () => {
    const parent = writeLog(home, 'session-parent', steps(new SessionScript(header('session-parent')).prompt('go'), [read('a.txt')]).bytes())
    const child = writeLog(home, 'session-child', steps(new SessionScript(header('session-child', 'session-parent')).prompt('task'), times(5, read('b.txt')), { inputTokens: 300, outputTokens: 20 }).bytes())
    const analysis = await analyzeSessions([child, parent], DEFAULTS)
    expect(analysis.sessions.map(session => [session.session, session.agentCount, session.agents.map(agent => agent.agent)])).toEqual([['session-parent', 2, ['session-child']]])
    expect(analysis.sessions[0]!.agents[0]!.loops).toEqual([expect.objectContaining({ session: 'session-parent', agent: 'session-child', kind: 'identical-calls', calls: 5 })])
    expect(analysis.quiet.count).toBe(0)
  })

  it('puts the costliest sessions first, counts the quiet ones and lists them on request, and adds it all up', async () => {
    const write = (id: string, calls: readonly ScriptedCall[]): string => writeLog(home, id, steps(new SessionScript(header(id)).prompt('go'), calls).end().bytes())
    const files = [
      write('session-small', times(4, read('a.txt'))),
      write('session-quiet', [read('a.txt'), read('b.txt')]),
      write('session-big', times(9, read('a.txt'))),
    ]
    const analysis = await analyzeSessions(files, DEFAULTS, { all: true })
    expect(analysis.sessions.map(session => session.session)).toEqual(['session-big', 'session-small'])
    expect(analysis.quiet).toEqual({ count: 1, sessions: [{ session: 'session-quiet', files: [files[1]], calls: 2, tokens: { input: 2000, output: 40, total: 2040, estimated: false } }] })
    const { overview } = analysis
    expect(overview).toMatchObject({ sessions: 3, agents: 3, calls: 15, sessionsWithLoops: 2, loops: { 'identical-calls': 2, 'cycle': 0 } })
    expect(overview.tokens.total).toBe(15 * 1020)
    expect(overview.wasted.total).toBe((8 + 3) * 1020)
    expect(overview.costliest.map(loop => loop.session)).toEqual(['session-big', 'session-small'])
    expect((await analyzeSessions(files, DEFAULTS)).quiet).toEqual({ count: 1, sessions: undefined })
  })

  it('opens the text report with the overview, then the sessions costliest first', async () => {
    const write = (id: string, count: number): string => writeLog(home, id, steps(new SessionScript(header(id)).prompt('go'), times(count, read('a.txt'))).end().bytes())
    const report = textReport(await analyzeSessions([write('session-t1', 5), write('session-t2', 8), write('session-t3', 1)], DEFAULTS))
    const lines = report.split('\n')
    expect(lines.slice(0, 3)).toEqual([
      'dsh-brake analyze: 3 sessions (3 agents, 14 calls); config: defaults',
      'loops: 2 in 2 sessions: 2 identical-calls',
      `tokens: ${14 * 1020} in all; ${13 * 1020} in loops (92.9 %); ${11 * 1020} wasted from their first repeat on (78.6 %)`,
    ])
    expect(report).toContain('quiet sessions (no loop, nothing the brake would do or did): 1 (--all lists them)')
    expect(report.indexOf('session session-t2 ·')).toBeLessThan(report.indexOf('session session-t1 ·'))
  })
})

describe('the progress line', () => {
  it('is drawn and rewritten on a terminal, with the logs left, then erased', () => {
    const written: string[] = []
    const progress = createProgressLine({ isTTY: true, write: text => written.push(text) }, 4)
    progress.update(2)
    progress.end()
    expect(written).toEqual([
      '\r\u001B[2Kdsh-brake: reading session logs [                        ] 0/4, 4 left',
      '\r\u001B[2Kdsh-brake: reading session logs [############            ] 2/4, 2 left',
      '\r\u001B[2K',
    ])
  })

  it('is not drawn when stderr is not a terminal, nor for a single log', () => {
    const written: string[] = []
    for (const [isTTY, total] of [[false, 10], [true, 1]] as const) {
      const progress = createProgressLine({ isTTY, write: text => written.push(text) }, total)
      progress.update(1)
      progress.end()
    }
    expect(written).toEqual([])
  })
})
