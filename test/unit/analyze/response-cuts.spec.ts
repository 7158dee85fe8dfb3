/**
 * Responses that repeat themselves, as `dsh-brake analyze` reads them from a session log written as DSH writes it
 * (runs of deltas packed into storage rows): where the brake would cut each under a config and the output tokens past
 * that point, and the responses the brake cut in the session itself.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { analyzeSessions } from '../../../src/analyze/analyze-sessions.ts'
import { wouldCut } from '../../../src/analyze/response-cuts.ts'
import { htmlReport } from '../../../src/analyze/report-html.ts'
import { textReport } from '../../../src/analyze/report-text.ts'
import { RESPONSES, tokens } from '../../loop/corpus/responses.ts'
import { header, read, SessionScript, writeLog } from '../../support/session-logs.ts'

const home = mkdtempSync(join(tmpdir(), 'dsh-brake-cuts-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

const LOOP = RESPONSES.find(entry => entry.name === '"not called" in reasoning, a thousand times')!

let sessions = 0
/**
 * A session whose second step streams `blocks` before its call, with `usage`, ending with `finish`; the first step's
 * call returned `output`.
 */
async function analyzed(
  blocks: Parameters<SessionScript['stream']>[0], usage: { inputTokens: number; outputTokens: number } | null, finish = 'tool-calls', config = {},
  others: readonly { name: string; config: Record<string, unknown> }[] = [], output = 'one',
) {
  const id = `session-cuts-${++sessions}`
  const script = new SessionScript(header(id)).prompt('go').respond([read(output)]).openStep().stream(blocks, finish).respond([read('two')], usage).end()
  const analysis = await analyzeSessions([writeLog(home, id, script.bytes())], [{ name: 'defaults', config }, ...others])
  // A session with nothing to show (no loop, no cut) is only counted: its agent has no cut to list.
  const agent = analysis.sessions[0]?.agents[0] ?? { cuts: { defaults: [] }, cutInSession: [] }
  return { analysis, agent: agent as NonNullable<typeof analysis.sessions[0]>['agents'][0] }
}

describe('responses that repeat themselves, in a session log', () => {
  it('where the brake would cut one, and the output tokens it spent past that point, by their share of characters', async () => {
    const deltas = [...tokens(LOOP.text)]
    const { agent } = await analyzed([{ part: 'reasoning', deltas }], { inputTokens: 1000, outputTokens: 2000 })
    const [cut] = agent.cuts['defaults']!
    expect(agent.cuts['defaults']).toHaveLength(1)
    expect(cut).toMatchObject({ response: 2, callsBefore: 1, part: 'reasoning', unit: 'not called, ', estimated: false, cutInSession: false })
    // Cut soon after the repetition began: at most a look and a unit past its 20 copies over 256 characters.
    expect(cut!.at - LOOP.loop!.from).toBeGreaterThanOrEqual(256 - 12)
    expect(cut!.at - LOOP.loop!.from).toBeLessThanOrEqual(256 + 256 + 12)
    expect(cut!.tokensAfter).toBe(Math.round(2000 * (LOOP.text.length - cut!.at) / LOOP.text.length))
    expect(agent.cutInSession).toEqual([])
  })

  it('estimates the tokens from the characters where the log has no usage, and counts blocks that came before', async () => {
    const before = { part: 'reasoning' as const, deltas: ['Thinking about it first.'] }
    const { agent } = await analyzed([before, { part: 'text', deltas: [...tokens(LOOP.text)] }], null)
    const [cut] = agent.cuts['defaults']!
    expect(cut).toMatchObject({ part: 'text', estimated: true })
    expect(cut!.tokensAfter).toBe(Math.ceil((before.deltas[0]!.length + LOOP.text.length - cut!.at) / 4))
  })

  it('the responses the brake cut in the session, by their finish', async () => {
    const kept = LOOP.text.slice(0, LOOP.loop!.from + 600)
    const { agent, analysis } = await analyzed([{ part: 'reasoning', deltas: [...tokens(kept)] }], null, 'dsh-brake/cut')
    const at = kept.length.toLocaleString('en-US')
    expect(agent.cutInSession).toEqual([{ response: 2, callsBefore: 1, at: kept.length, part: 'reasoning' }])
    expect(agent.cuts['defaults']).toEqual([expect.objectContaining({ response: 2, cutInSession: true })])
    // Said once, in words that fit a response: where it sits, what it cost, and where the brake cut it.
    const [loop] = agent.loops
    expect(loop).toMatchObject({
      kind: 'runaway', response: 2, firstCall: 1, calls: 0, callsAfterSaid: null,
      firstSaid: { kind: 'cut', call: 1, text: `cut at ${at} characters, in its reasoning` },
    })
    const text = textReport(analysis)
    expect(text).toMatch(/ {4}loop 1: a response repeated itself \("not called,"\), response 2, after call 1; cost ~\d+ tokens, ~\d+ wasted\n/)
    expect(text).toContain(`\n      cut in the session at ${at} characters, in its reasoning · defaults: cuts it too\n`)
    for (const gone of ['first brake action', 'from call', 'after its stop)', 'repeats itself', 'after call 0', 'the brake does nothing here']) expect(text).not.toContain(gone)
    const page = htmlReport(analysis)
    expect(page).toContain('<td>response 2, after call 1</td>')
    expect(page).toContain(`<td>cut in the session at ${at} characters, in its reasoning</td>`)
    expect(page).not.toContain('another response repeating itself')
    // The timeline marks the cut on the config's row and on the session's, after call 1: neither row is empty.
    const rows = page.split(/<text x="0" y="\d+">/).slice(2)
    expect(rows).toHaveLength(2)
    for (const row of rows) expect(row).toMatch(/<polygon points="170,\d+ [^"]*" fill="#8e44ad"><title>response 2, after call 1: cut at [\d,]+ characters, in its reasoning<\/title>/)
  })

  it('a response a config would cut, said once, with what its cut saves and no stop where there is none', async () => {
    const { agent, analysis } = await analyzed([{ part: 'text', deltas: [...tokens(LOOP.text)] }], null, 'tool-calls', {}, [{ name: 'off.yml', config: { streamCut: false } }])
    const [cut] = agent.cuts['defaults']!
    const text = textReport(analysis)
    expect(text).toContain(`\n      defaults: cut at ${cut!.at.toLocaleString('en-US')} characters, in its answer, ~${cut!.tokensAfter} output tokens saved · off.yml: not cut · not cut in the session\n`)
    for (const gone of ['first brake action', 'after its stop)', 'repeats itself']) expect(text).not.toContain(gone)
    expect(agent.loops[0]!.firstAction).toEqual({ defaults: { kind: 'cut', call: 1, text: `cut at ${cut!.at.toLocaleString('en-US')} characters, in its answer` }, 'off.yml': null })
  })

  it('finds nothing in real work that only looks repetitive, nor when the cut is off', async () => {
    // A trap that quotes a tool's output quotes the output of the call before it, as the session log holds it.
    for (const trap of RESPONSES.filter(entry => entry.kind === 'trap')) {
      const { agent } = await analyzed([{ part: trap.part, deltas: [...tokens(trap.text)] }], null, 'tool-calls', {}, [], trap.request)
      expect(agent.cuts['defaults'], trap.name).toEqual([])
    }
    const quote = RESPONSES.find(entry => entry.request !== undefined)!
    const { agent: unquoted } = await analyzed([{ part: quote.part, deltas: [...tokens(quote.text)] }], null)
    expect(unquoted.cuts['defaults']).toHaveLength(1)
    const { agent, analysis } = await analyzed([{ part: 'reasoning', deltas: [...tokens(LOOP.text)] }], null, 'tool-calls', { streamCut: false })
    expect(agent.cuts['defaults']).toEqual([])
    expect(textReport(analysis)).not.toContain('repeats itself')
  })

  it('cuts each log alike, whatever logs were watched before it, under the same config or another', () => {
    // Watch memory is kept from log to log, one for each shape of stream options: a wider window, and the defaults'.
    const wide = { streamCutChars: 8000, streamCutCopies: 60 }
    const response = (index: number, text: string) => ({
      index, callsBefore: index, step: `1/${index}`, finish: 'stop', outputTokens: undefined,
      blocks: [{ part: 'text' as const, deltas: [...tokens(text)] }],
    })
    // A loop cut partway leaves its memory written; the next response is watched over it.
    const log = [response(0, LOOP.text), response(1, LOOP.text.slice(0, 3000)), response(2, LOOP.text)]
    const alone = { defaults: wouldCut(log, {}), wide: wouldCut(log, wide) }
    expect(alone.defaults).toHaveLength(3)
    expect(alone.wide).not.toEqual(alone.defaults)
    for (const config of [wide, {}, wide, {}, {}]) expect(wouldCut(log, config)).toEqual(config === wide ? alone.wide : alone.defaults)
  })

  it('refuses a config that does not resolve every time it is given, not only the first', () => {
    // What a config resolves to is kept from log to log; a refusal is not, or the next log would pass unchecked.
    const log = [{
      index: 0, callsBefore: 0, step: '1/1', finish: 'stop', outputTokens: undefined,
      blocks: [{ part: 'text' as const, deltas: ['word '.repeat(80)] }],
    }]
    const wrong = { streamCutChars: 5 }
    for (let time = 0; time < 2; time++) expect(() => wouldCut(log, wrong)).toThrow(/streamCutChars/)
  })
})
