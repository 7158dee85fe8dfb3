/**
 * The sentences and lines of a response's prose, kept for the window the watch keeps, each with how often it came
 * before there: a response cycling through a few sentences in any order (`I'll do it. I'll implement it. I'll
 * start.`), or re-printing a paragraph in fragments cut at different points, is text that keeps coming back, where
 * the period scan, which needs copies back to back, sees none. Prose only: a sentence or line of at least
 * {@link MIN_SENTENCE} folded characters, outside code fences, with no mark of code or data (brackets, quotes, `=`,
 * `;`, a table's `|`, a `key:` opening it) and with a letter: code, data and logs repeat lines legitimately, and are
 * never counted.
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/sentence-ledger
 */
import { DIGITS } from './fold.js'

/** The fewest folded characters a sentence or line counts with (`Done.` and `}` come back in any text). */
export const MIN_SENTENCE = 8

/**
 * Copies of a sentence before one that counts as come back: two, so that a passage said twice is no loop (as the
 * characters rule needs three copies).
 */
export const BEFORE = 2

/** What the ledger reads of the window: its folded characters and their numbers, and where code fences are. */
export interface LedgerSource {
  readonly ring: Uint16Array
  readonly window: number
  readonly folded: number
  /** Whether the folded character `at` (counted from the text's start) lies inside a code fence. */
  fencedAt(at: number): boolean
  /** The value of the digits folded into the character `at` (0 for other characters). */
  valueAt(at: number): number
}

/** The prose of the run, the last characters of the text: how much of it there is, and how much of that came back. */
export interface ProseRun {
  /** Folded characters of the prose sentences and lines in the run. */
  readonly prose: number
  /** Of those, the characters of sentences and lines written {@link BEFORE} times before in the window. */
  readonly back: number
}

/** Places for sentences a ledger starts with. */
const INITIAL = 32
/** A sentence's flags: it came back; a line break ends it. */
const BACK = 1
const LINE_END = 2

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const LINE = 0x0a
const SPACE = 0x20

/**
 * The ledger of one text. Sentences are read from the window at each look (all but its last character, which a run
 * of digits or white space may still rewrite), hashed with their numbers' values, and kept in a ring while they lie
 * in the window, with a count of each hash's copies there. It reads every folded character
 * once more, and keeps at most a window's sentences.
 */
export class SentenceLedger {
  private readonly window: number
  private readonly run: number
  // The ring of counted sentences in the window, oldest first: where each begins and ends (folded), its hash, and its
  // flags (come back, ended by a line break). Plain arrays, not typed ones: a ledger is made for every block looked at,
  // and memory outside the heap costs a microsecond or so a buffer to make, more than a short block's reading. They
  // start small and double as they fill, up to the most a window holds (prose of 60 characters a sentence fills 100).
  private readonly capacity: number
  private starts: number[] = new Array<number>(INITIAL).fill(0)
  private ends: number[] = new Array<number>(INITIAL).fill(0)
  private hashes: number[] = new Array<number>(INITIAL).fill(0)
  private flags: number[] = new Array<number>(INITIAL).fill(0)
  private first = 0
  private count = 0
  // The sentences of the run (the ring's latest), and its sums.
  private runCount = 0
  private runProse = 0
  private runBack = 0
  // Copies of each hash in the window.
  private readonly copies = new Map<number, number>()
  // The sentence being read: where it began, its hash and length, whether it is still prose and still could be a
  // `key:`, and the characters before.
  private readTo = 0
  private start = 0
  private hash = FNV_OFFSET
  private length = 0
  private prose = true
  private opening = true
  private worded = false
  private taken = SPACE
  private previous = LINE

  /** A ledger over a window of `window` folded characters, whose run is the last `run` of them. */
  constructor(window: number, run: number) {
    this.window = window
    this.run = run
    this.capacity = Math.max(INITIAL, Math.ceil(window / (MIN_SENTENCE + 1)) + 2)
  }

  /**
   * Read what the window has gained since the last read, forget what left it, and sum up the run. One loop over plain
   * locals, written back at its end: it reads every folded character once more.
   */
  read(source: LedgerSource): ProseRun {
    const { ring, window } = source
    const to = source.folded - 1
    let { start, hash, length, prose, opening, worded, taken, previous } = this
    const from = Math.max(this.readTo, to - window + 1)
    if (from > this.readTo) {
      // What was not read has left the window: the sentence it ends in began there, and is not counted.
      start = from
      length = 0
      prose = false
      previous = 0
    }
    // The ring's place of `at`, kept beside it: a remainder for every character would cost more than the rest.
    for (let at = from, place = from % window; at < to; at++, place = place + 1 === window ? 0 : place + 1) {
      const code = ring[place]!
      const before = previous
      previous = code
      // A line's end, or a sentence's (`. `, `! `, `? `; `。`, `！` and `？` end one by themselves).
      const cjk = code === 0x3002 || code === 0xff01 || code === 0xff1f
      if (code === LINE || cjk || (code === SPACE && (before === 0x2e || before === 0x21 || before === 0x3f))) {
        const end = cjk ? at + 1 : at
        if (prose && worded && length + (cjk ? 1 : 0) >= MIN_SENTENCE && !source.fencedAt(end - 1)) {
          this.add(start, end, cjk ? Math.imul(hash ^ code, FNV_PRIME) : hash, code === LINE)
        }
        start = at + 1
        hash = FNV_OFFSET
        length = 0
        prose = true
        opening = true
        worded = false
        continue
      }
      if (length === 0 && code === SPACE) {
        start = at + 1
        continue
      }
      length++
      if (!prose) continue
      hash = Math.imul(hash ^ code, FNV_PRIME)
      if (code === DIGITS) hash = Math.imul(hash ^ source.valueAt(at), FNV_PRIME)
      // The marks of code and data: brackets, quotes (not an apostrophe after a letter), `=`, `;`, a table's `|`
      // opening the line, a `key:` opening it (a list's `- key:` too).
      const kind = code < 0x80 ? KINDS[code]! : LETTER
      if (kind <= WORD) {
        worded ||= kind === LETTER
        taken = code
        continue
      }
      if (kind === MARK || (kind === QUOTE && (length === 1 || !isLetter(taken))) || (code === 0x7c && length === 1)
        || (code === 0x3a && opening && length > 1)) {
        prose = false
      } else if (opening) {
        opening = code === SPACE && length === 2 && taken === 0x2d
      }
      taken = code
    }
    this.readTo = Math.max(this.readTo, to)
    this.start = start
    this.hash = hash
    this.length = length
    this.prose = prose
    this.opening = opening
    this.worded = worded
    this.taken = taken
    this.previous = previous
    this.forget(source.folded)
    return { prose: this.runProse, back: this.runBack }
  }

  /**
   * The sentences that came back in the run, each once, in the order they first did there, each read by `text` (the
   * folded range of its latest copy, as the model wrote it); and the folded characters from the run's first sentence
   * to `folded`.
   */
  returning(text: (from: number, to: number) => string, folded: number): { unit: string; span: number } {
    const capacity = this.ends.length
    // Each sentence's latest copy, by hash, in the order the sentences first came back.
    const latest = new Map<number, number>()
    let from = folded
    for (let n = 0, i = (this.first + this.count - this.runCount) % capacity; n < this.runCount; n++, i = (i + 1) % capacity) {
      from = Math.min(from, this.starts[i]!)
      if ((this.flags[i]! & BACK) !== 0) latest.set(this.hashes[i]!, i)
    }
    let unit = ''
    for (const i of latest.values()) unit += text(this.starts[i]!, this.ends[i]!) + ((this.flags[i]! & LINE_END) !== 0 ? '\n' : ' ')
    return { unit, span: folded - from }
  }

  /**
   * Count the sentence from `start` to `end` (folded), of `full` (a 32-bit hash), in the window and the run. Kept as
   * 30 bits: small integers, which the arrays and the map hold as they are, where a 32-bit one would be a double.
   */
  private add(start: number, end: number, full: number, lineEnd: boolean): void {
    const hash = full & 0x3fffffff
    if (this.count === this.ends.length) {
      if (this.count < this.capacity) this.grow()
      else this.dropOldest()
    }
    const copies = this.copies.get(hash) ?? 0
    this.copies.set(hash, copies + 1)
    const i = (this.first + this.count) % this.ends.length
    this.starts[i] = start
    this.ends[i] = end
    this.hashes[i] = hash
    this.flags[i] = (copies >= BEFORE ? BACK : 0) | (lineEnd ? LINE_END : 0)
    this.count++
    this.runCount++
    this.runProse += end - start
    if (copies >= BEFORE) this.runBack += end - start
  }

  /** Forget the sentences that left the run, and those that left the window. */
  private forget(folded: number): void {
    const capacity = this.ends.length
    while (this.runCount > 0) {
      const i = (this.first + this.count - this.runCount) % capacity
      if (this.ends[i]! > folded - this.run) break
      this.leaveRun(i)
    }
    while (this.count > 0 && this.starts[this.first]! <= folded - this.window) this.dropOldest()
  }

  /** Drop the oldest sentence of the ring (out of the run first, should it still be in it). */
  private dropOldest(): void {
    const i = this.first
    if (this.runCount === this.count) this.leaveRun(i)
    const copies = this.copies.get(this.hashes[i]!)! - 1
    if (copies === 0) this.copies.delete(this.hashes[i]!)
    else this.copies.set(this.hashes[i]!, copies)
    this.first = (i + 1) % this.ends.length
    this.count--
  }

  /** Take sentence `i`, the run's oldest, out of the run and its sums. */
  private leaveRun(i: number): void {
    const length = this.ends[i]! - this.starts[i]!
    this.runProse -= length
    if ((this.flags[i]! & BACK) !== 0) this.runBack -= length
    this.runCount--
  }

  /** Twice the places, the sentences moved to the start of them in order. */
  private grow(): void {
    const size = Math.min(this.capacity, 2 * this.ends.length)
    const ordered = (array: readonly number[]): number[] => {
      const made = new Array<number>(size).fill(0)
      for (let n = 0; n < this.count; n++) made[n] = array[(this.first + n) % array.length]!
      return made
    }
    this.starts = ordered(this.starts)
    this.ends = ordered(this.ends)
    this.hashes = ordered(this.hashes)
    this.flags = ordered(this.flags)
    this.first = 0
  }
}

/**
 * What an ASCII character is to the prose test: a letter, or another part of a word (a `key:` may be made of them),
 * a mark of code or data, an apostrophe, or other. Prose has a letter: a line of numbers alone is data.
 */
const LETTER = 0
const WORD = 1
const MARK = 2
const QUOTE = 3
const OTHER = 4
const KINDS = new Uint8Array(0x80).fill(OTHER)
for (let code = 0; code < 0x80; code++) {
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) KINDS[code] = LETTER
  else if (code === DIGITS || code === 0x5f || code === 0x2e || code === 0x2d) KINDS[code] = WORD
}
// Brackets, `<` and `>`, `=`, `;`, double quotes and backticks; an apostrophe marks a quote only after no letter.
for (const mark of '{}[]<>=;"`') KINDS[mark.charCodeAt(0)] = MARK
KINDS[0x27] = QUOTE

/** A letter (any code unit past Latin-1's punctuation counts, as other scripts' letters and marks do). */
function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code >= 0xc0
}
