/**
 * Fingerprints of text: what per-agent state keeps instead of results and text blocks, so it stays bounded however
 * large they are. Latin-1 text is hashed a byte a character, anything else as UTF-16 code units, so nothing is lost.
 * Design: docs/design.md#fingerprints
 * @module dsh-brake/core/tables/fingerprint
 */
import { Domain, hashBytes, hashLineBytes, WIDE, type ByteView } from './hash.js'

/** Bytes the scratch buffer keeps between calls at most; a longer text gets a buffer of its own. */
const KEPT_BYTES = 1 << 20

interface Scratch extends ByteView {
  readonly bytes: Buffer
}

function scratchOf(size: number): Scratch {
  // Not zeroed (only written bytes are read), and never from Node's shared pool, so the view starts at byte 0.
  const bytes = Buffer.allocUnsafeSlow(size)
  return { bytes, view: new DataView(bytes.buffer, 0, size) }
}

let kept = scratchOf(1 << 12)
/**
 * The latest buffer too large to keep, held weakly: a run of large messages reuses it (writing into fresh memory costs
 * a page fault per page), and the collector takes it back whenever it wants.
 */
let large: WeakRef<Scratch> | undefined

/** A buffer of at least `size` bytes: the kept one, grown when needed up to `KEPT_BYTES`. */
function scratch(size: number): Scratch {
  if (size <= kept.bytes.length) return kept
  if (size <= KEPT_BYTES) return kept = scratchOf(size)
  const held = large?.deref()
  if (held !== undefined && held.bytes.length >= size) return held
  const fresh = scratchOf(size)
  large = new WeakRef(fresh)
  return fresh
}

/**
 * The fingerprint of a string: a non-negative safe integer below 2⁵³. With a `seed` (another fingerprint), the
 * fingerprint of the pair, without joining the two strings first.
 */
export function fingerprint(text: string, seed = 0): number {
  if (WIDE.test(text)) {
    const buffer = scratch(text.length * 2)
    return hashBytes(buffer, 0, buffer.bytes.write(text, 0, 'utf16le'), Domain.UTF16, seed)
  }
  const buffer = scratch(text.length)
  return hashBytes(buffer, 0, buffer.bytes.write(text, 0, 'latin1'), Domain.LATIN1, seed)
}

/**
 * Lend `use` a fingerprinter for ranges of `text`: `range(start, end)` equals `fingerprint(text.slice(start, end))`,
 * without making the slice, and only while `use` runs (the text is loaded once, into memory the next call reuses). A
 * text whose characters all fit in one byte is loaded once; any other text is sliced, because a range of it may well
 * fit in one byte where the whole does not.
 */
export function withRangeFingerprints<T>(text: string, use: (range: (start: number, end: number) => number) => T): T {
  if (WIDE.test(text)) return use((start, end) => fingerprint(text.slice(start, end)))
  const buffer = scratch(text.length)
  buffer.bytes.write(text, 0, 'latin1')
  let lent = true
  try {
    return use((start, end) => {
      // A range asked for after `use` returned would read whatever the buffer holds by then.
      if (!lent) throw new Error('a range fingerprinter is only valid while it is lent')
      return hashBytes(buffer, start, end - start, Domain.LATIN1, 0)
    })
  } finally {
    lent = false
  }
}

/**
 * The fingerprint of a line, for tables that keep lines by the thousand: like `fingerprint` (a non-negative safe
 * integer, Latin-1 and UTF-16 text told apart) by the lighter hash of `hashLineBytes`, so not `fingerprint`'s value
 * for the same text.
 */
export function lineFingerprint(line: string): number {
  if (WIDE.test(line)) {
    const buffer = scratch(line.length * 2)
    return hashLineBytes(buffer, 0, buffer.bytes.write(line, 0, 'utf16le'), Domain.UTF16)
  }
  const buffer = scratch(line.length)
  return hashLineBytes(buffer, 0, buffer.bytes.write(line, 0, 'latin1'), Domain.LATIN1)
}

/**
 * Line fingerprints of ranges of `text`: `into[i]` becomes `lineFingerprint(text.slice(starts[i], ends[i]))` for every
 * `i` below `count`, without making the slices when every character of the text fits in one byte (it is loaded once);
 * any other text is sliced, because a range of it may well fit in one byte where the whole does not.
 */
export function lineFingerprints(
  text: string, starts: ArrayLike<number>, ends: ArrayLike<number>, count: number, into: Float64Array,
): void {
  if (WIDE.test(text)) {
    for (let i = 0; i < count; i++) into[i] = lineFingerprint(text.slice(starts[i], ends[i]))
    return
  }
  const buffer = scratch(text.length)
  buffer.bytes.write(text, 0, 'latin1')
  for (let i = 0; i < count; i++) into[i] = hashLineBytes(buffer, starts[i]!, ends[i]! - starts[i]!, Domain.LATIN1)
}
