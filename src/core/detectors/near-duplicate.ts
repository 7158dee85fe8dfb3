/**
 * Near-duplicate calls: a stretch of calls whose results bring no news, although their arguments differ. A person
 * watching sees it where no exact rule can: grep after grep for one name under other spellings, every one empty; a
 * program run again and again under cosmetic variations, printing the same output; a line confirmed once more that
 * was on the screen already.
 *
 * A call brings no news when its result is
 * - **a repeat**: the same call, with the result it gave before and nothing changed since (the step says so);
 * - **nothing**: a lookup that found nothing (the adapter reads the result: an empty search, a path that does not
 *   exist);
 * - **the same output** as another call's, since the last progress (not a short one: "True" twice is two answers);
 * - **lines already seen**: a lookup whose every line of content was in an earlier result.
 *
 * Some of these ask again what was already answered: a repeat, the same output, or a lookup that found nothing
 * where an earlier one already found nothing for a related question (one name containing the other, in the same
 * place or a place within it). Those are what make a stretch a loop rather than a search: a plan that looks for
 * eight different names, or one name in eight different files, finds nothing eight times and asks nothing twice.
 *
 * A stretch is the calls that bring no news with at most one call of news between two of them; two calls of news in
 * a row, or progress, end it. It is a loop when it holds `schedule.first` calls (the call whose output the same
 * outputs repeat counts too, when it comes just before the stretch or within it), `reasked` of them asked again, and
 * at least two of them were no plain repeat: calls that only repeat earlier ones, unchanged, are exact repetition,
 * which the identical-calls, cycle and same-ground detectors tell in their own words. So it is told again only after two
 * more such calls: a stretch that settles into an exact cycle is told on as that cycle, in the one voice.
 * @module dsh-brake/core/detectors/near-duplicate
 */
import { canonicalJson } from '../identity/canonical.js'
import { lineFingerprints } from '../tables/fingerprint.js'
import { createLruTable, type LruTable } from '../tables/lru-table.js'
import type { CallObservation, CallStep, Lookup } from '../types.js'
import type { Evidence, NearDuplicateFinding, NoNews } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the near-duplicate detector. */
export interface NearDuplicateOptions {
  /** When notices fall: `first` is the calls of a stretch that brought no news. */
  readonly schedule: Schedule
  /** Of them, how many must have asked again what was already answered. */
  readonly reasked: number
}

/** Questions answered "nothing" remembered (per progress epoch), the latest first. */
export const ANSWERED = 32
/** Results remembered by fingerprint, to tell an output another call already gave. */
export const OUTPUTS = 256
/** Lines of content remembered by fingerprint, to tell a lookup that showed only lines already seen. */
export const SEEN_LINES = 2048
/** Lines of one result looked at, at most: a longer result is news (it is rarely all old, and it would cost). */
const RESULT_LINES = 256
/**
 * The result being read: where each of its lines ends (its line break, or the text's end for the last), where each of
 * its lines of content starts and ends, and that content's fingerprint. One result is read at a time, start to end,
 * whatever the agent: every detector shares these, so no agent grows arrays of its own for them, and typed arrays keep
 * the fingerprints unboxed.
 */
const ends = new Int32Array(RESULT_LINES)
const contentStarts = new Int32Array(RESULT_LINES)
const contentEnds = new Int32Array(RESULT_LINES)
const contentKeys = new Float64Array(RESULT_LINES)
/** Characters of trimmed output below which two outputs being the same says nothing ("True", "ok", a count). */
const SUBSTANTIAL_OUTPUT = 40
/** Characters of content below which a line says nothing on its own (a brace, `else:`). */
const CONTENT_LINE = 4
/** Calls of news allowed between two calls that brought none, within one stretch. */
const NEWS_BETWEEN = 1
/** The stretch's distinct calls kept for the loop's identity (the latest), and its latest calls for the notice. */
export const STRETCH_CALLS = 64
const NAMED_CALLS = 4
/** Characters kept of each term and scope of a question answered "nothing". */
const QUESTION_CHARS = 200

interface Question {
  readonly terms: readonly string[]
  readonly scope: readonly string[]
  readonly epoch: number
}

interface Named {
  readonly tool: string
  readonly key: number
  readonly args: unknown
  readonly returned: NoNews
}

/** Create a near-duplicate detector. */
export function createNearDuplicateDetector(options: NearDuplicateOptions): Detector<CallStep, Evidence<NearDuplicateFinding>> {
  // Questions answered "nothing", a ring; the latest is at `answeredNext - 1`.
  const answered: (Question | undefined)[] = []
  let answeredNext = 0
  // Outputs by raw fingerprint: the call that gave it (key), in which epoch, and its number.
  // Per slot of `outputs`, grown as slots are handed out (in order): an agent that makes a few calls allocates little.
  const outputs = createLruTable(OUTPUTS)
  const outputKeys: number[] = []
  const outputEpochs: number[] = []
  const outputAt: number[] = []
  // Lines of content seen in lookups' results, the least recently shown forgotten first. A typed-array table rather
  // than a `Set`: a fingerprint is no small integer, so a `Set` boxes every line's (garbage on every lookup).
  const seen = createLruTable(SEEN_LINES)
  let at = 0
  // The stretch.
  let epoch = -1
  let start = 0
  let count = 0
  let reasked = 0
  // Calls of the stretch since its latest notice that were no plain repeat: without two of them, the stretch is (or
  // has settled into) exact repetition, the other detectors' business.
  let variedSince = 0
  let news = 0
  let noticed = 0
  const keys = new Set<number>()
  const counted = new Set<number>()
  const tally = { nothing: 0, 'same-output': 0, seen: 0 }
  // The stretch's latest calls, the latest first, each call once.
  const named: Named[] = []

  function endStretch(): void {
    // A stretch that never began left everything as ending one would (and a cleared `Set` allocates a fresh table):
    // most progress comes outside a stretch.
    if (count === 0) return
    count = 0
    reasked = 0
    variedSince = 0
    news = 0
    noticed = 0
    keys.clear()
    counted.clear()
    tally.nothing = 0
    tally['same-output'] = 0
    tally.seen = 0
    // The arguments of an ended stretch are no longer needed: let them go.
    named.length = 0
  }

  /** The call whose output this one repeats (another call, since the last progress), if any; remembers this one's. */
  function sameOutputAs(call: CallObservation, now: number): { key: number; at: number } | undefined {
    const text = call.result.text
    if (call.result.raw < 0 || (text !== undefined && text.trim().length < SUBSTANTIAL_OUTPUT)) return undefined
    const slot = outputs.use(call.result.raw)
    const before = !outputs.added && outputEpochs[slot] === now && outputKeys[slot] !== call.key
      ? { key: outputKeys[slot]!, at: outputAt[slot]! }
      : undefined
    outputKeys[slot] = call.key
    outputEpochs[slot] = now
    outputAt[slot] = at
    return before
  }

  return {
    observe({ call, epoch: now, revisit }) {
      at++
      if (call.refused) return undefined
      if (now !== epoch) {
        endStretch()
        epoch = now
      }
      const looks = call.lookup !== undefined || call.window !== undefined || call.kind === 'read'
      let returned: NoNews | undefined
      let again = false
      let origin: { key: number; at: number } | undefined
      if (call.nothing === true && call.lookup !== undefined) {
        returned = revisit ? 'repeat' : 'nothing'
        const asked = questionOf(call.lookup, now)
        again = revisit || askedBefore(answered, answeredNext, asked, now)
        answered[answeredNext++ % ANSWERED] = kept(asked)
      } else {
        origin = sameOutputAs(call, now)
        const text = call.result.text
        const old = looks && !call.failed && text !== undefined && allSeen(seen, text)
        if (revisit) returned = 'repeat'
        else if (origin !== undefined) returned = 'same-output'
        else if (old) returned = 'seen'
        again = revisit || origin !== undefined
      }
      if (returned === undefined) {
        if (count > 0 && news++ >= NEWS_BETWEEN) endStretch()
        return undefined
      }
      news = 0
      if (count === 0) start = at
      count++
      counted.add(at)
      if (again) reasked++
      if (returned !== 'repeat') variedSince++
      tally[returned === 'repeat' ? 'seen' : returned]++
      addKey(keys, call.key)
      // The call that first gave the output these repeat belongs to the stretch, when it came just before it.
      if (origin !== undefined && origin.at >= start - 1 - NEWS_BETWEEN && !counted.has(origin.at)) {
        counted.add(origin.at)
        count++
        addKey(keys, origin.key)
      }
      name(named, { tool: call.tool, key: call.key, args: call.args, returned })
      while (counted.size > STRETCH_CALLS) counted.delete(counted.values().next().value!)
      if (keys.size < 2 || variedSince < 2 || reasked < options.reasked || !isDue(options.schedule, count, noticed)) return undefined
      noticed = count
      variedSince = 0
      return {
        finding: {
          kind: 'near-duplicate',
          count,
          variants: keys.size,
          mostly: tally.nothing >= tally['same-output'] && tally.nothing >= tally.seen ? 'nothing' : tally['same-output'] >= tally.seen ? 'same-output' : 'seen',
          calls: named.map(entry => ({ tool: entry.tool, args: canonicalJson(entry.args) ?? 'null', returned: entry.returned })),
        },
        calls: [...keys],
      }
    },
    reset() {
      answered.length = 0
      answeredNext = 0
      outputs.clear()
      seen.clear()
      epoch = -1
      endStretch()
    },
    size: () => ({ answered: Math.min(answeredNext, ANSWERED), outputs: outputs.size, seenLines: seen.size, stretchCalls: keys.size }),
  }
}

// The detector's helpers take what they read as arguments rather than closing over it: functions of the module are
// made once, where closures would be made for every agent.

/** Whether `asked` asks what a question already answered "nothing" in `now` asked, or a narrower thing. */
function askedBefore(answered: readonly (Question | undefined)[], answeredNext: number, asked: Question, now: number): boolean {
  for (let back = 1; back <= Math.min(answeredNext, ANSWERED); back++) {
    const question = answered[(answeredNext - back) % ANSWERED]
    if (question === undefined || question.epoch !== now) break
    if (related(asked.terms, question.terms) && overlaps(asked.scope, question.scope)) return true
  }
  return false
}

/** A question answered "nothing", as it is remembered: each term and scope cut to {@link QUESTION_CHARS}. */
function kept(asked: Question): Question {
  return {
    terms: asked.terms.map(term => term.slice(0, QUESTION_CHARS)),
    scope: asked.scope.map(place => place.slice(0, QUESTION_CHARS)),
    epoch: asked.epoch,
  }
}

/**
 * Whether every line of content of a lookup's result was seen before: each line without its number and the white
 * space around it, lines too short to say anything left out, each hashed where it lies (nothing is cut out of the
 * text). Its lines are remembered either way (a line met twice in one result counts as seen the second time). A
 * result of more than `RESULT_LINES` lines is news, and is not remembered: told by its line breaks, before any line
 * is hashed.
 */
function allSeen(seen: LruTable, text: string): boolean {
  const count = lineEnds(text, RESULT_LINES, ends)
  if (count === -1) return false
  let lines = 0
  let from = 0
  for (let line = 0; line < count; line++) {
    const end = ends[line]!
    let first = from + numberLength(text, from, end)
    let last = end
    while (first < last && isSpace(text.charCodeAt(first))) first++
    while (last > first && isSpace(text.charCodeAt(last - 1))) last--
    if (last - first >= CONTENT_LINE) {
      contentStarts[lines] = first
      contentEnds[lines++] = last
    }
    from = end + 1
  }
  lineFingerprints(text, contentStarts, contentEnds, lines, contentKeys)
  let unseen = 0
  for (let line = 0; line < lines; line++) {
    seen.use(contentKeys[line]!)
    if (seen.added) unseen++
  }
  return lines > 0 && unseen === 0
}

/** Put `entry` in front of the named calls, in place of its call's older entry if any, the oldest falling off. */
function name(named: Named[], entry: Named): void {
  const before = named.findIndex(other => other.key === entry.key)
  if (before !== -1) named.splice(before, 1)
  named.unshift(entry)
  if (named.length > NAMED_CALLS) named.pop()
}

/** Make `key` the latest of the stretch's distinct calls, the oldest falling off. */
function addKey(keys: Set<number>, key: number): void {
  keys.delete(key)
  keys.add(key)
  if (keys.size > STRETCH_CALLS) keys.delete(keys.values().next().value!)
}

/** A search term as a question: lower case, without a leading `def`/`class`/`function`, regular-expression signs as spaces. */
export function termOf(term: string): string {
  return term.toLowerCase().replace(/^\s*(?:def|class|function|fn|func|interface|type|struct)\s+/, '').replace(/[\\^$.*+?()[\]{}|"'/]+/g, ' ').trim()
}

/** What a lookup asks, read once: its terms as questions (of three characters or more), its places as scopes. */
function questionOf(lookup: Lookup, epoch: number): Question {
  return { terms: lookup.terms.map(termOf).filter(term => term.length >= 3), scope: lookup.scope.map(scopeOf), epoch }
}

/** A place as a question's scope: without `./` in front or `/` behind. */
function scopeOf(place: string): string {
  return place.replace(/^\.\//, '').replace(/\/+$/, '')
}

/** Whether one of `terms` contains one of `earlier`, or is contained in it. */
function related(terms: readonly string[], earlier: readonly string[]): boolean {
  return terms.some(term => earlier.some(other => term.includes(other) || other.includes(term)))
}

/** Whether two scopes share a place: one is within the other (no place given is everywhere). */
function overlaps(places: readonly string[], earlier: readonly string[]): boolean {
  if (places.length === 0 || earlier.length === 0) return true
  return places.some(place => earlier.some(other => place === '' || other === '' || place === '.' || other === '.'
    || place.startsWith(`${other}/`) || other.startsWith(`${place}/`) || place === other))
}

/**
 * Where each line of `text` ends (its line break, or the text's end for the last), into `ends` from 0 on, and how
 * many lines there are; -1, with `ends` left unfinished, when there are more than `most`. A result's lines are
 * counted this way before any is hashed.
 */
function lineEnds(text: string, most: number, ends: Int32Array): number {
  let lines = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    // This break begins line `lines + 2`.
    if (lines + 1 === most) return -1
    ends[lines++] = at
  }
  ends[lines++] = text.length
  return lines
}

/**
 * A line's number in front of its content, as files and searches print it: `  12\t`, `12:`, `Line 12: `,
 * `path:12:` or `path-12-`.
 */
const LINE_NUMBER = /^\s*(?:Line\s+)?\d+(?:[:\t]|-(?=\s))|^[^\s:]+[:-]\d+[:-]/
/**
 * The same, read in place from a line's start in the whole text: no white space it takes may be a line break, so it
 * matches a line of at most `NUMBER_CHARS` characters exactly as `LINE_NUMBER` matches the line cut out on its own.
 */
const LINE_NUMBER_IN_PLACE = /(?:[^\S\n]*(?:Line[^\S\n]+)?\d+(?:[:\t]|-(?=[^\S\n]))|[^\s:]+[:-]\d+[:-])/y
/** Characters at the start of a line where its number is looked for. */
const NUMBER_CHARS = 200

/** The length of the line number the line from `from` to `end` starts with, 0 for none. */
function numberLength(text: string, from: number, end: number): number {
  if (end - from > NUMBER_CHARS) return LINE_NUMBER.exec(text.slice(from, from + NUMBER_CHARS))?.[0].length ?? 0
  LINE_NUMBER_IN_PLACE.lastIndex = from
  return LINE_NUMBER_IN_PLACE.test(text) ? LINE_NUMBER_IN_PLACE.lastIndex - from : 0
}

/** Whether a character is trimmed from a line's content: a space, a tab, or a carriage return. */
function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13
}
