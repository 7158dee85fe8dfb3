// temporary: replay real runs through the brake only, for a CPU profile
import { Context } from '@deepseek-ai/cordis'
import * as Brake from '../dist/index.js'
import * as Reminder from '@deepseek-ai/dsh-repeat-tool-reminder'
import { loadRealRuns } from './real-runs.ts'
const real = (await loadRealRuns(new URL('../../shared/real-traces/dev.jsonl.gz', import.meta.url).pathname))!
const which = process.env.WHICH ?? 'brake'
const ctx = new Context()
if (which === 'brake') await ctx.plugin(Brake as never, {} as never)
if (which === 'reminder') await ctx.plugin(Reminder as never, {} as never)
const waterfall = (ctx as any).waterfall.bind(ctx)
const signal = new AbortController().signal
const accept = () => Promise.resolve({ kind: 'accept' })
async function replay() {
  const enter = (messages: unknown) => Promise.resolve({ kind: 'enter', messages })
  let i = 0
  const start = process.hrtime.bigint()
  for (const run of real.runs) {
    const agent = {}
    let step = 0
    for (const event of run) {
      if (event.kind === 'prompt') {
        const messages = [event.message]
        await waterfall('agent/pre-step', { agent, messages, turn: 1, step: ++step, signal }, () => enter(messages))
      } else {
        await waterfall('tools/post-execute', { token: Symbol('exec'), callId: `call_${i}`, rootCallId: `call_${i}`, name: event.name, signal, agent, arguments: event.args }, event.result, accept)
        i++
      }
    }
  }
  return Number(process.hrtime.bigint() - start) / real.calls
}
const n = Number(process.env.N ?? 8)
for (let k = 0; k < 2; k++) await replay()
const { Session } = await import('node:inspector/promises')
const { writeFileSync } = await import('node:fs')
const session = new Session()
if (process.env.PROF) { session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 100 }); await session.post('Profiler.start') }
const times: number[] = []
for (let k = 0; k < n; k++) times.push(await replay())
if (process.env.PROF) { const { profile } = await session.post('Profiler.stop'); writeFileSync(process.env.PROF, JSON.stringify(profile)) }
times.sort((a, b) => a - b)
console.log(which, 'median', times[times.length >> 1]!.toFixed(0), 'ns/call', times.map(t => t.toFixed(0)).join(' '))
