/**
 * `text`: how fast `agent/pre-step` scans a claimed message for duplicate text, at 1 KB to 10 MB a message, beside
 * sha1 of the same bytes; and whether the scan stays linear.
 * @module
 */
import { hash } from 'node:crypto'
import { host, signal, type Waterfall } from '../hosts.ts'
import { rounds } from '../measure.ts'
import { ratio, type Report } from '../report.ts'
import { text } from '../trace.ts'

const SIZES = [1_000, 100_000, 1_000_000, 10_000_000]

/** Messages claimed so far, for their ids. */
let claimed = 0

/** Brake and sha1 throughput, in MB/s, on messages of `size` characters. */
async function throughputAt(waterfall: Waterfall, size: number): Promise<{ brakeMBps: number; sha1MBps: number }> {
  const body = text(size)
  // About 100 MB per sample (at most 500 messages): measured, V8 runs slower for tens of milliseconds after the
  // forced collection that precedes each sample, so a short sample reads the collection's aftermath more than the
  // scan (3 × 1 MB per sample read 300 MB/s, 20 × 1 MB 340, 100 × 1 MB about 500).
  const repeats = Math.max(3, Math.min(500, Math.round(100_000_000 / size)))
  const step = async (): Promise<number> => {
    const agent = {}
    const claim = async (r: number): Promise<void> => {
      const message = { content: [{ type: 'text', text: body }], source: { kind: 'plugin', plugin: 'bench' }, role: 'user', id: `m${++claimed}` }
      await waterfall('agent/pre-step', { agent, messages: [message], turn: 1, step: r + 1, signal }, () => Promise.resolve({ kind: 'enter', messages: [message] }))
    }
    // One untimed message first: a new agent's first step grows its tables.
    await claim(0)
    const start = process.hrtime.bigint()
    for (let r = 1; r <= repeats; r++) await claim(r)
    return Number(process.hrtime.bigint() - start) / repeats
  }
  const sha1 = (): Promise<number> => {
    const start = process.hrtime.bigint()
    for (let r = 0; r < repeats; r++) hash('sha1', body, 'base64')
    return Promise.resolve(Number(process.hrtime.bigint() - start) / repeats)
  }
  await step()
  const t = await rounds({ step, sha1 })
  return { brakeMBps: size / t.step * 1e3, sha1MBps: size / t.sha1 * 1e3 }
}

export async function textScanning(report: Report): Promise<void> {
  const waterfall = await host('brake')
  const throughput: Record<number, { brakeMBps: number; sha1MBps: number }> = {}
  for (const size of SIZES) throughput[size] = await throughputAt(waterfall, size)
  report.figures['textThroughput'] = throughput
  const at1 = throughput[1_000_000]!.brakeMBps
  const linear = throughput[10_000_000]!.brakeMBps / at1
  report.row('pre-step text scanning at 1 MB', `${at1.toFixed(0)} MB/s`, '≥ 400 MB/s', at1 >= 400)
  report.row('  throughput at 10 MB ÷ at 1 MB (linear = 1)', ratio(linear), '≥ 0.80×', linear >= 0.8)
  report.row('  (1 KB / 100 KB / 1 MB / 10 MB; sha1 alone)', SIZES.map(s => throughput[s]!.brakeMBps.toFixed(0)).join(' / ') + ` MB/s; ${throughput[1_000_000]!.sha1MBps.toFixed(0)} MB/s`, '', undefined)
}
