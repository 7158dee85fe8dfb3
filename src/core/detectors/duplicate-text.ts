/**
 * Duplicate context text: the same paragraph arriving again and again in the messages an agent claims (a hook's
 * reminder every step, a memory plugin replaying a block). Time-based, it keeps a schedule of its own rather than
 * the re-warn schedule of the call detectors.
 * Design: docs/design.md#duplicate-context-text
 * @module dsh-brake/core/detectors/duplicate-text
 */
import { touch } from '../tables/bounded-map.js'
import { withRangeFingerprints } from '../tables/fingerprint.js'
import { createLruTable, type LruTable } from '../tables/lru-table.js'
import type { DuplicateBlock, DuplicateTextFinding } from '../kinds.js'
import type { Detector } from './detector.js'

/** Thresholds and bounds of the duplicate-text detector. */
export interface DuplicateTextOptions {
  /** Occurrences within the window that trip a block. */
  readonly threshold: number
  /** The window occurrences are counted in, in milliseconds. */
  readonly windowMs: number
  /** How long a block stays quiet after it tripped, in milliseconds. */
  readonly cooldownMs: number
  /** Blocks shorter than this (normalized UTF-16 code units) are ignored. */
  readonly minChars: number
  /** How many distinct blocks are remembered; the least recently seen is forgotten first. */
  readonly maxTracked: number
  /** How many message ids are remembered for replay detection. */
  readonly maxMessageIds: number
  /** How many characters of a block's beginning a finding carries. */
  readonly headChars: number
}

/** One claimed message, reduced to what the detector reads. */
export interface TextMessage {
  readonly id: string
  /** Who produced it, as the notice should name it (e.g. `plugin hooks-claude-code`). */
  readonly source: string
  /** The message's text content blocks. */
  readonly texts: readonly string[]
}

/** The messages claimed for one step, and when. */
export interface TextObservation {
  /** Milliseconds on any monotonic-enough clock; only differences are used. */
  readonly at: number
  readonly messages: readonly TextMessage[]
}

/** What `size()` tells of a detector that has observed nothing: for a holder that makes it at its first observation. */
export const NO_TEXT_SIZE: Readonly<Record<string, number>> = Object.freeze({ blocks: 0, messageIds: 0 })

/** Sources listed per block at most; more only make the notice longer. */
const MAX_SOURCES = 4

/** The value of every remembered message id; one function for all, not one per message. */
const yes = (): true => true

/**
 * One tracked block. Most blocks are seen once, so an entry starts small: the timestamp list and the source list are
 * only allocated once a second occurrence (or a second source) needs them.
 */
interface BlockEntry {
  /** Occurrences since the last trip. */
  count: number
  /** The latest occurrence. */
  last: number
  /** Timestamps of the most recent occurrences since the last trip (at most `threshold`), from the second on. */
  times: number[] | undefined
  /** The source of the first occurrence, or the distinct sources once there is more than one. */
  sources: string | string[]
  quietUntil: number
}

function addSource(entry: BlockEntry, source: string): void {
  const sources = entry.sources
  if (typeof sources === 'string') {
    if (sources !== source) entry.sources = [sources, source]
  } else if (sources.length < MAX_SOURCES && !sources.includes(source)) {
    sources.push(source)
  }
}

const fresh = (): BlockEntry => ({ count: 0, last: 0, times: undefined, sources: '', quietUntil: -Infinity })

function reuse(entry: BlockEntry): void {
  entry.count = 0
  entry.last = 0
  entry.times = undefined
  entry.sources = ''
  entry.quietUntil = -Infinity
}

/** Create a duplicate-text detector. */
export function createDuplicateTextDetector(options: DuplicateTextOptions): Detector<TextObservation, DuplicateTextFinding> {
  // The blocks' table and the message ids are made at the first observation: an agent given no text to claim (no
  // plugin adds any) never needs them.
  let blocks: LruTable | undefined
  // Per slot of `blocks`; an entry is reused when its slot passes to another block.
  const entries: BlockEntry[] = []
  let messageIds: Map<string, true> | undefined

  function occur(
    table: LruTable, key: number, text: string, start: number, end: number, source: string, at: number,
  ): DuplicateBlock | undefined {
    const slot = table.use(key)
    let entry = entries[slot]
    if (entry === undefined) entries[slot] = entry = fresh()
    else if (table.added) reuse(entry)
    if (entry.count++ === 0) {
      entry.last = at
      if (typeof entry.sources === 'string') entry.sources = source
      else entry.sources.push(source)
      return undefined
    }
    const times = entry.times ??= [entry.last]
    entry.last = at
    times.push(at)
    if (times.length > options.threshold) times.shift()
    addSource(entry, source)
    // Evidence starts over after each notice, so every notice needs `threshold` fresh occurrences, and a cooldown.
    if (times.length < options.threshold) return undefined
    if (at - times[0]! > options.windowMs || at < entry.quietUntil) return undefined
    const found: DuplicateBlock = {
      count: entry.count,
      sources: typeof entry.sources === 'string' ? [entry.sources] : entry.sources,
      head: text.slice(start, Math.min(end, start + options.headChars)),
      length: end - start,
    }
    // Escalation needs fresh evidence: the next notice for this block counts from zero again.
    entry.times = undefined
    entry.sources = []
    entry.count = 0
    entry.quietUntil = at + options.cooldownMs
    return found
  }

  return {
    observe({ at, messages }) {
      let found: DuplicateBlock[] | undefined
      const ids = messageIds ??= new Map()
      const table = blocks ??= createLruTable(options.maxTracked)
      for (const message of messages) {
        if (ids.has(message.id)) continue
        touch(ids, message.id, options.maxMessageIds, yes)
        for (const raw of message.texts) {
          const text = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw
          // The text is loaded for hashing once; each block is hashed where it lies.
          withRangeFingerprints(text, (range) => {
            forEachBlock(text, (start, end) => {
              if (end - start < options.minChars) return
              const block = occur(table, range(start, end), text, start, end, message.source, at)
              if (block !== undefined) (found ??= []).push(block)
            })
          })
        }
      }
      return found === undefined ? undefined : { kind: 'duplicate-text', blocks: found, threshold: options.threshold, windowMs: options.windowMs }
    },
    reset() {
      blocks?.clear()
      entries.length = 0
      messageIds?.clear()
    },
    size: () => ({ blocks: blocks?.size ?? 0, messageIds: messageIds?.size ?? 0 }),
  }
}

/**
 * Call `visit(start, end)` for every block of `text`: a maximal run of non-blank lines, from the first character of
 * its first line to the last character of its last line. A blank line holds only spaces and tabs (and the
 * vertical-tab and form-feed characters). Line breaks must already be normalized to `\n`. One native `indexOf` per
 * line finds them: cheaper than a regular expression for the separators, or a loop over the characters.
 */
export function forEachBlock(text: string, visit: (start: number, end: number) => void): void {
  let blockStart = -1
  let blockEnd = -1
  let lineStart = 0
  const length = text.length
  while (lineStart <= length) {
    let lineEnd = text.indexOf('\n', lineStart)
    if (lineEnd === -1) lineEnd = length
    if (isBlank(text, lineStart, lineEnd)) {
      if (blockStart !== -1) visit(blockStart, blockEnd)
      blockStart = -1
    } else {
      if (blockStart === -1) blockStart = lineStart
      blockEnd = lineEnd
    }
    lineStart = lineEnd + 1
  }
  if (blockStart !== -1) visit(blockStart, blockEnd)
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i)
    if (code !== 32 && code !== 9 && code !== 11 && code !== 12) return false
  }
  return true
}
