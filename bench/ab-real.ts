// temporary: interleaved A/B (CPU time of the process, which a busy machine disturbs less than wall time; WALL=1 for wall time) of two builds on the real runs (A = /work/dist-base, B = ./dist)
import { Context } from '@deepseek-ai/cordis'
import * as Reminder from '@deepseek-ai/dsh-repeat-tool-reminder'
import { loadRealRuns } from './real-runs.ts'
const A = await import(process.env.A ?? '../node_modules/.dist-base/index.js')
const B = await import(process.env.B ?? '../dist/index.js')
const real = (await loadRealRuns(new URL('../../shared/real-traces/dev.jsonl.gz', import.meta.url).pathname))!
const gc = (globalThis as any).gc as () => void
async function host(p: unknown) { const ctx = new Context(); if (p) await ctx.plugin(p as never, {} as never); return (ctx as any).waterfall.bind(ctx) }
const hosts: Record<string, any> = { none: await host(undefined), reminder: await host(Reminder), A: await host(A), B: await host(B) }
const signal = new AbortController().signal
const accept = () => Promise.resolve({ kind: 'accept' })
async function replay(waterfall: any) {
  const enter = (messages: unknown) => Promise.resolve({ kind: 'enter', messages })
  let i = 0
  const start = process.env.WALL ? undefined : process.cpuUsage()
  const wall = process.hrtime.bigint()
  for (const run of real.runs) {
    const agent = {}
    let step = 0
    for (const event of run) {
      if (event.kind === 'prompt') { const messages = [event.message]; await waterfall('agent/pre-step', { agent, messages, turn: 1, step: ++step, signal }, () => enter(messages)) }
      else { await waterfall('tools/post-execute', { token: Symbol('exec'), callId: `call_${i}`, rootCallId: `call_${i}`, name: event.name, signal, agent, arguments: event.args }, event.result, accept); i++ }
    }
  }
  if (start === undefined) return Number(process.hrtime.bigint() - wall) / real.calls
  const used = process.cpuUsage(start)
  return (used.user + used.system) * 1000 / real.calls
}
for (const k of Object.keys(hosts)) await replay(hosts[k])
const samples: Record<string, number[]> = { none: [], reminder: [], A: [], B: [] }
const ratios: number[] = []
const n = Number(process.env.N ?? 9)
const order = Object.keys(hosts)
for (let r = 0; r < n; r++) {
  const round: Record<string, number> = {}
  for (let j = 0; j < order.length; j++) { const k = order[(j + r) % order.length]!; gc(); round[k] = await replay(hosts[k]); samples[k]!.push(round[k]!) }
  ratios.push((round.B! - round.none!) / (round.A! - round.none!))
}
const med = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return s[s.length >> 1]! }
const none = med(samples.none!)
console.log(`none ${none.toFixed(0)}  reminder +${(med(samples.reminder!) - none).toFixed(0)}  A +${(med(samples.A!) - none).toFixed(0)}  B +${(med(samples.B!) - none).toFixed(0)} ns/call;  B/A medians ${((med(samples.B!) - none) / (med(samples.A!) - none)).toFixed(3)}  per-round ${med(ratios).toFixed(3)};  B/reminder ${((med(samples.B!) - none) / (med(samples.reminder!) - none)).toFixed(2)}`)
