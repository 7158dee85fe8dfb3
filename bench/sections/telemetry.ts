/**
 * `telemetry`: what the brake's `session-telemetry/record` listener costs the records DSH sends to OpenTelemetry,
 * nearly none of them the brake's: through the brake against through a listener that only hands each record on, with
 * a second such listener beside them to show the noise; and the listener's own work, called alone.
 * @module
 */
import { Context } from '@deepseek-ai/cordis'
import * as Brake from '../../dist/index.js'
import { notice } from '../../src/dsh/notices.ts'
import { createTelemetryMarking, onTelemetryRecord } from '../../src/dsh/telemetry.ts'
import { findingNotice } from '../../src/messages/notices.ts'
import { gc, ROUNDS, rounds, TRACE_LENGTH } from '../measure.ts'
import { ratio, type Report } from '../report.ts'
import { median } from '../rounds.ts'

type TelemetryRecord = { channel: 'ledger' | 'ops'; time: number; severity: 'info' | 'warn' | 'error'; attributes: Record<string, string | number | boolean>; body: unknown }
type Through = (record: TelemetryRecord) => TelemetryRecord
type Hosts = Record<'pass' | 'again' | 'brake', Through>

/** A context as DSH's telemetry backend leaves it: the `sessionTelemetry` service there, and a listener on the seam. */
async function telemetryHost(plugin: 'pass' | 'brake'): Promise<Through> {
  const ctx = new Context() as unknown as {
    provide(name: string): void
    set(name: string, value: unknown): void
    on(name: string, listener: (record: TelemetryRecord, next: () => TelemetryRecord) => TelemetryRecord): void
    waterfall(name: string, record: TelemetryRecord, inner: () => TelemetryRecord): TelemetryRecord
  }
  ctx.provide('sessionTelemetry')
  ctx.set('sessionTelemetry', {})
  // A listener that only hands the record on: what any listener on the seam costs before doing any work.
  if (plugin === 'pass') ctx.on('session-telemetry/record', (_record, next) => next())
  else await (ctx as unknown as Context).plugin(Brake as never, {} as never)
  return record => ctx.waterfall('session-telemetry/record', record, () => record)
}

const record = (type: string, body: unknown, i: number): TelemetryRecord =>
  ({ channel: 'ledger', time: i, severity: 'info', attributes: { 'session.id': `s${i % 8}`, 'event.type': type, 'event.seq': i }, body })

// What a session sends that is not the brake's: a step's first chunk, calls and results (one failing), steps, a
// person's message, repeat-tool-reminder's notice, a turn's end. Every record pays for the listener; these are the
// ones it must only hand on.
const OTHERS: readonly (readonly [string, unknown])[] = [
  ['assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'Let me look.' } }],
  ['tool/call', { callId: 'call_1', name: 'read', arguments: '{"file_path":"src/a.ts"}' }],
  ['tool/result', { turn: 1, step: 1, message: { role: 'user', content: [{ type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: 'x'.repeat(4096) }], isError: false }] } }],
  ['tool/call', { callId: 'call_2', name: 'bash', arguments: '{"command":"npm test"}' }],
  ['tool/result', { turn: 1, step: 2, message: { role: 'user', content: [{ type: 'tool-result', toolCallId: 'call_2', content: [{ type: 'text', text: 'Error: 3 tests failed' }], isError: true }] } }],
  ['step/start', { turn: 1, step: 2 }],
  ['step/end', { turn: 1, step: 2 }],
  ['user/message', { content: [{ type: 'text', text: 'Fix the test.' }], source: { kind: 'user' }, role: 'user', id: 'm' }],
  ['user/message', { content: [{ type: 'text', text: 'You called read 3 times.' }], source: { kind: 'plugin', plugin: 'repeat-tool-reminder', form: 'notice', summary: 'read × 3' }, role: 'user', id: 'r' }],
  ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
]

const ORDERS: readonly (readonly (keyof Hosts)[])[] = [['pass', 'again', 'brake'], ['brake', 'pass', 'again'], ['again', 'brake', 'pass']]
const CHUNK = 250

/**
 * The seam's cost per record with each listener: every host sent the same records {@link CHUNK} at a time (a
 * millisecond or so), in turns whose order rotates, so the machine's swings, which here reach twice within minutes,
 * fall on all alike. Returns, over the rounds, the median ns per record through the pass-through and the medians of
 * the per-round ratios to it.
 */
function paired(hosts: Hosts, records: readonly TelemetryRecord[]): { pass: number; brake: number; again: number } {
  for (const through of Object.values(hosts)) for (const input of records) through(input)
  const samples = { pass: [] as number[], brake: [] as number[], again: [] as number[] }
  for (let round = 0; round < ROUNDS; round++) {
    gc()
    const total = { pass: 0, again: 0, brake: 0 }
    for (let from = 0, turn = 0; from < records.length; from += CHUNK, turn++) {
      for (const key of ORDERS[turn % ORDERS.length]!) {
        const through = hosts[key]
        const start = process.hrtime.bigint()
        for (let i = from; i < from + CHUNK && i < records.length; i++) through(records[i]!)
        total[key] += Number(process.hrtime.bigint() - start)
      }
    }
    samples.pass.push(total.pass / records.length)
    samples.brake.push(total.brake / total.pass)
    samples.again.push(total.again / total.pass)
  }
  return { pass: median(samples.pass), brake: median(samples.brake), again: median(samples.again) }
}

/**
 * The listener's own work, called as the seam calls it but without Cordis around it, against a function that only
 * calls `next`: what the brake adds to a record, in nanoseconds, free of the dispatch it sits in.
 */
function listenerAlone(records: readonly TelemetryRecord[]): Promise<{ handOn: number; listener: number }> {
  const marking = createTelemetryMarking()
  const fakeBrake = { name: 'dsh-brake', contain: (): void => undefined } as unknown as Parameters<typeof onTelemetryRecord>[0]
  const direct = (listener: (input: TelemetryRecord) => unknown) => (): Promise<number> => {
    const start = process.hrtime.bigint()
    for (let repeat = 0; repeat < 10; repeat++) for (const input of records) listener(input)
    return Promise.resolve(Number(process.hrtime.bigint() - start) / (records.length * 10))
  }
  const handOn = (input: TelemetryRecord): TelemetryRecord => ((next: () => TelemetryRecord) => next())(() => input)
  const listener = (input: TelemetryRecord): TelemetryRecord => onTelemetryRecord(fakeBrake, marking, () => input)
  return rounds({ handOn: direct(handOn), listener: direct(listener) })
}

export async function telemetryRecords(report: Report): Promise<void> {
  // The brake's own: a notice, as its notice function makes it (a cut, a refusal and a stop are read the same way).
  const brakeNotice = JSON.parse(JSON.stringify(notice('dsh-brake', findingNotice({
    kind: 'identical-calls', tool: 'read', toolClass: 'read', args: '{"file_path":"src/a.ts"}', count: 4, evidence: 'same-result',
  })))) as unknown
  const common = Array.from({ length: TRACE_LENGTH }, (_, i) => record(OTHERS[i % OTHERS.length]![0], OTHERS[i % OTHERS.length]![1], i))
  const own = Array.from({ length: TRACE_LENGTH / 10 }, (_, i) => record('user/message', brakeNotice, i))
  // Two pass-through hosts: how far apart two identical listeners read in this run is the noise the brake's ratio
  // sits in.
  const hosts: Hosts = { pass: await telemetryHost('pass'), again: await telemetryHost('pass'), brake: await telemetryHost('brake') }
  const seam = paired(hosts, common)
  const marked = paired(hosts, own)
  const alone = await listenerAlone(common)
  const ownShare = (alone.listener - alone.handOn) / seam.pass
  report.figures['telemetry'] = {
    records: common.length, brakeRecords: own.length, rounds: ROUNDS,
    notTheBrakes: { passThroughNsPerRecord: seam.pass, brakeOverPassThrough: seam.brake, passThroughOverPassThrough: seam.again },
    theBrakes: { passThroughNsPerRecord: marked.pass, brakeOverPassThrough: marked.brake, passThroughOverPassThrough: marked.again },
    listenerAlone: { nsPerRecord: { handOn: alone.handOn, listener: alone.listener }, ownWorkOverSeam: ownShare },
  }
  report.row('`session-telemetry/record`: a record not the brake\'s, through it ÷ through a pass-through', ratio(seam.brake), '≤ 1.05×', seam.brake <= 1.05)
  report.row('  (a second pass-through ÷ the first, the noise; per record through a pass-through)', `${ratio(seam.again)}; ${seam.pass.toFixed(0)} ns`, '', undefined)
  report.row('  the listener\'s own work per such record ÷ the seam\'s cost per record', `${(100 * ownShare).toFixed(2)} %`, '≤ 1 %', ownShare <= 0.01)
  report.row('  (the listener alone / a function that only calls next)', `${alone.listener.toFixed(0)} / ${alone.handOn.toFixed(0)} ns`, '', undefined)
  report.row('  the brake\'s own notice, through it ÷ through a pass-through', ratio(marked.brake), '', undefined)
  report.row('  (a second pass-through ÷ the first; per notice through a pass-through)', `${ratio(marked.again)}; ${marked.pass.toFixed(0)} ns`, '', undefined)
}
