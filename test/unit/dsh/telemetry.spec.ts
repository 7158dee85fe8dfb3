/**
 * The telemetry listener on records shaped as DSH's telemetry seam (0.1.0-rc.8) builds them: a ledger record per
 * session event, `event.type`/`session.id`/`event.seq` attributes and the event's data as the body. The brake's bodies
 * are made by the brake's own functions (notices, refusal and stop reasons), so a change of wording is caught here.
 * The real CLI, its OTLP exporter and a receiver are in test/e2e/telemetry.e2e.ts.
 */
import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it, vi } from 'vitest'
import type { StopCause } from '../../../src/core/stops.ts'
import type { Finding, LoopFinding } from '../../../src/core/kinds.ts'
import type { Brake } from '../../../src/dsh/brake.ts'
import { notice } from '../../../src/dsh/notices.ts'
import {
  createTelemetryMarking, onTelemetryRecord, type Severity, type TelemetryMarking, type TelemetryRecord,
} from '../../../src/dsh/telemetry.ts'
import * as BrakePlugin from '../../../src/index.ts'
import { denialReason } from '../../../src/messages/refusals.ts'
import { duplicateTextNotice, findingNotice, stopNotice, stopReason } from '../../../src/messages/notices.ts'

let seq = 0

/** A ledger record as the seam makes it from a session event. */
function record(type: string, body: unknown, session = 'session-1'): TelemetryRecord {
  return Object.freeze({
    channel: 'ledger',
    time: 1_700_000_000_000,
    severity: 'info',
    attributes: Object.freeze({ 'session.id': session, 'event.type': type, 'event.seq': seq++, 'session.cwd': '/work' }),
    body,
  })
}

function brakeNotice(found: Finding, session?: string): TelemetryRecord {
  const text = found.kind === 'duplicate-text' ? duplicateTextNotice(found) : findingNotice(found)
  return record('user/message', JSON.parse(JSON.stringify(notice('dsh-brake', text))), session)
}

function otherNotice(plugin: string, summary: string, session?: string): TelemetryRecord {
  return record('user/message', {
    content: [{ type: 'text', text: 'reminder' }], source: { kind: 'plugin', plugin, form: 'notice', summary }, role: 'user', id: 'm-1',
  }, session)
}

function personMessage(session?: string): TelemetryRecord {
  return record('user/message', { content: [{ type: 'text', text: 'go on' }], source: { kind: 'user' }, role: 'user', id: 'm-2' }, session)
}

function toolResult(text: string, isError: boolean): TelemetryRecord {
  return record('tool/result', {
    turn: 1, step: 11,
    message: {
      role: 'user', id: 'r-1', source: { kind: 'tool' },
      content: [{ type: 'tool-result', toolCallId: 'call_11', content: [{ type: 'text', text }], isError }],
    },
  })
}

function turnEnd(reason: unknown): TelemetryRecord {
  return record('turn/end', { turn: 1, reason })
}

function stopEnd(cause: StopCause): TelemetryRecord {
  return turnEnd({ kind: 'aborted', reason: { kind: 'hook', reason: stopReason(cause) } })
}

interface Setup {
  readonly through: (input: TelemetryRecord) => TelemetryRecord
  readonly contain: ReturnType<typeof vi.fn>
  readonly memory: TelemetryMarking
}

/** The listener with the seam's innermost `next` (the record as it came), or a rule beneath it. */
function setup(beneath: (input: TelemetryRecord) => TelemetryRecord = input => input, noticeSeverity?: Severity): Setup {
  const contain = vi.fn()
  const brake = { name: 'dsh-brake', contain } as unknown as Brake
  const memory = createTelemetryMarking(noticeSeverity)
  return { through: input => onTelemetryRecord(brake, memory, () => beneath(input)), contain, memory }
}

const read: LoopFinding = { kind: 'identical-calls', tool: 'read', toolClass: 'read', args: '{"file_path":"a.ts"}', count: 4, evidence: 'same-result' }

describe('the brake\'s records', () => {
  it('marks a notice about identical calls: info, its kind, its calls and its tool', () => {
    const { through } = setup()
    const out = through(brakeNotice(read))
    expect(out.severity).toBe('info')
    expect(out.attributes).toEqual({
      'session.id': 'session-1', 'event.type': 'user/message', 'event.seq': expect.any(Number) as number, 'session.cwd': '/work',
      'dsh_brake.action': 'notice', 'dsh_brake.kind': 'identical-calls', 'dsh_brake.calls': 4, 'dsh_brake.tool': 'read',
      'dsh_brake.reminder': false,
    })
  })

  it('reads every kind of notice from its summary', () => {
    const { through } = setup()
    const cases: [Finding, Record<string, unknown>][] = [
      [{ kind: 'cycle', tools: ['grep', 'read', 'bash'], laps: 3, sameResults: true }, { 'dsh_brake.kind': 'cycle', 'dsh_brake.calls': 9 }],
      [{ kind: 'same-ground', count: 10, calls: [{ tool: 'read', args: '{}', count: 5 }] }, { 'dsh_brake.kind': 'same-ground', 'dsh_brake.calls': 10 }],
      [{ kind: 'same-error', tool: 'bash', count: 3, variants: 3, error: 'ENOENT', cause: 'environment' },
        { 'dsh_brake.kind': 'same-error', 'dsh_brake.calls': 3, 'dsh_brake.tool': 'bash', 'dsh_brake.reminder': false }],
      [{ kind: 'same-error', tool: 'edit', count: 5, variants: 5, error: 'old_string not found', cause: 'input' },
        { 'dsh_brake.kind': 'same-error', 'dsh_brake.calls': 5, 'dsh_brake.tool': 'edit' }],
      [{ kind: 'duplicate-text', threshold: 3, windowMs: 120_000, blocks: [{ count: 3, sources: ['plugin hooks'], head: 'x'.repeat(90), length: 90 }] },
        { 'dsh_brake.kind': 'duplicate-text' }],
      [{ kind: 'same-response', count: 3, whole: true, head: 'I will now read the file.' }, { 'dsh_brake.kind': 'same-response', 'dsh_brake.calls': 3 }],
      [{ kind: 'identical-calls', tool: 'job_output', toolClass: 'poller', args: '{"job_id":"1"}', count: 6, evidence: 'changed' },
        { 'dsh_brake.kind': 'identical-calls', 'dsh_brake.calls': 6, 'dsh_brake.tool': 'job_output' }],
      [{ kind: 'near-duplicate', count: 5, variants: 4, mostly: 'nothing', calls: [{ tool: 'grep', args: '{"pattern":"def x"}', returned: 'nothing' }] },
        { 'dsh_brake.kind': 'near-duplicate', 'dsh_brake.calls': 5 }],
      [{ kind: 'rereading', file: 'src/a.py', count: 4, ranges: [{ first: 1, last: 40 }] }, { 'dsh_brake.kind': 'rereading', 'dsh_brake.calls': 4 }],
      [{ kind: 'edit-revert', evidence: 'back', tool: 'bash', args: '{"command":"python t.py"}', file: 'a.py', count: 3, failure: 'IndentationError' },
        { 'dsh_brake.kind': 'edit-revert', 'dsh_brake.calls': 3, 'dsh_brake.tool': 'bash' }],
      [{ kind: 'edit-revert', evidence: 'redo', tool: 'bash', args: '{"command":"python t.py"}', file: 'a.py', count: 2, failure: 'SyntaxError' },
        { 'dsh_brake.kind': 'edit-revert' }],
      [{ kind: 'same-failure', tool: 'bash', args: '{"command":"pytest"}', count: 3, failure: 'NameError: x', origin: 'b.py', edited: ['a.py'], script: '', evidence: 'failure', commands: 1 },
        { 'dsh_brake.kind': 'same-failure', 'dsh_brake.calls': 3, 'dsh_brake.tool': 'bash' }],
    ]
    for (const [found, expected] of cases) {
      const out = through(brakeNotice(found))
      expect(out.severity, found.kind).toBe('info')
      expect(out.attributes, found.kind).toMatchObject({ 'dsh_brake.action': 'notice', ...expected })
    }
  })

  it('leaves out what a summary cut short no longer holds', () => {
    const { through } = setup()
    const long = { kind: 'cycle', tools: Array.from({ length: 8 }, (_, i) => `a_rather_long_tool_name_${i}`), laps: 3, sameResults: true } as const
    const out = through(brakeNotice(long))
    expect(out.attributes['dsh_brake.kind']).toBe('cycle')
    expect(out.attributes).not.toHaveProperty('dsh_brake.calls')
  })

  it('marks a cut by its notice: warn, action cut, kind runaway', () => {
    const { through } = setup()
    const out = through(brakeNotice({ kind: 'runaway', part: 'text', unit: 'The answer is 42. ', copies: 300, cuts: 1 }))
    expect(out.severity).toBe('warn')
    expect(out.attributes).toMatchObject({ 'dsh_brake.action': 'cut', 'dsh_brake.kind': 'runaway' })
    expect(out.attributes).not.toHaveProperty('dsh_brake.tool')
  })

  it('marks a refusal: warn, identical calls, the tool and the calls including the refused one', () => {
    const { through } = setup()
    const out = through(toolResult(`Error: ${denialReason('read', 10)}`, true))
    expect(out.severity).toBe('warn')
    expect(out.attributes).toMatchObject({
      'dsh_brake.action': 'refusal', 'dsh_brake.kind': 'identical-calls', 'dsh_brake.tool': 'read', 'dsh_brake.calls': 11, 'dsh_brake.reminder': false,
    })
    const plain = through(toolResult(`Error: ${denialReason('grep', 10, false)}`, true))
    expect(plain.attributes).toMatchObject({ 'dsh_brake.action': 'refusal', 'dsh_brake.tool': 'grep' })
  })

  it('marks a stop: warn, and the loop its reason names', () => {
    const { through } = setup()
    const cases: [StopCause, Record<string, unknown>][] = [
      [{ refused: false, loop: { ...read, count: 9 } }, { 'dsh_brake.kind': 'identical-calls', 'dsh_brake.calls': 9, 'dsh_brake.tool': 'read' }],
      [{ refused: true, loop: { ...read, count: 11 } }, { 'dsh_brake.kind': 'identical-calls', 'dsh_brake.calls': 11, 'dsh_brake.tool': 'read' }],
      [{ refused: false, loop: { kind: 'cycle', tools: ['grep', 'read'], laps: 8, sameResults: true } }, { 'dsh_brake.kind': 'cycle', 'dsh_brake.calls': 16 }],
      [{ refused: false, loop: { kind: 'runaway', part: 'text', unit: 'again ', copies: 900, cuts: 2 } }, { 'dsh_brake.kind': 'runaway', 'dsh_brake.calls': 2 }],
      [{ refused: false, loop: { kind: 'same-error', tool: 'bash', count: 8, variants: 8, error: 'No such file.', cause: 'environment' } },
        { 'dsh_brake.kind': 'same-error', 'dsh_brake.calls': 8, 'dsh_brake.tool': 'bash' }],
      // Its phrase lists the calls it keeps going back to after its count: the list is no count of calls.
      [{ refused: false, loop: { kind: 'same-ground', count: 15, calls: [{ tool: 'read', args: '{"file_path":"a.ts"}', count: 6 }] } },
        { 'dsh_brake.kind': 'same-ground', 'dsh_brake.calls': 15 }],
      [{ refused: false, loop: { kind: 'same-response', count: 8, whole: true, head: 'Let me check the file again.' } },
        { 'dsh_brake.kind': 'same-response', 'dsh_brake.calls': 8 }],
    ]
    for (const [cause, expected] of cases) {
      const out = through(stopEnd(cause))
      expect(out.severity, cause.loop.kind).toBe('warn')
      expect(out.attributes, cause.loop.kind).toMatchObject({ 'dsh_brake.action': 'stop', ...expected })
    }
  })

  it('marks the notice that closes a stopped turn as a notice about that loop', () => {
    const { through } = setup()
    const message = JSON.parse(JSON.stringify(notice('dsh-brake', stopNotice({ refused: false, loop: { ...read, count: 9 } })))) as unknown
    const out = through(record('user/message', message))
    expect(out.severity).toBe('info')
    expect(out.attributes).toMatchObject({ 'dsh_brake.action': 'notice', 'dsh_brake.kind': 'identical-calls', 'dsh_brake.tool': 'read' })
  })

  it('marks the notice that closes a turn stopped on its second cut as a notice about a runaway', () => {
    const { through } = setup()
    const cause = { refused: false, loop: { kind: 'runaway' as const, part: 'text' as const, unit: 'court ', copies: 82, cuts: 2 } }
    const message = JSON.parse(JSON.stringify(notice('dsh-brake', stopNotice(cause)))) as unknown
    expect(through(record('user/message', message)).attributes).toMatchObject({ 'dsh_brake.action': 'notice', 'dsh_brake.kind': 'runaway' })
  })

  it('gives a notice the severity the config names; a refusal, a stop and a cut warn whatever it says', () => {
    for (const severity of ['warn', 'error'] as const) {
      const { through } = setup(undefined, severity)
      expect(through(brakeNotice(read)).severity, severity).toBe(severity)
      const closing = JSON.parse(JSON.stringify(notice('dsh-brake', stopNotice({ refused: false, loop: { ...read, count: 9 } })))) as unknown
      expect(through(record('user/message', closing)).severity, severity).toBe(severity)
      expect(through(brakeNotice({ kind: 'runaway', part: 'text', unit: 'again ', copies: 300, cuts: 1 })).severity, severity).toBe('warn')
      expect(through(toolResult(`Error: ${denialReason('read', 10)}`, true)).severity, severity).toBe('warn')
      expect(through(stopEnd({ refused: false, loop: { ...read, count: 9 } })).severity, severity).toBe('warn')
    }
  })

  it('says whether repeat-tool-reminder spoke about the tool since the person\'s last message, per session', () => {
    const { through } = setup()
    through(otherNotice('repeat-tool-reminder', 'read × 3'))
    expect(through(brakeNotice(read)).attributes['dsh_brake.reminder']).toBe(true)
    expect(through(toolResult(`Error: ${denialReason('read', 10)}`, true)).attributes['dsh_brake.reminder']).toBe(true)
    expect(through(brakeNotice({ ...read, tool: 'grep' })).attributes['dsh_brake.reminder']).toBe(false)
    expect(through(brakeNotice(read, 'session-2')).attributes['dsh_brake.reminder']).toBe(false)
    through(personMessage())
    expect(through(brakeNotice(read)).attributes['dsh_brake.reminder']).toBe(false)
  })
})

describe('every other record', () => {
  it('passes as it came, the very object', () => {
    const { through } = setup()
    const others = [
      toolResult('file contents', false),
      toolResult('Error: dsh-brake said nothing here, a tool failed', true),
      toolResult(`plain text quoting ${denialReason('read', 10)}`, false),
      otherNotice('repeat-tool-reminder', 'read × 3'),
      otherNotice('hooks-claude-code', 'read × 4, same result'),
      personMessage(),
      turnEnd({ kind: 'completed' }),
      turnEnd({ kind: 'aborted', reason: { kind: 'hook', reason: 'another plugin stopped it: dsh-brake stopped the turn: no' } }),
      turnEnd({ kind: 'error', error: { message: 'boom', code: 'UNKNOWN' } }),
      record('step/start', { turn: 1, step: 1 }),
      record('assistant/chunk', { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'dsh-brake/cut' } } }),
      record('tool/call', { callId: 'c', name: 'read', arguments: '{"summary":"read × 4, same result"}' }),
      Object.freeze({ channel: 'ops', time: 1, severity: 'info', attributes: { 'telemetry.op': 'shutdown', 'session.id': 's' }, body: { op: 'shutdown' } }) as TelemetryRecord,
      record('user/message', null),
    ]
    for (const input of others) expect(through(input)).toBe(input)
  })

  it('reads the record as the rules beneath hand it back, never changing either', () => {
    const redacted = (input: TelemetryRecord): TelemetryRecord => ({ ...input, body: { redacted: true } })
    const { through } = setup(redacted)
    const input = brakeNotice(read)
    const out = through(input)
    expect(out.body).toEqual({ redacted: true })
    expect(out.attributes).not.toHaveProperty('dsh_brake.action')
    expect(input.attributes).not.toHaveProperty('dsh_brake.action')
  })

  it('passes the record on unchanged when reading it fails, and says so through the brake', () => {
    const { through, contain } = setup()
    const hostile = { get source(): never { throw new Error('injected body fault') } }
    const input = record('user/message', hostile)
    expect(through(input)).toBe(input)
    expect(contain).toHaveBeenCalledWith('session-telemetry/record', expect.objectContaining({ message: 'injected body fault' }))
  })

  it('keeps the reminder memory bounded', () => {
    const { through, memory } = setup()
    for (let i = 0; i < 1000; i++) through(otherNotice('repeat-tool-reminder', `tool_${i} × 3`, `session-${i % 300}`))
    expect(memory.reminded.size).toBeLessThanOrEqual(256)
    for (const tools of memory.reminded.values()) expect(tools.size).toBeLessThanOrEqual(64)
  })
})

describe('mounted as DSH mounts the plugin', () => {
  type Seam = (input: TelemetryRecord) => TelemetryRecord
  /** The plugin on a Cordis context, with DSH's telemetry backend's service there or not; the seam's waterfall. */
  async function mounted(config: Record<string, unknown>, telemetry = true): Promise<Seam> {
    const ctx = new Context() as unknown as {
      provide(name: string): void
      set(name: string, value: unknown): void
      waterfall(name: string, input: TelemetryRecord, inner: () => TelemetryRecord): TelemetryRecord
    }
    if (telemetry) {
      ctx.provide('sessionTelemetry')
      ctx.set('sessionTelemetry', {})
    }
    await (ctx as unknown as Context).plugin(BrakePlugin, config)
    return input => ctx.waterfall('session-telemetry/record', input, () => input)
  }

  it('marks a notice info by default, and with the severity `telemetryNoticeSeverity` names', async () => {
    expect((await mounted({}))(brakeNotice(read))).toMatchObject({ severity: 'info', attributes: { 'dsh_brake.action': 'notice' } })
    const seam = await mounted({ telemetryNoticeSeverity: 'error' })
    expect(seam(brakeNotice(read))).toMatchObject({ severity: 'error', attributes: { 'dsh_brake.action': 'notice' } })
    expect(seam(toolResult(`Error: ${denialReason('read', 10)}`, true)).severity).toBe('warn')
  })

  it('marks nothing where the telemetry service is not mounted', async () => {
    const input = brakeNotice(read)
    expect((await mounted({ telemetryNoticeSeverity: 'error' }, false))(input)).toBe(input)
  })

  it('refuses to load with a severity the seam does not take, naming the key, the choices and the value', async () => {
    await expect(mounted({ telemetryNoticeSeverity: 'debug' })).rejects.toThrow(
      'dsh-brake: `telemetryNoticeSeverity` must be one of `info`, `warn`, `error`, got "debug"',
    )
  })
})
