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
import { allSeen } from '../evidence/seen-lines.js'
import { asksAgain, kept, questionOf, type Question } from '../evidence/questions.js'
import { createLruTable } from '../tables/lru-table.js'
import type { CallObservation, CallStep } from '../types.js'
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
/** Lines of content remembered by fingerprint, to tell a lookup that showed only lines already seen. */
export const SEEN_LINES = 2048
/** Characters of trimmed output below which two outputs being the same says nothing ("True", "ok", a count). */
const SUBSTANTIAL_OUTPUT = 40
/** Calls of news allowed between two calls that brought none, within one stretch. */
const NEWS_BETWEEN = 1
/** The stretch's distinct calls kept for the loop's identity (the latest), and its latest calls for the notice. */
export const STRETCH_CALLS = 64
const NAMED_CALLS = 4

interface Named {
  readonly tool: string
  readonly key: number
  readonly args: unknown
  readonly returned: NoNews
}

/** Create a near-duplicate detector. */
export function createNearDuplicateDetector(options: NearDuplicateOptions): Detector<CallStep, Evidence<NearDuplicateFinding>> {
  return new NearDuplicateDetector(options)
}

/** What a call that brought no news brought, as the detector judged it. */
interface Judged {
  readonly returned: NoNews
  /** Whether it asked again what was already answered. */
  readonly again: boolean
  /** The call that gave the same output first, for a call that gave another call's output. */
  readonly origin: { readonly key: number; readonly at: number } | undefined
}

/**
 * The stretch of calls that brought no news the agent is in, if any. A class, as the detector is: one per agent, its
 * methods made once.
 */
class Stretch {
  epoch = -1
  start = 0
  count = 0
  reasked = 0
  // Calls of the stretch since its latest notice that were no plain repeat: without two of them, the stretch is (or
  // has settled into) exact repetition, the other detectors' business.
  variedSince = 0
  news = 0
  noticed = 0
  readonly keys = new Set<number>()
  readonly counted = new Set<number>()
  readonly tally = { nothing: 0, 'same-output': 0, seen: 0 }
  // The stretch's latest calls, the latest first, each call once.
  readonly named: Named[] = []

  end(): void {
    // A stretch that never began left everything as ending one would (and a cleared `Set` allocates a fresh table):
    // most progress comes outside a stretch.
    if (this.count === 0) return
    this.count = 0
    this.reasked = 0
    this.variedSince = 0
    this.news = 0
    this.noticed = 0
    this.keys.clear()
    this.counted.clear()
    this.tally.nothing = 0
    this.tally['same-output'] = 0
    this.tally.seen = 0
    // The arguments of an ended stretch are no longer needed: let them go.
    this.named.length = 0
  }

  /** Add call `at`, which brought no news as `judged`; `true` when the stretch is a loop due a notice now. */
  add(call: CallObservation, at: number, judged: Judged, options: NearDuplicateOptions): boolean {
    const { returned, again, origin } = judged
    this.news = 0
    if (this.count === 0) this.start = at
    this.count++
    this.counted.add(at)
    if (again) this.reasked++
    if (returned !== 'repeat') this.variedSince++
    this.tally[returned === 'repeat' ? 'seen' : returned]++
    addKey(this.keys, call.key)
    // The call that first gave the output these repeat belongs to the stretch, when it came just before it.
    if (origin !== undefined && origin.at >= this.start - 1 - NEWS_BETWEEN && !this.counted.has(origin.at)) {
      this.counted.add(origin.at)
      this.count++
      addKey(this.keys, origin.key)
    }
    name(this.named, { tool: call.tool, key: call.key, args: call.args, returned })
    while (this.counted.size > STRETCH_CALLS) this.counted.delete(this.counted.values().next().value!)
    if (this.keys.size < 2 || this.variedSince < 2 || this.reasked < options.reasked) return false
    if (!isDue(options.schedule, this.count, this.noticed)) return false
    this.noticed = this.count
    this.variedSince = 0
    return true
  }

  /** The stretch as a finding. */
  evidence(): Evidence<NearDuplicateFinding> {
    const { tally } = this
    return {
      finding: {
        kind: 'near-duplicate',
        count: this.count,
        variants: this.keys.size,
        mostly: tally.nothing >= tally['same-output'] && tally.nothing >= tally.seen ? 'nothing'
          : tally['same-output'] >= tally.seen ? 'same-output' : 'seen',
        calls: this.named.map(entry => ({ tool: entry.tool, args: canonicalJson(entry.args) ?? 'null', returned: entry.returned })),
      },
      calls: [...this.keys],
    }
  }
}

/**
 * The same answer to everything: calls in a row, three different ones at least, of more than one tool, runs among
 * them, edits too, that all returned one non-empty text (a shell that prints only its own marker, whatever script it
 * runs or file it writes). Edits do not end it: an edit whose result is the run's one text says nothing of what it
 * did. One tool that always answers alike (`ok`) is that tool's way, not a loop.
 */
class SameAnswer {
  // The latest result's raw fingerprint, the calls in a row that returned it, their different calls (and the latest
  // few named), and the count at the latest notice.
  private raw = -1
  private count = 0
  private noticed = 0
  // The run's first tool, whether another tool answered alike (2), and its runs (calls of class `default`).
  private tool = ''
  private tools = 1
  private runs = 0
  private readonly keys = new Set<number>()
  private readonly named: Named[] = []
  // The run's first call, named with the second: nearly every run is one call long, and an ended run empties its names.
  private firstKey = 0
  private firstArgs: unknown = undefined

  /** Observe `call`; the run as a finding when it is one due a notice on `schedule`, else undefined. */
  observe(call: CallObservation, schedule: Schedule): Evidence<NearDuplicateFinding> | undefined {
    const text = call.result.text
    if (call.result.raw >= 0 && call.result.raw === this.raw && text !== undefined && text.trim() !== '') {
      this.count++
    } else {
      this.count = 1
      this.noticed = 0
      // Emptied only when the run named any (an emptied Set is a fresh table).
      if (this.keys.size > 0) this.keys.clear()
      if (this.named.length > 0) this.named.length = 0
      this.raw = call.result.raw
      this.tool = call.tool
      this.tools = 1
      this.runs = 0
    }
    if (call.tool !== this.tool && this.tools === 1) this.tools = 2
    if (call.kind === 'default') this.runs++
    if (this.count === 1) {
      this.firstKey = call.key
      this.firstArgs = call.args
      return undefined
    }
    if (this.count === 2) {
      addKey(this.keys, this.firstKey)
      name(this.named, { tool: this.tool, key: this.firstKey, args: this.firstArgs, returned: 'same-output' })
    }
    addKey(this.keys, call.key)
    name(this.named, { tool: call.tool, key: call.key, args: call.args, returned: 'same-output' })
    // Three different calls at least: two calls going round with one result are a cycle, the exact detectors' to tell.
    if (this.keys.size < 3 || this.tools < 2 || this.runs === 0) return undefined
    if (!isDue(schedule, this.count, this.noticed)) return undefined
    this.noticed = this.count
    return {
      finding: {
        kind: 'near-duplicate', count: this.count, variants: this.keys.size, mostly: 'same-output',
        calls: this.named.map(entry => ({ tool: entry.tool, args: canonicalJson(entry.args) ?? 'null', returned: entry.returned })),
      },
      calls: [...this.keys],
    }
  }

  reset(): void {
    // Every field as a new agent has it, though `raw` alone sends the next call into a new run: a reader of the counts
    // after a reset sees none of the agent before it.
    this.raw = -1
    this.count = 0
    this.noticed = 0
    this.firstKey = 0
    this.firstArgs = undefined
    this.keys.clear()
    this.named.length = 0
  }
}

/** One agent's near-duplicate detector. */
class NearDuplicateDetector implements Detector<CallStep, Evidence<NearDuplicateFinding>> {
  private readonly options: NearDuplicateOptions
  // Questions answered "nothing", a ring; the latest is at `answeredNext - 1`.
  private readonly answered: (Question | undefined)[] = []
  private answeredNext = 0
  // The latest substantial output: its raw fingerprint, the call that gave it (key), in which epoch, and its number.
  // Only a repeat of the latest output counts (`sameOutputAs`), so no older one is kept.
  private lastOutput = -1
  private lastOutputKey = 0
  private lastOutputEpoch = -1
  private lastOutputAt = 0
  private readonly sameAnswer = new SameAnswer()
  // Lines of content seen in lookups' results, the least recently shown forgotten first. A typed-array table rather
  // than a `Set`: a fingerprint is no small integer, so a `Set` boxes every line's (garbage on every lookup).
  private readonly seen = createLruTable(SEEN_LINES)
  private at = 0
  private readonly stretch = new Stretch()

  constructor(options: NearDuplicateOptions) {
    this.options = options
  }

  observe({ call, epoch: now, revisit }: CallStep): Evidence<NearDuplicateFinding> | undefined {
    this.at++
    if (call.refused) return undefined
    const answer = this.sameAnswer.observe(call, this.options.schedule)
    if (answer !== undefined) return answer
    const stretch = this.stretch
    if (now !== stretch.epoch) {
      stretch.end()
      stretch.epoch = now
    }
    const judged = this.judge(call, now, revisit)
    if (judged === undefined) {
      if (stretch.count > 0 && stretch.news++ >= NEWS_BETWEEN) stretch.end()
      return undefined
    }
    return stretch.add(call, this.at, judged, this.options) ? stretch.evidence() : undefined
  }

  reset(): void {
    this.answered.length = 0
    this.answeredNext = 0
    this.lastOutput = -1
    this.sameAnswer.reset()
    this.seen.clear()
    this.stretch.epoch = -1
    this.stretch.end()
  }

  size(): Readonly<Record<string, number>> {
    return {
      answered: Math.min(this.answeredNext, ANSWERED), seenLines: this.seen.size,
      stretchCalls: this.stretch.keys.size,
    }
  }

  /** What `call` brought, when it brought no news; undefined for news. */
  private judge(call: CallObservation, now: number, revisit: boolean): Judged | undefined {
    if (call.nothing === true && call.lookup !== undefined) {
      const asked = questionOf(call.lookup, now)
      const again = revisit || askedBefore(this.answered, this.answeredNext, asked, now)
      this.answered[this.answeredNext++ % ANSWERED] = kept(asked)
      return { returned: revisit ? 'repeat' : 'nothing', again, origin: undefined }
    }
    const looks = call.lookup !== undefined || call.window !== undefined || call.kind === 'read'
    const origin = this.sameOutputAs(call, now)
    const text = call.result.text
    const old = looks && !call.failed && text !== undefined && allSeen(this.seen, text)
    const again = revisit || origin !== undefined
    if (revisit) return { returned: 'repeat', again, origin }
    if (origin !== undefined) return { returned: 'same-output', again, origin }
    return old ? { returned: 'seen', again, origin } : undefined
  }

  /**
   * The call whose output this one repeats (another call, since the last progress), if any; remembers this one's. Only
   * a repeat of the latest output counts: calls whose outputs go back and forth between two answers (a check under one
   * flag, then another, each combination answering with or without a line) each tell which way they went.
   */
  private sameOutputAs(call: CallObservation, now: number): { key: number; at: number } | undefined {
    const text = call.result.text
    if (call.result.raw < 0 || (text !== undefined && text.trim().length < SUBSTANTIAL_OUTPUT)) return undefined
    const before = this.lastOutput === call.result.raw && this.lastOutputEpoch === now && this.lastOutputKey !== call.key
      ? { key: this.lastOutputKey, at: this.lastOutputAt }
      : undefined
    this.lastOutput = call.result.raw
    this.lastOutputKey = call.key
    this.lastOutputEpoch = now
    this.lastOutputAt = this.at
    return before
  }
}

// The detector's helpers take what they read as arguments rather than closing over it: functions of the module are
// made once, where closures would be made for every agent.

/** Whether `asked` asks what a question already answered "nothing" in `now` asked, or a narrower thing. */
function askedBefore(answered: readonly (Question | undefined)[], answeredNext: number, asked: Question, now: number): boolean {
  for (let back = 1; back <= Math.min(answeredNext, ANSWERED); back++) {
    const question = answered[(answeredNext - back) % ANSWERED]
    if (question === undefined || question.epoch !== now) break
    if (asksAgain(asked, question)) return true
  }
  return false
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
