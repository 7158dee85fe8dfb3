/**
 * One loop, one voice. Each detector keeps its own count and would speak on its own schedule, so one loop could draw
 * a notice on call after call: a cycle at its third lap, then each of its calls at its fourth repeat. Here every
 * finding is tied to the loop it is about, and a loop is told once, then again only on its own schedule.
 *
 * - A loop is the calls its findings are about (a repeated call, a cycle's lap, a run's calls, the calls that raised
 *   the same error, a stretch's calls that brought no news, the windows of a file read again). Findings that share a
 *   call are about the same loop, so a loop grows as findings about more of its calls come (a cycle whose calls now
 *   also count as identical repeats, a run that takes in a cycle): the loops they touch become one. So are findings
 *   within one unbroken run of revisits (calls that each repeat an earlier one, nothing new between): going round a
 *   long cycle, each of its calls reaches its repeat count in turn, one loop.
 * - The findings of one call are all about that call, so they make one notice, which leads with the strongest
 *   evidence (a cycle, then a run, then the same error, then a repeated call, then calls that brought no news) and
 *   carries the rest where it adds something: the same error told beside a cycle, not each call's repeat count.
 * - Once told, a loop's next notice waits `every` repeats: calls, or laps for a loop last told as a cycle. A finding
 *   about it before then is held back (its detector's own schedule moves on all the same).
 * - Another plugin's notice about a call (repeat-tool-reminder, heard in the next step's claimed messages) counts as a
 *   voice too: for the next `every` calls the brake does not say the same thing again. It still speaks when it has
 *   something more to say: any exact finding but a plain repeat, or a repeat with deny mode's warning of refusals to
 *   come (calls that brought no news wait, as a repeat does).
 * - Progress starts every loop afresh: a loop belongs to the progress epoch it was told in.
 *
 * Pure: the caller numbers the calls and passes the epoch; nothing here reads a clock.
 * @module dsh-brake/core/voice
 */
import type { LoopFinding, Evidence } from './types.js'

/** How the voice paces notices. */
export interface VoiceOptions {
  /** Repeats (calls, or laps of a cycle) between two notices on one loop: `callReWarnEvery`. */
  readonly every: number
  /**
   * Whether a plain repeat's notice says more than another plugin's: in deny mode it warns of the refusals to come
   * (below `denyCount`, and never for a poller, which is never refused).
   */
  readonly denyCount: number | undefined
  /** Call identities remembered as part of a told loop, at most. */
  readonly maxCalls: number
}

/** What the brake tells the model about a loop at one call. */
export interface Told {
  /** The strongest evidence. */
  readonly finding: LoopFinding
  /** The call's other findings about the same loop that add something. */
  readonly also: readonly LoopFinding[]
  /** Whether the brake had told the model about this loop before: the loop went on after its notice. */
  readonly again: boolean
  /**
   * Whether the brake had told this loop's exact repetition before: a notice led by anything but calls that brought
   * no news (stop mode needs it, as it needs a second notice).
   */
  readonly exactBefore: boolean
}

/** One agent's voice. */
export interface Voice {
  /**
   * The call numbered `at` (counting every call the agent made) in progress epoch `epoch` brought `evidence` about
   * call identity `key`: what to tell the model now, or nothing (the loop was told too recently). `run` is the number
   * of the first call of the unbroken run of revisits the call belongs to (`at` itself for a call that is no revisit).
   */
  speak(at: number, key: number, epoch: number, run: number, evidence: readonly Evidence[]): Told | undefined
  /** Another plugin told the model about call identity `key`, after call `at`. */
  heard(at: number, key: number, epoch: number): void
  /** Forget every loop. */
  reset(): void
  /** Call identities remembered now. */
  readonly size: number
}

interface Loop {
  readonly epoch: number
  /** The brake's notices on it. */
  told: number
  /** Those led by exact repetition (anything but calls that brought no news). */
  toldExactly: number
  /** The call of the brake's latest notice. */
  toldAt: number
  /** The call of another plugin's latest notice about it. */
  heardAt: number
  /** Calls per repeat of the evidence last told: a cycle's period, else one. */
  unit: number
  /** The loop this one was joined into, when a finding touched both: that one goes on for both. */
  joined: Loop | undefined
}

/** The loop `loop` goes on as, once joins are followed (shortening the way for the next look). */
function resolve(loop: Loop): Loop {
  let root = loop
  while (root.joined !== undefined) root = root.joined
  for (let at = loop; at.joined !== undefined && at.joined !== root;) {
    const next: Loop = at.joined
    at.joined = root
    at = next
  }
  return root
}

/**
 * Stronger evidence first: a cycle or a run names the whole loop; the same error says why; a repeat says least of the
 * exact kinds; calls that brought no news come after them all.
 */
const STRENGTH: Readonly<Record<LoopFinding['kind'], number>> = {
  'cycle': 0, 'same-ground': 1, 'same-error': 2, 'same-response': 3, 'identical-calls': 4, 'runaway': 5,
  // Calls that bring no news: evidence read from what results said, so any exact repetition leads before it.
  'rereading': 6, 'near-duplicate': 7,
}

/** Kinds of finding read from what results said rather than seen repeating exactly: calls that brought no news. */
export const NO_NEWS: ReadonlySet<LoopFinding['kind']> = new Set(['near-duplicate', 'rereading'])

/** A loop not yet told. */
function fresh(epoch: number): Loop {
  return { epoch, told: 0, toldExactly: 0, toldAt: -Infinity, heardAt: -Infinity, unit: 1, joined: undefined }
}

/** Create the voice of one agent. */
export function createVoice(options: VoiceOptions): Voice {
  // The loop each remembered call identity belongs to, least recently told first.
  const loops = new Map<number, Loop>()
  // The loop of the latest findings, and the run of revisits they came in.
  let current: { readonly run: number; readonly loop: Loop } | undefined

  /**
   * The loop the calls of `evidence` belong to in `epoch`: the one they touch (the loops they touch, and `alongside`,
   * joined as one), or a new one.
   */
  function loopOf(evidence: readonly Evidence[], epoch: number, alongside?: Loop): Loop {
    const touched: Loop[] = []
    const touch = (found: Loop | undefined): void => {
      const loop = found === undefined ? undefined : resolve(found)
      if (loop !== undefined && loop.epoch === epoch && !touched.includes(loop)) touched.push(loop)
    }
    touch(alongside)
    for (const found of evidence) for (const key of found.calls) touch(loops.get(key))
    // The loop told most goes on; the others join it, with their latest notices.
    let loop = touched[0] ?? fresh(epoch)
    for (const other of touched) if (other.told > loop.told) loop = other
    for (const other of touched) {
      if (other === loop) continue
      loop.toldAt = Math.max(loop.toldAt, other.toldAt)
      loop.toldExactly = Math.max(loop.toldExactly, other.toldExactly)
      loop.heardAt = Math.max(loop.heardAt, other.heardAt)
      other.joined = loop
    }
    for (const found of evidence) for (const key of found.calls) if (loops.get(key) !== loop) remember(key, loop)
    return loop
  }

  /** `key` belongs to `loop`, most recently; the least recently told identity is forgotten past the bound. */
  function remember(key: number, loop: Loop): void {
    loops.delete(key)
    loops.set(key, loop)
    if (loops.size > options.maxCalls) loops.delete(loops.keys().next().value!)
  }

  /**
   * Whether a notice leading with `finding` says more than a plain "you repeated this call". Calls that brought no
   * news say it more softly, about the same calls: right after another plugin's notice, they wait their turn.
   */
  function saysMore(finding: LoopFinding): boolean {
    if (NO_NEWS.has(finding.kind)) return false
    if (finding.kind !== 'identical-calls') return true
    return options.denyCount !== undefined && finding.toolClass !== 'poller' && finding.count < options.denyCount
  }

  return {
    speak(at, key, epoch, run, evidence) {
      if (evidence.length === 0) return undefined
      const loop = loopOf(evidence, epoch, current?.run === run ? current.loop : undefined)
      if (loops.get(key) !== loop) remember(key, loop)
      current = { run, loop }
      const ranked = evidence.map(found => found.finding).sort((a, b) => STRENGTH[a.kind] - STRENGTH[b.kind])
      const finding = ranked[0]!
      if (at - loop.toldAt < options.every * loop.unit) return undefined
      if (at - loop.heardAt < options.every && !saysMore(finding)) return undefined
      const again = loop.told > 0
      const exactBefore = loop.toldExactly > 0
      loop.told++
      if (!NO_NEWS.has(finding.kind)) loop.toldExactly++
      loop.toldAt = at
      loop.unit = finding.kind === 'cycle' ? finding.tools.length : 1
      // A repeat count adds nothing to a notice about a loop made of repeats; another kind of evidence does.
      const also = ranked.slice(1).filter(other => other.kind !== 'identical-calls' && other.kind !== finding.kind)
      return { finding, also, again, exactBefore }
    },
    heard(at, key, epoch) {
      const found = loops.get(key)
      const loop = found === undefined ? undefined : resolve(found)
      if (loop !== undefined && loop.epoch === epoch) loop.heardAt = at
      else remember(key, { ...fresh(epoch), heardAt: at })
    },
    reset() {
      loops.clear()
      current = undefined
    },
    get size() {
      return loops.size
    },
  }
}
