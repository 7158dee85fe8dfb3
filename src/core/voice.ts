/**
 * One loop, one voice: every finding is tied to the loop it is about, and a loop is told once, then again only on its
 * own schedule, so several detectors counting one loop do not speak on call after call. Another plugin's notice about
 * a call counts as a voice too. Pure: the caller numbers the calls and passes the epoch.
 * Design: docs/design.md#one-loop-one-voice
 * @module dsh-brake/core/voice
 */
import type { Mutable } from './types.js'
import { KINDS, type Evidence, type LoopFinding } from './kinds.js'

/** How the voice paces notices. */
export interface VoiceOptions {
  /**
   * Repeats (calls, or laps of a cycle) between two notices on one loop, and calls after another plugin's notice on it
   * before a plain repeat is told: `callReWarnEvery`.
   */
  readonly every: number
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

/** Where a call (or a response) stands among the agent's actions. */
export interface CallPlace {
  /** Its number, counting every call the agent made (and every response that asked for none) since the last reset. */
  readonly at: number
  /** The call identity it is about. */
  readonly key: number
  /** The progress epoch it happened in. */
  readonly epoch: number
}

/** What one call (or response) brought for the voice to speak about. */
export interface CallEvidence extends CallPlace {
  /**
   * The number of the first call of the unbroken run of revisits the call belongs to (`at` itself for a call that is
   * no revisit): findings within one run are about one loop.
   */
  readonly runStart: number
  /** The detectors' findings at this call, each with the calls it is about. */
  readonly evidence: readonly Evidence[]
}

/** One agent's voice. */
export interface Voice {
  /** What to tell the model now about the loop `call`'s evidence is about, or nothing (it was told too recently). */
  speak(call: CallEvidence): Told | undefined
  /** Another plugin told the model about the call identity `call.key`, after call `call.at`. */
  heard(call: CallPlace): void
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

/** A loop not yet told. */
function fresh(epoch: number): Loop {
  return { epoch, told: 0, toldExactly: 0, toldAt: -Infinity, heardAt: -Infinity, unit: 1, joined: undefined }
}

/** Create the voice of one agent. */
export function createVoice(options: VoiceOptions): Voice {
  // The loop each remembered call identity belongs to, least recently told first.
  const loops = new Map<number, Loop>()
  // The loop of the latest findings, and the first call of the run of revisits they came in.
  let current: { readonly runStart: number; readonly loop: Loop } | undefined

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
    voice.size = loops.size
  }

  // `size` a field, not a getter (see `Mutable`).
  const voice: Mutable<Voice> = {
    speak({ at, key, epoch, runStart, evidence }) {
      if (evidence.length === 0) return undefined
      const loop = loopOf(evidence, epoch, current?.runStart === runStart ? current.loop : undefined)
      if (loops.get(key) !== loop) remember(key, loop)
      current = { runStart, loop }
      const ranked = evidence.map(found => found.finding).sort((a, b) => KINDS[a.kind].strength - KINDS[b.kind].strength)
      const finding = ranked[0]!
      if (at - loop.toldAt < options.every * loop.unit) return undefined
      // Another plugin's notice said what a plain repeat would (deny mode's warning of refusals included: see above);
      // calls that brought no news say it more softly, about the same calls, and wait their turn too.
      if (at - loop.heardAt < options.every && (finding.kind === 'identical-calls' || KINDS[finding.kind].noNews)) return undefined
      const again = loop.told > 0
      const exactBefore = loop.toldExactly > 0
      loop.told++
      if (!KINDS[finding.kind].noNews) loop.toldExactly++
      loop.toldAt = at
      loop.unit = finding.kind === 'cycle' ? finding.tools.length : 1
      // A repeat count adds nothing to a notice about a loop made of repeats; another kind of evidence does.
      const also = ranked.slice(1).filter(other => other.kind !== 'identical-calls' && other.kind !== finding.kind)
      return { finding, also, again, exactBefore }
    },
    heard({ at, key, epoch }) {
      const found = loops.get(key)
      const loop = found === undefined ? undefined : resolve(found)
      if (loop !== undefined && loop.epoch === epoch) loop.heardAt = at
      else remember(key, { ...fresh(epoch), heardAt: at })
    },
    reset() {
      loops.clear()
      current = undefined
      voice.size = 0
    },
    size: 0,
  }
  return voice
}
