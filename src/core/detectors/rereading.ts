/**
 * Paging over old ground: windows of one file that go over lines already read, since the last change. One pass
 * through a file, even an aimless one, brings new lines with nearly every window; a pass that replays itself (the
 * same windows again, backwards then forwards, or shifted a little) brings almost none.
 *
 * A window **goes over old ground** when at least half of its lines were shown by earlier windows of the file, not
 * counting the window right before it (a pass whose windows overlap a little, or slide by half, is still one pass)
 * nor windows more than twice its size (reading a function closely after skimming the file around it is not reading
 * it again). The file's windows are a loop when `first` of its latest `among` went over old ground; then the
 * schedule goes on in windows that go over old ground, as long as they drift (two of them no exact repeat of an
 * earlier window): a pass replayed window for window is told on by the exact detectors, as one loop. Progress forgets
 * every window: a file that may have changed is worth reading again.
 * @module dsh-brake/core/detectors/rereading
 */
import { touch } from '../tables/bounded-map.js'
import type { CallStep } from '../types.js'
import type { Evidence, RereadingFinding } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the rereading detector. */
export interface RereadingOptions {
  /** When notices fall: `first` is how many of the file's latest `among` windows went over old ground. */
  readonly schedule: Schedule
  readonly among: number
}

/** Files whose windows are remembered at once, the least recently read forgotten first. */
export const FILES = 16
/** Windows remembered per file, the oldest forgotten first. */
export const WINDOWS = 32
/** Ranges a finding names at most (the latest windows that went over old ground, merged). */
const RANGES = 8
/** Windows larger than this many times a window do not count as having shown its lines. */
const ZOOM = 2

interface FileReads {
  /**
   * Windows read: first and last line, and the window's number among the file's reads. Columns that grow with the
   * windows (a slot at their end is appended) until {@link WINDOWS} long, then are written over, oldest slot first.
   */
  readonly firsts: number[]
  readonly lasts: number[]
  readonly numbers: number[]
  /** Whether each window went over old ground (1) or not (0). */
  readonly olds: number[]
  reads: number
  /** Whether each of the latest windows went over old ground (a bit per window, the latest lowest). */
  recent: number
  /** Windows that went over old ground, and that count at the latest notice. */
  count: number
  noticed: number
  /** Windows over old ground since the latest notice that were no exact repeat of an earlier window. */
  drifted: number
  /**
   * The keys of the windows that went over old ground (the loop is made of them), the latest last. Made at the first
   * such window, as most files read between two changes never have one.
   */
  keys: Set<number> | undefined
  /** The ranges they showed, the latest last. Made at the first window over old ground, as `keys` is. */
  ranges: { first: number; last: number }[] | undefined
}

function fileReads(): FileReads {
  // Plain columns, not typed ones: one set for every file an agent pages through between two changes (see columns.ts),
  // and most such files get a few windows, not {@link WINDOWS}.
  return {
    firsts: [], lasts: [], numbers: [], olds: [], reads: 0, recent: 0, count: 0, noticed: 0, drifted: 0, keys: undefined, ranges: undefined,
  }
}

/** Create a rereading detector. */
export function createRereadingDetector(options: RereadingOptions): Detector<CallStep, Evidence<RereadingFinding>> {
  const files = new Map<string, FileReads>()
  const mask = (1 << options.among) - 1
  let epoch = -1

  return {
    observe({ call, epoch: now, revisit }) {
      const window = call.window
      if (window === undefined || call.refused || call.failed || window.last < window.first) return undefined
      if (now !== epoch) {
        // Emptied only when it holds something: emptying a Map makes it a fresh table.
        if (files.size > 0) files.clear()
        epoch = now
      }
      const reads = touch(files, window.file, FILES, fileReads)
      const { first, last } = window
      const old = 2 * shownBefore(reads, first, last) >= last - first + 1
      const slot = reads.reads % WINDOWS
      reads.reads++
      reads.firsts[slot] = first
      reads.lasts[slot] = last
      reads.numbers[slot] = reads.reads
      reads.olds[slot] = old ? 1 : 0
      reads.recent = ((reads.recent << 1) | (old ? 1 : 0)) & mask
      if (!old) return undefined
      reads.count++
      if (!revisit) reads.drifted++
      const keys = reads.keys ??= new Set()
      keys.delete(call.key)
      keys.add(call.key)
      if (keys.size > WINDOWS) keys.delete(keys.values().next().value!)
      const ranges = reads.ranges ??= []
      ranges.push({ first, last })
      if (ranges.length > RANGES) ranges.shift()
      // Once told, a pass replayed window for window is exact repetition, which the other detectors go on telling.
      const due = reads.noticed === 0
        ? bits(reads.recent) >= options.schedule.first && spread(reads, options.among)
        : isDue(options.schedule, reads.count, reads.noticed) && reads.drifted >= 2
      if (!due) return undefined
      reads.noticed = reads.count
      reads.drifted = 0
      return {
        finding: { kind: 'rereading', file: window.file, count: reads.count, ranges: merged(ranges) },
        calls: [...keys],
      }
    },
    reset() {
      files.clear()
      epoch = -1
    },
    size: () => ({ files: files.size, windows: [...files.values()].reduce((sum, reads) => sum + Math.min(reads.reads, WINDOWS), 0) }),
  }
}

/**
 * How many lines of `first`–`last` earlier windows of `reads` showed (not the latest one, nor much larger ones). A
 * function of the module, not a closure: it is made once, not for every agent.
 */
function shownBefore(reads: FileReads, first: number, last: number): number {
  // A file's first window shows nothing read before.
  if (reads.reads === 0) return 0
  const size = last - first + 1
  const overlaps: [number, number][] = []
  for (let i = 0; i < Math.min(reads.reads, WINDOWS); i++) {
    if (reads.numbers[i]! >= reads.reads) continue
    const from = Math.max(first, reads.firsts[i]!)
    const to = Math.min(last, reads.lasts[i]!)
    if (from <= to && reads.lasts[i]! - reads.firsts[i]! + 1 <= ZOOM * size) overlaps.push([from, to])
  }
  return union(overlaps)
}

/**
 * Whether the latest `among` windows that went over old ground are spread over the file: together they show at least
 * twice the lines of the largest of them. Reading one spot again and again (a few lines looked at closely before an
 * edit) is not a pass replaying itself; a repeat of the same window is the identical-call detector's.
 */
function spread(reads: FileReads, among: number): boolean {
  const windows: [number, number][] = []
  let largest = 0
  for (let back = 1; back <= Math.min(among, reads.reads, WINDOWS); back++) {
    const slot = (reads.reads - back) % WINDOWS
    if (reads.olds[slot] === 0) continue
    windows.push([reads.firsts[slot]!, reads.lasts[slot]!])
    largest = Math.max(largest, reads.lasts[slot]! - reads.firsts[slot]! + 1)
  }
  return 2 * largest <= union(windows)
}

/** How many lines the ranges cover together. */
function union(ranges: [number, number][]): number {
  ranges.sort((a, b) => a[0] - b[0])
  let lines = 0
  let end = -Infinity
  for (const [from, to] of ranges) {
    if (to <= end) continue
    lines += to - Math.max(from, end + 1) + 1
    end = to
  }
  return lines
}

/** How many bits of `value` are set. */
function bits(value: number): number {
  let count = 0
  for (let rest = value; rest !== 0; rest &= rest - 1) count++
  return count
}

/** Ranges merged where they overlap or touch, in file order. */
function merged(ranges: readonly { first: number; last: number }[]): { first: number; last: number }[] {
  const sorted = [...ranges].sort((a, b) => a.first - b.first)
  const out: { first: number; last: number }[] = []
  for (const range of sorted) {
    const previous = out.at(-1)
    if (previous !== undefined && range.first <= previous.last + 1) previous.last = Math.max(previous.last, range.last)
    else out.push({ ...range })
  }
  return out
}
