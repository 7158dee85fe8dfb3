/**
 * One agent's loops, from its events as analyze reads them: the kind of a call loop read from its calls, the kinds
 * analyze finds by rules of its own (one error across arguments, duplicate text, the same answer, a response repeating
 * itself) with their edges, and the pricing: what a loop cost and wasted, and what the brake would save of it under each config.
 *
 * Each call here costs a known amount (call n: 100 × n input tokens and 1 output token), so every figure can be checked
 * by hand.
 */
import { describe, expect, it } from 'vitest'
import type { CallSummary, ResponseCut } from '../../../src/analyze/analysis.ts'
import { SAME_ERRORS, SAME_RESPONSES, TEXT_COPIES, TEXT_MIN, type LoopInput } from '../../../src/analyze/log-rules.ts'
import { counted, loopsOf } from '../../../src/analyze/loops.ts'
import { piecesOf } from '../../../src/analyze/pieces.ts'
import { tokensOf } from '../../../src/analyze/tokens.ts'
import { CUT_FINISH } from '../../../src/dsh/stream.ts'
import type { Action } from '../../../src/replay/actions.ts'
import type { AgentEvent, CallEvent, ContextMessage } from '../../../src/replay/agent-events.ts'
import { labelRun } from '../../../src/replay/label/rules.ts'
import type { RecordedCall, RecordedResponse } from '../../../src/replay/session-recording.ts'

const AGENT = 'session-1'

const user: AgentEvent = { kind: 'user', agent: AGENT, text: 'go' }
const call = (tool: string, args: unknown, text: string, isError = false): CallEvent => ({ kind: 'call', agent: AGENT, tool, args, isError, text })
const read = (file: string, text = `contents of ${file}`): CallEvent => call('read', { file_path: file }, text)
const failedEdit = (file: string, error = 'Error: old_string not found in file\nat line 3'): CallEvent => call('edit', { file_path: file }, error, true)
let steps = 0
const step = (...contexts: ContextMessage[]): AgentEvent => ({ kind: 'step', agent: AGENT, id: `2/${++steps}`, contexts })
const context = (id: string, text: string): ContextMessage => ({ id, source: { kind: 'plugin', plugin: 'hook' }, texts: [text] })
const action = (kind: Action['kind'], at: number, text = `${kind} text`): Action => ({ kind, agent: AGENT, call: at, text })

/** Tokens of calls `from` to `to` (numbered from 1), as each call here costs. */
function costOf(from: number, to: number) {
  let input = 0
  for (let n = from; n <= to; n++) input += 100 * n
  return tokensOf(input, Math.max(0, to - from + 1), false)
}

/** What loops.ts is given for an agent with these events, labelled as analyze labels them; `extra` sets the rest. */
function inputOf(events: readonly AgentEvent[], extra: Partial<LoopInput> = {}): LoopInput {
  const labels = labelRun(events).find(agent => agent.agent === AGENT)
  const recorded: RecordedCall[] = events.filter((event): event is CallEvent => event.kind === 'call').map((event, index) => ({
    index, tool: event.tool, args: event.args, isError: event.isError, text: event.text, argumentChars: 20, step: `1/${index + 1}`, refused: false,
  }))
  const calls: CallSummary[] = recorded.map(one => ({
    call: one.index + 1, tool: one.tool, failed: one.isError, refused: false, tokens: tokensOf(100 * (one.index + 1), 1, false),
  }))
  const responses = extra.responses ?? []
  // A response that reported its output tokens came with its step's usage, as in a session log.
  const usage = new Map(responses.filter(one => one.outputTokens !== undefined)
    .map(one => [one.step, { inputTokens: 0, outputTokens: one.outputTokens! }]))
  const pieces = piecesOf({
    calls: recorded.map((one, index) => ({ step: one.step, tokens: calls[index]!.tokens })), usage, responses, events,
  })
  return {
    session: AGENT, agent: AGENT, events, recorded, facts: labels?.calls ?? [], episodes: labels?.episodes ?? [], pieces,
    responses, replayed: {}, cuts: {}, defaultCuts: [], said: [], ...extra,
  }
}

const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index))

describe('call loops', () => {
  const sixReads = [user, ...times(6, () => read('a.txt', 'same'))]

  it('are of the kind their calls repeat in, and priced from their calls: all of them, and wasted from the first repeat', () => {
    const [loop, ...rest] = loopsOf(inputOf(sixReads))
    expect(rest).toEqual([])
    expect(loop).toMatchObject({ session: AGENT, agent: 'main', kind: 'identical-calls', period: 1, what: 'read a.txt', firstCall: 1, begins: 2, lastCall: 6, calls: 6 })
    expect(loop!.tokens).toEqual(costOf(1, 6))
    expect(loop!.wasted).toEqual(costOf(2, 6))
  })

  it('a cycle says its lap in order; a long lap gone over in another order is read as a lap of its length', () => {
    const [cycle] = loopsOf(inputOf([user, ...times(8, i => read(i % 2 === 0 ? 'a.txt' : 'b.txt'))]))
    expect(cycle).toMatchObject({ kind: 'cycle', period: 2, what: 'read a.txt → read b.txt', firstCall: 1, lastCall: 8 })
    const windows = times(6, i => call('read', { file_path: 'big.py', offset: i * 50 }, `window ${i}`))
    const [lap] = loopsOf(inputOf([user, ...windows, ...[5, 2, 0, 4, 1, 3].map(i => windows[i]!)]))
    expect(lap).toMatchObject({ kind: 'same-ground', period: 6, begins: 7, lastCall: 12 })
    expect(lap!.what.split(' → ')).toHaveLength(6)
  })

  it('saves what comes after the first action on the loop under each config, and for sure what comes after a stop', () => {
    const replayed = {
      notice: [action('notice', 3)],
      stop: [action('notice', 2), action('stop', 4)],
      // Two calls past the loop's last still act on it; a third does not.
      edge: [action('notice', 7)],
      late: [action('notice', 8)],
      none: [],
    }
    const [loop] = loopsOf(inputOf(sixReads, { replayed }))
    expect(loop!.firstAction).toEqual({
      notice: { kind: 'notice', call: 4, text: 'notice text' }, stop: { kind: 'notice', call: 3, text: 'notice text' },
      edge: { kind: 'notice', call: 8, text: 'notice text' }, late: null, none: null,
    })
    expect(loop!.saved).toEqual({
      notice: { afterNotice: costOf(5, 6), afterStop: null },
      stop: { afterNotice: costOf(4, 6), afterStop: costOf(6, 6) },
      edge: { afterNotice: tokensOf(0, 0, false), afterStop: null },
      late: { afterNotice: null, afterStop: null },
      none: { afterNotice: null, afterStop: null },
    })
  })

  it('says what the brake did live first, and how long the loop went on after its first live notice', () => {
    const [heard] = loopsOf(inputOf(sixReads, { said: [action('refusal', 1), action('notice', 2)] }))
    expect(heard).toMatchObject({ firstSaid: { kind: 'refusal', call: 2, text: 'refusal text' }, callsAfterSaid: 3 })
    const [refusedOnly] = loopsOf(inputOf(sixReads, { said: [action('refusal', 1)] }))
    expect(refusedOnly).toMatchObject({ firstSaid: { kind: 'refusal', call: 2 }, callsAfterSaid: null })
    const [unheard] = loopsOf(inputOf(sixReads))
    expect(unheard).toMatchObject({ firstSaid: null, callsAfterSaid: null })
  })
})

describe('the same error across arguments', () => {
  const kinds = (events: readonly AgentEvent[]): string[] => loopsOf(inputOf(events)).map(loop => loop.kind)

  it(`is one tool failing with the same first line ${SAME_ERRORS} times across arguments, priced from its calls`, () => {
    const [loop] = loopsOf(inputOf([user, failedEdit('a.py'), failedEdit('b.py'), failedEdit('c.py')]))
    expect(loop).toMatchObject({ kind: 'same-error', foundBy: ['same-error'], what: 'edit: Error: old_string not found in file', firstCall: 1, begins: 2, lastCall: 3 })
    expect(loop!.tokens).toEqual(costOf(1, 3))
    expect(loop!.wasted).toEqual(costOf(2, 3))
  })

  it('goes on across other tools\' calls, and is not one when too short, with one set of arguments, or broken', () => {
    expect(loopsOf(inputOf([user, failedEdit('a.py'), read('x'), failedEdit('b.py'), failedEdit('c.py')]))[0]).toMatchObject({ firstCall: 1, begins: 3, lastCall: 4 })
    expect(kinds([user, ...times(SAME_ERRORS - 1, i => failedEdit(`${i}.py`))])).toEqual([])
    expect(kinds([user, ...times(SAME_ERRORS, () => failedEdit('a.py'))])).toEqual([])
    // A success of the same tool ends the chain; so does another error.
    const fixed = call('edit', { file_path: 'b.py' }, 'ok')
    expect(kinds([user, failedEdit('a.py'), failedEdit('b.py'), fixed, failedEdit('c.py')])).toEqual([])
    expect(kinds([user, failedEdit('a.py'), failedEdit('b.py'), failedEdit('c.py', 'Error: file is read-only'), failedEdit('d.py', 'Error: file is read-only')])).toEqual([])
  })

  it('is left to the call loop it overlaps', () => {
    const failing = (command: string): CallEvent => call('bash', { command }, 'Error: boom', true)
    expect(kinds([user, ...times(4, () => failing('make')), failing('make all')])).toEqual(['identical-calls'])
  })
})

describe('duplicate text', () => {
  // 100 characters: 25 tokens a copy.
  const TEXT = 'Remember the project rules: small commits, tests first, no secrets in logs, and ask before deleting.'

  it(`is the same context text claimed in ${TEXT_COPIES} steps, priced as estimated input, and saved by no config`, () => {
    expect(TEXT).toHaveLength(100)
    const events = [user, step(context('c1', TEXT)), read('a'), step(context('c2', `  ${TEXT.replace(/ /g, '\n ')}`)), read('b'), step(context('c3', TEXT)), read('c')]
    const [loop, ...rest] = loopsOf(inputOf(events, { replayed: { defaults: [action('notice', 1)] } }))
    expect(rest).toEqual([])
    // Its copies went into the steps after calls 0, 1 and 2: it spans none of those calls.
    expect(loop).toMatchObject({ kind: 'duplicate-text', foundBy: ['duplicate-text'], what: TEXT, firstCall: 0, begins: 1, lastCall: 2, calls: 0 })
    expect(loop!.tokens).toEqual(tokensOf(75, 0, true))
    expect(loop!.wasted).toEqual(tokensOf(50, 0, true))
    expect(loop!.saved).toEqual({ defaults: { afterNotice: null, afterStop: null } })
  })

  it(`counts a message claimed again under its id once, and leaves texts under ${TEXT_MIN} characters alone`, () => {
    const again = [user, step(context('c1', TEXT)), read('a'), step(context('c1', TEXT)), read('b'), step(context('c1', TEXT))]
    expect(loopsOf(inputOf(again))).toEqual([])
    const short = TEXT.slice(0, TEXT_MIN - 1)
    expect(loopsOf(inputOf([user, step(context('c1', short)), read('a'), step(context('c2', short)), read('b'), step(context('c3', short))]))).toEqual([])
  })
})

/** A response with these blocks, made after `callsBefore` calls. */
function response(index: number, callsBefore: number, blocks: RecordedResponse['blocks'], outputTokens?: number, finish = 'tool-calls'): RecordedResponse {
  return { index, callsBefore, step: `3/${index}`, blocks, finish, outputTokens }
}
const answer = (text: string): RecordedResponse['blocks'] => [{ part: 'reasoning', deltas: ['thinking it over'] }, { part: 'text', deltas: [text] }]

describe('the same answer', () => {
  const reads = [user, read('a'), read('b'), read('c'), read('d')]

  it(`is the same visible text ${SAME_RESPONSES} responses in a row, priced from their output tokens or their characters`, () => {
    const responses = [response(0, 1, answer('Done.')), response(1, 2, answer('Done.'), 20), response(2, 3, answer(' Done.\n'))]
    const [loop] = loopsOf(inputOf(reads, { responses: [{ ...responses[0]!, outputTokens: 10 }, ...responses.slice(1)] }))
    expect(loop).toMatchObject({ kind: 'same-response', foundBy: ['same-response'], what: 'Done.', firstCall: 1, begins: 2, lastCall: 3 })
    // The third reported nothing: its 16 + 7 characters are 6 tokens, and the figures are estimates.
    expect(loop!.tokens).toEqual(tokensOf(0, 36, true))
    expect(loop!.wasted).toEqual(tokensOf(0, 26, true))
  })

  it('is broken by another answer or a response with no answer', () => {
    const other = [response(0, 1, answer('Done.')), response(1, 2, answer('Not yet.')), response(2, 3, answer('Done.')), response(3, 4, answer('Done.'))]
    expect(loopsOf(inputOf(reads, { responses: other }))).toEqual([])
    const silent = [response(0, 1, answer('Done.')), response(1, 2, answer('Done.')), response(2, 3, [{ part: 'reasoning', deltas: ['hm'] }]), response(3, 4, answer('Done.'))]
    expect(loopsOf(inputOf(reads, { responses: silent }))).toEqual([])
  })
})

describe('a response repeating itself', () => {
  const runaway = response(1, 2, [{ part: 'reasoning', deltas: ['not called, '.repeat(1000)] }], 2000)
  const cut = (tokensAfter: number): ResponseCut => ({
    response: 2, callsBefore: 2, part: 'reasoning', unit: 'not called, ', copies: 700, at: 8400, repeatsFrom: 3000, tokensAfter, estimated: false, cutInSession: false,
  })
  const events = [user, read('a'), read('b'), read('c')]

  it('wastes its tokens from its first repeat on, and under each config saves for sure what streamed past its cut', () => {
    const [loop] = loopsOf(inputOf(events, {
      responses: [runaway], defaultCuts: [cut(600)],
      cuts: { defaults: [cut(600)], later: [cut(400)], off: [] }, replayed: { defaults: [], later: [], off: [] },
    }))
    expect(loop).toMatchObject({ kind: 'runaway', foundBy: ['runaway'], what: 'not called, ', response: 2, firstCall: 2, lastCall: 2, calls: 0 })
    // Each config's cut is the action on it, where it falls in the response, and the brake said nothing live.
    expect(loop!.firstAction).toEqual({
      defaults: { kind: 'cut', call: 2, text: 'cut at 8,400 characters, in its reasoning' },
      later: { kind: 'cut', call: 2, text: 'cut at 8,400 characters, in its reasoning' },
      off: null,
    })
    expect(loop).toMatchObject({ firstSaid: null, callsAfterSaid: null })
    expect(loop!.tokens).toEqual(tokensOf(0, 2000, false))
    // 12,000 characters, repeating from 3,000 on: three quarters of them.
    expect(loop!.wasted).toEqual(tokensOf(0, 1500, false))
    expect(loop!.saved).toEqual({
      defaults: { afterNotice: tokensOf(0, 600, false), afterStop: tokensOf(0, 600, false) },
      later: { afterNotice: tokensOf(0, 400, false), afterStop: tokensOf(0, 400, false) },
      off: { afterNotice: null, afterStop: null },
    })
  })

  it('counts a response the brake cut live, with nothing left to waste', () => {
    const [loop] = loopsOf(inputOf(events, { responses: [{ ...runaway, finish: CUT_FINISH }] }))
    expect(loop).toMatchObject({ kind: 'runaway', what: '', response: 2, firstCall: 2, calls: 0 })
    expect(loop!.firstSaid).toEqual({ kind: 'cut', call: 2, text: 'cut at 12,000 characters, in its reasoning' })
    expect(loop!.wasted).toEqual(tokensOf(0, 0, false))
  })

  it('is not a loop when no watch would cut it and the brake did not', () => {
    expect(loopsOf(inputOf(events, { responses: [runaway] }))).toEqual([])
  })
})

describe('all of an agent\'s loops', () => {
  it('come in the order they begin, whatever found them', () => {
    const events = [user, failedEdit('a.py'), failedEdit('b.py'), failedEdit('c.py'), ...times(4, () => read('x', 'same'))]
    const responses = [response(0, 2, answer('Trying again.')), response(1, 3, answer('Trying again.')), response(2, 4, answer('Trying again.'))]
    expect(loopsOf(inputOf(events, { responses })).map(loop => [loop.kind, loop.firstCall])).toEqual([['same-error', 1], ['same-response', 2], ['identical-calls', 4]])
  })
})

describe('an action as the reports number it', () => {
  it('counts calls from 1 and keeps what a report shows', () => {
    expect(counted({ kind: 'stop', agent: AGENT, call: 0, text: 'stopped', plugin: 'dsh-brake' })).toEqual({ kind: 'stop', call: 1, text: 'stopped' })
    expect(counted(action('notice', -1))).toEqual({ kind: 'notice', call: 0, text: 'notice text' })
  })
})
