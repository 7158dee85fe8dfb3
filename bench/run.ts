/**
 * `npm run bench`: what dsh-brake costs, measured against baselines in the same run and reported as ratios (medians
 * over repeated, interleaved rounds). Everything goes through a real Cordis waterfall, exactly as DSH dispatches
 * `tools/post-execute` and `agent/pre-step`; the plugin is the built `dist/`. Figures are printed as a table and
 * written to bench/results/latest.json. Set BENCH_ROUNDS to trade time for stability (default 11).
 *
 * `npm run bench -- [traces.jsonl.gz]`: real agent runs to replay beside the generated trace (by default
 * `../shared/real-traces/dev.jsonl.gz` when it is there; without any, that figure is left out).
 *
 * Each section is a file of bench/sections/ that measures one thing and adds its rows and data to the report; this
 * file picks the sections, runs them in the order below, and prints and writes what they give.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { ROUNDS } from './measure.ts'
import { Report, type Section } from './report.ts'
import { analyzeArchive } from './sections/analyze.ts'
import { perCall } from './sections/calls.ts'
import { memory } from './sections/memory.ts'
import { realRuns } from './sections/real.ts'
import { scaling } from './sections/scaling.ts'
import { sequenceLength } from './sections/sequence.ts'
import { streamWatch } from './sections/stream.ts'
import { telemetryRecords } from './sections/telemetry.ts'
import { textScanning } from './sections/text.ts'

/** The sections by the names BENCH_ONLY takes, in the order they run and report. */
const SECTIONS: Readonly<Record<string, Section>> = {
  calls: perCall,
  real: realRuns,
  scaling,
  sequence: sequenceLength,
  text: textScanning,
  memory,
  stream: streamWatch,
  analyze: analyzeArchive,
  telemetry: telemetryRecords,
}
/**
 * Run only some sections, e.g. BENCH_ONLY=memory,text (sections: calls, real, scaling, sequence, text, memory, stream,
 * analyze, telemetry).
 */
const ONLY = process.env['BENCH_ONLY']?.split(',')

const report = new Report()
for (const [name, section] of Object.entries(SECTIONS)) {
  if (ONLY === undefined || ONLY.includes(name)) await section(report)
}

console.log(`dsh-brake benchmarks — Node ${process.version}, ${ROUNDS} rounds, medians\n`)
for (const line of report.table()) console.log(line)
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
const out = { node: process.version, date: new Date().toISOString(), rounds: ROUNDS, figures: report.figures, table: report.rows }
writeFileSync(new URL('./results/latest.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`)
console.log('\nwritten to bench/results/latest.json')
