/**
 * The analysis over several logs: a subagent's log grouped under the session that delegated to it, loop costs from
 * usage records or estimated from text, and the progress line that shows only on a terminal.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { analyzeSessions } from '../../../src/analyze/analyze-sessions.ts'
import { createProgressLine } from '../../../src/analyze/progress-line.ts'
import { brakeNotice, header, SessionScript, writeLog, type ScriptedCall } from '../../support/session-logs.ts'

const home = mkdtempSync(join(tmpdir(), 'dsh-brake-sessions-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** `count` identical reads, one per step, with `usage` per step (null: the log has none). */
function reads(script: SessionScript, count: number, usage: { inputTokens: number; outputTokens: number } | null): SessionScript {
  const read: ScriptedCall = { name: 'read', args: { file_path: 'notes.txt' }, result: 'x'.repeat(400) }
  for (let call = 1; call <= count; call++) {
    if (call > 1) script.openStep()
    script.respond([read], usage)
  }
  return script
}

describe('sessions and subagents', () => {
  it('groups a subagent under its parent session, named by its own id, and prices a loop from the usage records', async () => {
    const parent = writeLog(home, 'session-parent', reads(new SessionScript(header('session-parent')).prompt('go'), 1, { inputTokens: 100, outputTokens: 10 }).bytes())
    const child = writeLog(home, 'session-child', reads(new SessionScript(header('session-child', 'session-parent')).prompt('task'), 5, { inputTokens: 300, outputTokens: 20 }).bytes())
    const analysis = await analyzeSessions([child, parent], [{ name: 'defaults', config: {} }])
    expect(analysis.agents.map(agent => [agent.session, agent.agent])).toEqual([['session-parent', 'main'], ['session-parent', 'session-child']])
    expect(analysis.agents[1]!.loops).toEqual([expect.objectContaining({
      session: 'session-parent', agent: 'session-child', kind: 'repeated-call', firstCall: 1, calls: 5,
      tokens: { input: 1500, output: 100, total: 1600, estimated: false },
    })])
  })

  it('estimates a loop\'s tokens from its text where the log has no usage, and says so', async () => {
    const file = writeLog(home, 'session-bare', reads(new SessionScript(header('session-bare')).prompt('go'), 4, null).bytes())
    const [agent] = (await analyzeSessions([file], [{ name: 'defaults', config: {} }])).agents
    // Each call: 400 characters of result (100 tokens in) and 25 of arguments (7 tokens out, rounded up).
    expect(agent!.loops[0]!.tokens).toEqual({ input: 400, output: 28, total: 428, estimated: true })
  })
})

describe('which action acts on a loop', () => {
  /** Four identical reads (calls 1 to 4, a loop), then `others` other reads; the brake said `notice` after call `at`. */
  function noticedLate(at: number, others: number): SessionScript {
    const script = reads(new SessionScript(header(`session-late-${at}`)).prompt('go'), 4, null)
    const notice = brakeNotice('read × 4, same result')
    for (let call = 5; call < 5 + others; call++) {
      // The step after the notice's call claims it, as DSH's loop does.
      script.openStep(call === at + 1 ? [notice] : [])
        .respond([{ name: 'read', args: { file_path: `other-${call}.txt` }, result: `other ${call}`, ...call === at ? { notice } : {} }], null)
    }
    return script
  }

  it('credits a loop with an action up to two calls after its last, as the evaluation scores it', async () => {
    const file = writeLog(home, 'session-late-6', noticedLate(6, 4).bytes())
    const [agent] = (await analyzeSessions([file], [{ name: 'defaults', config: {} }])).agents
    expect(agent!.loops.map(loop => [loop.firstCall, loop.lastCall, loop.firstSaid])).toEqual([[1, 4, { kind: 'notice', call: 6, text: 'read × 4, same result' }]])
  })

  it('does not credit it with an action further on', async () => {
    const file = writeLog(home, 'session-late-7', noticedLate(7, 4).bytes())
    const [agent] = (await analyzeSessions([file], [{ name: 'defaults', config: {} }])).agents
    expect(agent!.loops.map(loop => [loop.firstCall, loop.lastCall, loop.firstSaid])).toEqual([[1, 4, null]])
  })
})

describe('the progress line', () => {
  it('is drawn and rewritten on a terminal, then erased', () => {
    const written: string[] = []
    const progress = createProgressLine({ isTTY: true, write: text => written.push(text) }, 4)
    progress.update(2)
    progress.end()
    expect(written).toEqual([
      '\r\u001B[2Kdsh-brake: reading session logs [                        ] 0/4',
      '\r\u001B[2Kdsh-brake: reading session logs [############            ] 2/4',
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
