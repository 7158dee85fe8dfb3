/**
 * Every total `dsh-brake analyze` writes is at least the sum of its parts, in the text, the JSON and the page: tokens
 * in loops never exceed tokens in all, what was wasted never exceeds what loops cost, what the brake would save never
 * exceeds what it is saved of. Checked over sessions made of real-shaped pieces, drawn at random from a fixed seed:
 * call loops, responses cut in the session or repeating themselves inside a loop of calls, the same answer again and
 * again, a hook's text claimed step after step, failures, subagents; each step with its usage or without (estimated).
 * The totals hold because every figure is added up from the same pieces (src/analyze/pieces.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Tokens } from '../../../src/analyze/analysis.ts'
import { analyzeSessions } from '../../../src/analyze/analyze-sessions.ts'
import { htmlReport } from '../../../src/analyze/report-html.ts'
import { jsonReport } from '../../../src/analyze/report-json.ts'
import { textReport } from '../../../src/analyze/report-text.ts'
import { RESPONSES, tokens } from '../../loop/corpus/responses.ts'
import { header, message, read, SessionScript, writeLog, type ScriptedCall } from '../../support/session-logs.ts'

const home = mkdtempSync(join(tmpdir(), 'dsh-brake-pieces-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

type Usage = { inputTokens: number; outputTokens: number } | null

const LOOP = RESPONSES.find(entry => entry.name === '"not called" in reasoning, a thousand times')!
/** What the brake lets stream of a looping response before it cuts it live (any length: analyze must not care). */
const CUT_AT = LOOP.loop!.from + 3000
const HOOK = 'Stop hook: the task is not done yet. Keep working until every test passes, then report what you changed.'

/** The pieces a session is made of: each appends a few steps, every step with `usage()` (a usage, or none). */
const PIECES: Readonly<Record<string, (script: SessionScript, usage: () => Usage) => void>> = {
  'identical reads': (script, usage) => {
    for (let i = 0; i < 5; i++) script.openStep().respond([read('same')], usage())
  },
  'a cycle of two calls': (script, usage) => {
    for (let i = 0; i < 4; i++) {
      script.openStep().respond([{ name: 'grep', args: { pattern: 'port' }, result: 'none' }], usage())
      script.openStep().respond([{ name: 'bash', args: { command: 'make' }, result: 'failed' }], usage())
    }
  },
  'a response cut in the session': (script, usage) => {
    script.openStep().stream([{ part: 'reasoning', deltas: [...tokens(LOOP.text.slice(0, CUT_AT))] }], 'dsh-brake/cut').respond([], usage())
  },
  'a response repeating itself before its call': (script, usage) => {
    script.openStep().stream([{ part: 'text', deltas: [...tokens(LOOP.text)] }], 'tool-calls').respond([read('same')], usage())
  },
  'the same answer three times': (script, usage) => {
    for (let i = 0; i < 3; i++) script.prompt('Can you reach it now?').stream([{ part: 'text', deltas: ['I cannot reach the registry from here.'] }]).respond([], usage())
  },
  'a hook\'s text every step': (script, usage) => {
    for (let i = 0; i < 4; i++) {
      script.openStep([message(HOOK, { kind: 'plugin', plugin: 'hook' } as never)]).respond([read(`page ${i}`)], usage())
    }
  },
  'one tool failing the same way': (script, usage) => {
    for (let i = 0; i < 3; i++) {
      const call: ScriptedCall = { name: 'grep', args: { pattern: `p${i}` }, result: 'Error: no index built', isError: true }
      script.openStep().respond([call], usage())
    }
  },
  'two calls in one step, then an answer': (script, usage) => {
    script.openStep().respond([read('one'), read('two')], usage())
    script.openStep().stream([{ part: 'text', deltas: ['Done: the port is 8080.'] }]).respond([], usage())
  },
}

/** Numbers from a fixed seed (mulberry32): the same sessions every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A usage now and then, none otherwise (`mix`), or always one, or never. */
function usages(draw: () => number, mode: 'reported' | 'none' | 'mix'): () => Usage {
  return () => mode === 'none' || (mode === 'mix' && draw() < 0.5)
    ? null
    : { inputTokens: 200 + Math.floor(draw() * 2000), outputTokens: 5 + Math.floor(draw() * 300) }
}

/** `count` sessions of random pieces (some with a subagent of their own), written as logs; their files. */
function sessions(seed: number, count: number, mode: 'reported' | 'none' | 'mix'): string[] {
  const draw = random(seed)
  const names = Object.keys(PIECES)
  const files: string[] = []
  const build = (id: string, parent?: string): string => {
    const script = new SessionScript(header(id, parent)).prompt('Fix the build.')
    const pieces = 2 + Math.floor(draw() * 4)
    for (let i = 0; i < pieces; i++) PIECES[names[Math.floor(draw() * names.length)]!]!(script, usages(draw, mode))
    return writeLog(home, id, script.end().bytes())
  }
  for (let i = 0; i < count; i++) {
    const id = `session-${seed}-${i}`
    files.push(build(id))
    if (draw() < 0.3) files.push(build(`${id}-sub`, id))
  }
  return files
}

/** `part` within `whole`: its input, output and total each no more. */
function within(part: Tokens, whole: Tokens, what: string): void {
  expect(part.input, `${what}: input`).toBeLessThanOrEqual(whole.input)
  expect(part.output, `${what}: output`).toBeLessThanOrEqual(whole.output)
  expect(part.total, `${what}: total`).toBeLessThanOrEqual(whole.total)
}

/** A token figure as the text and the page write it (`12345`, `~12345`), as a number. */
const figure = (written: string): number => Number(written.replace(/[~,]/g, ''))

interface AgentDocument { agent: string; tokens: Tokens; inLoops: Tokens; wasted: Tokens; loops: LoopDocument[] }
interface LoopDocument {
  kind: string
  tokens: Tokens
  wasted: Tokens
  saved: Record<string, { afterNotice: Tokens | null; afterStop: Tokens | null }>
}

describe('analyze\'s figures: every total at least the sum of its parts', () => {
  it.each([
    [1, 'reported'], [2, 'none'], [3, 'mix'], [4, 'mix'], [5, 'mix'],
  ] as const)('seed %i, usage %s: in the JSON', async (seed, mode) => {
    const analysis = await analyzeSessions(sessions(seed, 12, mode), [{ name: 'defaults', config: {} }, { name: 'stop', config: { mode: 'stop' } }])
    const document = JSON.parse(jsonReport(analysis)) as {
      overview: { tokens: Tokens; inLoops: Tokens; wasted: Tokens; saved: Record<string, { afterNotice: Tokens; afterStop: Tokens }> }
      sessions: { session: string; tokens: Tokens; wasted: Tokens; agents: AgentDocument[] }[]
    }
    const o = document.overview
    within(o.inLoops, o.tokens, 'in loops, of all')
    within(o.wasted, o.inLoops, 'wasted, of in loops')
    for (const [config, saved] of Object.entries(o.saved)) {
      within(saved.afterNotice, o.inLoops, `saved under ${config}, of in loops`)
      within(saved.afterStop, saved.afterNotice, `saved for sure under ${config}, of saved`)
    }
    for (const session of document.sessions) {
      within(session.wasted, session.tokens, `${session.session}: wasted, of its tokens`)
      for (const agent of session.agents) {
        const who = `${session.session} ${agent.agent}`
        within(agent.inLoops, agent.tokens, `${who}: in loops, of its tokens`)
        within(agent.wasted, agent.inLoops, `${who}: wasted, of in loops`)
        for (const loop of agent.loops) {
          within(loop.tokens, agent.inLoops, `${who}: a ${loop.kind} loop, of the agent's tokens in loops`)
          within(loop.wasted, loop.tokens, `${who}: a ${loop.kind} loop's waste, of its cost`)
          for (const [config, { afterNotice, afterStop }] of Object.entries(loop.saved)) {
            if (afterNotice !== null) within(afterNotice, loop.tokens, `${who}: a ${loop.kind} loop, saved under ${config}`)
            if (afterStop !== null) within(afterStop, loop.tokens, `${who}: a ${loop.kind} loop, saved for sure under ${config}`)
          }
        }
      }
    }
    // The shapes the issue was seen with are among those drawn.
    const kinds = new Set(document.sessions.flatMap(session => session.agents.flatMap(agent => agent.loops.map(loop => loop.kind))))
    expect([...kinds]).toEqual(expect.arrayContaining(['runaway', 'identical-calls', 'duplicate-text']))
  })

  it.each([[6, 'none'], [7, 'mix']] as const)('seed %i, usage %s: in the text and the page', async (seed, mode) => {
    const analysis = await analyzeSessions(sessions(seed, 10, mode), [{ name: 'defaults', config: {} }])
    const text = textReport(analysis)
    const [, all, inLoops, wasted] = /tokens: (~?[\d,]+) in all; (~?[\d,]+) in loops \(.*?\); (~?[\d,]+) wasted/.exec(text) ?? []
    expect(figure(inLoops!)).toBeLessThanOrEqual(figure(all!))
    expect(figure(wasted!)).toBeLessThanOrEqual(figure(inLoops!))
    const savedText = /saved under defaults: (~?[\d,]+) tokens/.exec(text)?.[1]
    expect(figure(savedText!)).toBeLessThanOrEqual(figure(inLoops!))
    for (const [, tokensOf, wastedOf] of text.matchAll(/^session \S+ · .*? · (~?[\d,]+) tokens, (~?[\d,]+) wasted in loops$/gm)) {
      expect(figure(wastedOf!)).toBeLessThanOrEqual(figure(tokensOf!))
    }
    const page = htmlReport(analysis)
    const row = (label: string): number => figure(new RegExp(`<tr><td>${label}</td><td>(~?[\\d,]+)`).exec(page)![1]!)
    expect(row('in loops')).toBeLessThanOrEqual(row('tokens in all'))
    expect(row('wasted from each loop&#39;s first repeat|wasted from each loop\'s first repeat')).toBeLessThanOrEqual(row('in loops'))
    expect(row('saved under defaults')).toBeLessThanOrEqual(row('in loops'))
  })
})
