/**
 * `analyze`: `dsh-brake analyze` as a user runs it, on a generated archive of 10,000 real-shaped session logs (made
 * once, in the system's temporary folder): what it keeps at 10,000 sessions against 1,000, and its time per session
 * against decoding and parsing the logs alone.
 * @module
 */
import { spawnSync } from 'node:child_process'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readSessionLog } from '../../src/session-logs/decode.ts'
import { sessionFiles } from '../../src/session-logs/find.ts'
import { makeArchive, PER_PROJECT } from '../archive.ts'
import { rounds } from '../measure.ts'
import { ratio, type Report } from '../report.ts'

const SESSIONS = 10_000

/** One run of the command: its wall time per session, the peak of what it keeps, and its peak resident memory. */
interface Run {
  perSession: number
  keptMiB: number
  rssMiB: number
}

/**
 * The command on `path`, in a process of its own: its wall time per session and its peak resident memory; with
 * `kept`, run again with full collections every 250 ms, the peak of what it keeps (bench/analyze-child.mjs).
 */
function command(path: string, sessions: number, flags: string[] = [], kept = false): Run {
  const child = spawnSync(process.execPath, [
    ...kept ? ['--expose-gc'] : [], fileURLToPath(new URL('../analyze-child.mjs', import.meta.url)), 'analyze', '--json', ...flags, path,
  ], {
    encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024,
  })
  const last = child.stderr.trim().split('\n').at(-1) ?? ''
  if (child.status !== 0) throw new Error(`analyze failed (${String(child.status)}): ${child.stderr.slice(-400)}`)
  const { wallMs, maxRssKiB, keptKiB } = JSON.parse(last) as { wallMs: number; maxRssKiB: number; keptKiB: number }
  return { perSession: wallMs * 1e6 / sessions, keptMiB: keptKiB / 1024, rssMiB: maxRssKiB / 1024 }
}

/** Resident memory of decoding and parsing alone, in a process of its own: Node's zstd decoder's share of the figure. */
function decodeOnly(path: string): number {
  const child = spawnSync(process.execPath, ['--import', fileURLToPath(new URL('../../scripts/ts-imports.mjs', import.meta.url)), '--input-type=module', '-e',
    `import { sessionFiles } from './src/session-logs/find.ts'; import { readSessionLog } from './src/session-logs/decode.ts'
     for (const file of sessionFiles(${JSON.stringify(path)})) readSessionLog(file)
     process.stdout.write(String(process.resourceUsage().maxRSS))`], { encoding: 'utf8', cwd: fileURLToPath(new URL('../../', import.meta.url)) })
  return Number(child.stdout) / 1024
}

/** Each timed three times, the median kept: one run of the command is one sample of a shared machine. */
function timed(path: string, sessions: number, flags: string[] = []): Run {
  const runs = [0, 1, 2].map(() => command(path, sessions, flags)).sort((a, b) => a.perSession - b.perSession)
  return runs[1]!
}

/** The peak of what a run keeps catches what happens to be alive at a sample: the median of three runs, as for time. */
function kept(path: string, sessions: number): number {
  return [0, 1, 2].map(() => command(path, sessions, [], true).keptMiB).sort((a, b) => a - b)[1]!
}

/** Decoding and parsing `files` alone, on this one thread, in ns a log: what reading the logs costs before anything is analyzed. */
async function decoding(files: readonly string[]): Promise<number> {
  const decode = (): Promise<number> => {
    const start = process.hrtime.bigint()
    let events = 0
    for (const file of files) events += readSessionLog(file).events.length
    if (events === 0) throw new Error('the archive has no events')
    return Promise.resolve(Number(process.hrtime.bigint() - start))
  }
  await decode()
  return (await rounds({ decode })).decode / files.length
}

export async function analyzeArchive(report: Report): Promise<void> {
  // Made once and kept (a few hundred MB): real-shaped logs in folders of 1,000 (bench/archive.ts).
  const dir = makeArchive(join(tmpdir(), 'dsh-brake-bench-archive-v1'), SESSIONS)
  const part = join(dir, 'sessions', 'project-0')
  const decoded = await decoding(sessionFiles(part))
  const small = timed(part, PER_PROJECT)
  const large = timed(dir, SESSIONS)
  const oneThread = timed(part, PER_PROJECT, ['--jobs', '1'])
  const keptSmall = kept(part, PER_PROJECT)
  const keptLarge = kept(dir, SESSIONS)
  const memory = keptLarge / keptSmall
  const resident = large.rssMiB / small.rssMiB
  const decodeResident = [decodeOnly(part), decodeOnly(dir)] as const
  const time = large.perSession / decoded
  report.figures['analyze'] = {
    sessions: [PER_PROJECT, SESSIONS], cores: availableParallelism(), decodeMsPerSession: decoded / 1e6,
    msPerSession: { [PER_PROJECT]: small.perSession / 1e6, [SESSIONS]: large.perSession / 1e6, oneThread: oneThread.perSession / 1e6 },
    keptMiB: { [PER_PROJECT]: keptSmall, [SESSIONS]: keptLarge }, keptRatio: memory,
    residentMiB: { [PER_PROJECT]: small.rssMiB, [SESSIONS]: large.rssMiB }, residentRatio: resident,
    decodeOnlyResidentMiB: { [PER_PROJECT]: decodeResident[0], [SESSIONS]: decodeResident[1] },
    wallOverDecode: time, oneThreadOverDecode: oneThread.perSession / decoded,
  }
  report.row(`analyze: peak memory kept at ${SESSIONS} sessions ÷ at ${PER_PROJECT}`, ratio(memory), '≤ 1.25×', memory <= 1.25)
  report.row(`  (kept: heap and buffers after a full collection, at ${PER_PROJECT} / ${SESSIONS})`, `${keptSmall.toFixed(1)} / ${keptLarge.toFixed(1)} MiB`, '', undefined)
  report.row(`  (resident, workers included: ${ratio(resident)}; decoding alone: ${ratio(decodeResident[1] / decodeResident[0])})`,
    `${small.rssMiB.toFixed(0)} / ${large.rssMiB.toFixed(0)} MiB; ${decodeResident[0].toFixed(0)} / ${decodeResident[1].toFixed(0)} MiB`, '', undefined)
  report.row(`analyze: wall per session (${availableParallelism()} cores) ÷ decoding and parsing alone on one`, ratio(time), '≤ 1.50×', time <= 1.5)
  report.row('  (per session: decode and parse / analyze on all cores / on one thread)', `${(decoded / 1e6).toFixed(2)} / ${(large.perSession / 1e6).toFixed(2)} / ${(oneThread.perSession / 1e6).toFixed(2)} ms`, '', undefined)
}
