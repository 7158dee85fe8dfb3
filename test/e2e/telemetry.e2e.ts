/**
 * The brake's actions in DSH's OpenTelemetry records, through the real `dsh` CLI: telemetry on (`DSH_TELEMETRY_MODE=FULL`),
 * its OTLP/HTTP log exporter pointed at a receiver this test starts on a loopback port. The OTel SDK DSH ships sends
 * OTLP/HTTP JSON (`application/json`, gzip as the stock profile configures it); the receiver decodes it. One session in
 * stop mode with the stock repeat-tool-reminder beside the brake plays a response that repeats itself (a cut), then
 * identical reads (a notice, a refusal, a stop). The receiver sees each of the brake's records once with its severity
 * and attributes, every other record as the session log holds it, and `dsh-brake analyze` counts the same actions in
 * the log the run left.
 */
import { execFileSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { RESPONSES, tokens } from '../loop/corpus/responses.ts'
import { cleanUp, dsh, homeWithBrake, sessionEvents, sessionFiles, workspace, writeUserPatch } from './dsh-cli.ts'
import { startModelServer, type Answer } from './model-server.ts'

/** One log record as the receiver decoded it. */
interface Received {
  readonly scope: string
  readonly severityText: string
  readonly severityNumber: number
  readonly attributes: Record<string, unknown>
  readonly body: unknown
}

interface Receiver {
  readonly url: string
  readonly records: Received[]
  /** Resolves once a record with `telemetry.op: shutdown` came in: the backend drains its queue before it. */
  readonly shutdown: Promise<void>
  close(): Promise<void>
}

/** An OTLP `AnyValue` as plain JSON (the JSON encoding: int64 may come as a string). */
function anyValue(value: Record<string, unknown> | undefined): unknown {
  if (value === undefined) return undefined
  if ('stringValue' in value) return value['stringValue']
  if ('boolValue' in value) return value['boolValue']
  if ('intValue' in value) return Number(value['intValue'])
  if ('doubleValue' in value) return value['doubleValue']
  if ('arrayValue' in value) return ((value['arrayValue'] as { values?: Record<string, unknown>[] }).values ?? []).map(anyValue)
  if ('kvlistValue' in value) return keyValues((value['kvlistValue'] as { values?: KeyValue[] }).values)
  if ('bytesValue' in value) return value['bytesValue']
  return null
}

interface KeyValue {
  readonly key: string
  readonly value?: Record<string, unknown>
}

function keyValues(list: readonly KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, anyValue(value)]))
}

/** An OTLP/HTTP logs receiver on a loopback port: decodes each export request, answers as a collector does. */
async function startReceiver(): Promise<Receiver> {
  const records: Received[] = []
  let shutdownSeen: () => void = () => undefined
  const shutdown = new Promise<void>((resolve) => {
    shutdownSeen = resolve
  })
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = []
    request.on('data', (part: Buffer) => parts.push(part))
    request.on('end', () => {
      let raw = Buffer.concat(parts)
      if (request.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw)
      expect(request.headers['content-type']).toMatch(/^application\/json/)
      type Export = { resourceLogs?: { scopeLogs?: { scope?: { name?: string }; logRecords?: Record<string, unknown>[] }[] }[] }
      const payload = JSON.parse(raw.toString('utf8')) as Export
      for (const resource of payload.resourceLogs ?? []) {
        for (const scope of resource.scopeLogs ?? []) {
          for (const log of scope.logRecords ?? []) {
            const received: Received = {
              scope: scope.scope?.name ?? '',
              severityText: String(log['severityText']),
              severityNumber: Number(log['severityNumber']),
              attributes: keyValues(log['attributes'] as KeyValue[] | undefined),
              body: anyValue(log['body'] as Record<string, unknown> | undefined),
            }
            records.push(received)
            if (received.attributes['telemetry.op'] === 'shutdown') shutdownSeen()
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{}')
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1/logs`,
    records,
    shutdown,
    close: () => new Promise(resolve => server.close(() => resolve())),
  }
}

let home: string

beforeAll(async () => {
  home = await homeWithBrake()
})

afterAll(cleanUp)

/**
 * Stop mode, refusing the 10th identical attempt, beside a reminder that speaks at the 3rd only: the brake keeps clear
 * of the reminder's notice for five calls, so its own notice comes at the 9th, then the refusal and the stop at the
 * 10th: every action in one turn.
 */
const PATCH = '- id: dsh-brake\n  config:\n    mode: stop\n    callDenyCount: 9\n- id: repeat-tool-reminder\n  config:\n    thresholds: [3]\n'

const BRAKE_KEYS = ['dsh_brake.action', 'dsh_brake.kind', 'dsh_brake.calls', 'dsh_brake.tool', 'dsh_brake.reminder']

describe('the brake\'s actions in DSH\'s OpenTelemetry records, on the real CLI', () => {
  it('a cut, a notice, a refusal and a stop reach the receiver marked, once each; analyze counts the same', async () => {
    writeUserPatch(home, PATCH)
    const cwd = workspace({ 'notes.txt': 'the answer is 42\n' })
    const runaway = RESPONSES.find(response => response.name === 'one token repeated 5,000 times')!
    const read = { name: 'read', args: { file_path: 'notes.txt' } }
    const script: Answer[] = [
      { text: [...tokens(runaway.text)] },
      ...Array.from({ length: 11 }, () => ({ calls: [read] })),
      { text: 'never sent' },
    ]
    const model = await startModelServer(script)
    const receiver = await startReceiver()
    const run = await dsh(['--profile', 'headless', 'Read the notes.'], {
      home, cwd, baseUrl: model.url,
      env: { DSH_TELEMETRY_DISABLED: undefined, DSH_TELEMETRY_MODE: 'FULL', DSH_TELEMETRY_OTLP_URL: receiver.url },
    })
    await model.close()
    // The CLI drains its exporter as it exits; the session's shutdown record comes after all of its records.
    await receiver.shutdown
    await receiver.close()
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toMatch(/dsh-brake stopped the turn: .*`read` was called 10 times with the same arguments, the last of them refused/)

    const ledger = receiver.records.filter(record => typeof record.attributes['event.seq'] === 'number')
    const marked = ledger.filter(record => record.attributes['dsh_brake.action'] !== undefined)
    const brakeAttributes = (record: Received): Record<string, unknown> =>
      Object.fromEntries(Object.entries(record.attributes).filter(([key]) => key.startsWith('dsh_brake.')))

    // Each action once, in the order the run took them.
    expect(marked.map(record => [record.attributes['event.type'], record.severityText, brakeAttributes(record)])).toEqual([
      ['user/message', 'WARN', { 'dsh_brake.action': 'cut', 'dsh_brake.kind': 'runaway' }],
      ['user/message', 'INFO', {
        'dsh_brake.action': 'notice', 'dsh_brake.kind': 'identical-calls', 'dsh_brake.calls': 9, 'dsh_brake.tool': 'read', 'dsh_brake.reminder': true,
      }],
      ['tool/result', 'WARN', {
        'dsh_brake.action': 'refusal', 'dsh_brake.kind': 'identical-calls', 'dsh_brake.calls': 10, 'dsh_brake.tool': 'read', 'dsh_brake.reminder': true,
      }],
      ['user/message', 'INFO', {
        'dsh_brake.action': 'notice', 'dsh_brake.kind': 'identical-calls', 'dsh_brake.calls': 10, 'dsh_brake.tool': 'read', 'dsh_brake.reminder': true,
      }],
      ['turn/end', 'WARN', {
        'dsh_brake.action': 'stop', 'dsh_brake.kind': 'identical-calls', 'dsh_brake.calls': 10, 'dsh_brake.tool': 'read', 'dsh_brake.reminder': true,
      }],
    ])
    expect(marked.filter(record => record.severityText === 'WARN').map(record => record.severityNumber)).toEqual([13, 13, 13])
    // No record was handed over twice.
    const seqs = ledger.map(record => `${String(record.attributes['session.id'])}#${String(record.attributes['event.seq'])}`)
    expect(new Set(seqs).size).toBe(seqs.length)

    // Every other record is as the seam made it: the session log's data as its body, no mark, its own severity.
    const logged = new Map(sessionEvents(home, cwd).map(event => [event.seq, event]))
    const others = ledger.filter(record => !marked.includes(record))
    expect(others.length).toBeGreaterThan(20)
    let compared = 0
    for (const record of others) {
      expect(Object.keys(record.attributes).filter(key => BRAKE_KEYS.includes(key))).toEqual([])
      expect(['INFO', 'ERROR']).toContain(record.severityText)
      const event = logged.get(record.attributes['event.seq'] as number)
      // The log on disk packs runs of stream deltas into storage rows: those rows are not the records sent.
      if (event === undefined || event.type !== record.attributes['event.type']) continue
      expect(record.body, event.type).toEqual(event.data)
      compared++
    }
    expect(compared).toBeGreaterThan(20)
    // repeat-tool-reminder's own notices went out unmarked.
    expect(others.some(record => (record.body as { source?: { plugin?: string } } | undefined)?.source?.plugin === 'repeat-tool-reminder')).toBe(true)

    // analyze reads the same actions from the log: its notices are the records marked notice or cut (a cut is told
    // by its notice) but the stop notice, the stop's own; its refusals and stops the records marked so, its cuts the
    // records marked cut.
    const files = sessionFiles(home, cwd)
    expect(files).toHaveLength(1)
    const out = execFileSync(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js'), 'analyze', '--json', files[0]!], { cwd })
    type Agent = { said: { kind: string }[]; cutInSession: unknown[] }
    const agent = (JSON.parse(out.toString()) as { sessions: { agents: Agent[] }[] }).sessions[0]!.agents[0]!
    const count = (actions: readonly string[], kind: string): number => actions.filter(action => action === kind).length
    const said = agent.said.map(action => action.kind)
    const stopNotice = (record: Received): boolean => /^turn stopped in a loop /.test((record.body as { source?: { summary?: string } } | undefined)?.source?.summary ?? '')
    expect(marked.filter(stopNotice)).toHaveLength(1)
    const sent = marked.filter(record => !stopNotice(record)).map(record => String(record.attributes['dsh_brake.action']))
    expect({
      notices: count(said, 'notice'), refusals: count(said, 'refusal'), stops: count(said, 'stop'), cuts: agent.cutInSession.length,
    }).toEqual({
      notices: count(sent, 'notice') + count(sent, 'cut'), refusals: count(sent, 'refusal'), stops: count(sent, 'stop'), cuts: count(sent, 'cut'),
    })
    expect(said.length).toBeGreaterThan(0)
  })
})
