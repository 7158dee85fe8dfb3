/**
 * The hash behind every fingerprint: bytes in, a 53-bit number out (a safe integer, so a table keys it without
 * building a string), with MurmurHash3 x86 128-bit's block structure (and a two-lane variant of it for lines). Not a
 * cryptographic hash: the brake hashes every tool result, and a native crypto call costs more (bench/README.md). Pure:
 * a function of its arguments alone.
 * Design: docs/design.md#fingerprints
 * @module dsh-brake/core/tables/hash
 */

/** A character that does not fit in one byte: text holding one is encoded as UTF-16, any other as Latin-1. */
export const WIDE = /[\u0100-\uffff]/

/** What the bytes are: the same bytes mean different things in each, so each hashes apart. */
export const Domain = Object.freeze({ LATIN1: 0, UTF16: 1, VALUE: 2 })

/** Bytes to hash, and a view of the same memory that reads the 32-bit words the lanes take in. */
export interface ByteView {
  readonly bytes: Uint8Array
  readonly view: DataView
}

const C1 = 0x239b961b | 0
const C2 = 0xab0e9789 | 0
const C3 = 0x38b34ae5 | 0
const C4 = 0xa1e38b93 | 0

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/** One input word, multiplied, rotated left by `rotation` and multiplied again. */
function scramble(word: number, first: number, rotation: number, second: number): number {
  const k = Math.imul(word, first)
  return Math.imul((k << rotation) | (k >>> (32 - rotation)), second)
}

/** A lane after taking in a scrambled word and its neighbour. */
function absorb(lane: number, scrambled: number, rotation: number, neighbour: number, add: number): number {
  const h = lane ^ scrambled
  return (Math.imul(((h << rotation) | (h >>> (32 - rotation))) + neighbour, 5) + add) | 0
}

/** The little-endian word of up to four bytes from `from`, stopping before `to`. */
function tailWord(bytes: Uint8Array, from: number, to: number): number {
  let word = 0
  for (let i = Math.min(to, from + 4) - 1; i >= from; i--) word = (word << 8) | bytes[i]!
  return word
}

/**
 * Hash `size` bytes from byte `first` on. The size and the `domain` are mixed in, so inputs that differ only in
 * trailing zero bytes differ, and so do two encodings of one byte string; `seed` (a fingerprint, or 0) starts two of
 * the lanes, so one input under two seeds gives two unrelated values. Words are read little-endian whatever the
 * machine's byte order and whatever the alignment, so a range of a buffer hashes as the same bytes copied out would.
 */
export function hashBytes({ bytes, view }: ByteView, first: number, size: number, domain: number, seed: number): number {
  let h1 = 0x243f6a88 ^ seed
  let h2 = 0x85a308d3 ^ (seed / 0x100000000)
  let h3 = 0x13198a2e ^ domain
  let h4 = 0x03707344 | 0
  const blocksEnd = first + (size & ~15)
  for (let k = first; k < blocksEnd; k += 16) {
    h1 = absorb(h1, scramble(view.getInt32(k, true), C1, 15, C2), 19, h2, 0x561ccd1b)
    h2 = absorb(h2, scramble(view.getInt32(k + 4, true), C2, 16, C3), 17, h3, 0x0bcaa747)
    h3 = absorb(h3, scramble(view.getInt32(k + 8, true), C3, 17, C4), 15, h4, 0x96cd1c35)
    h4 = absorb(h4, scramble(view.getInt32(k + 12, true), C4, 18, C1), 13, h1, 0x32ac3b17)
  }
  // The last zero to fifteen bytes, scrambled like a block's words but not absorbed.
  const to = first + size
  if (to > blocksEnd + 12) h4 ^= scramble(tailWord(bytes, blocksEnd + 12, to), C4, 18, C1)
  if (to > blocksEnd + 8) h3 ^= scramble(tailWord(bytes, blocksEnd + 8, to), C3, 17, C4)
  if (to > blocksEnd + 4) h2 ^= scramble(tailWord(bytes, blocksEnd + 4, to), C2, 16, C3)
  if (to > blocksEnd) h1 ^= scramble(tailWord(bytes, blocksEnd, to), C1, 15, C2)
  h1 ^= size
  h2 ^= size
  h3 ^= size
  h4 ^= size
  h1 = (h1 + h2 + h3 + h4) | 0
  h2 = mix((h2 + h1) | 0)
  h3 = mix((h3 + h1) | 0)
  h4 = mix((h4 + h1) | 0)
  h1 = mix(h1)
  h1 = (h1 + h2 + h3 + h4) | 0
  h2 = (h2 + h1) | 0
  return (h1 >>> 0) * 0x200000 + (h2 >>> 11)
}

/**
 * Hash `size` bytes from byte `first` on, as `hashBytes` does with two lanes instead of four: 64 bits of state, eight
 * bytes a step and half the finalization, for short inputs hashed by the thousand (the lines of lookups' results).
 * Another function than `hashBytes`: the two values of one input are unrelated. The same 53 bits out, so the same odds
 * of two inputs meeting: a line taken for one of 2 048 others kept about once in 4·10¹² lines.
 */
export function hashLineBytes({ bytes, view }: ByteView, first: number, size: number, domain: number): number {
  let h1 = 0x243f6a88 | 0
  let h2 = 0x85a308d3 ^ domain
  const pairsEnd = first + (size & ~7)
  for (let k = first; k < pairsEnd; k += 8) {
    h1 = absorb(h1, scramble(view.getInt32(k, true), C1, 15, C2), 19, h2, 0x561ccd1b)
    h2 = absorb(h2, scramble(view.getInt32(k + 4, true), C2, 16, C3), 17, h1, 0x0bcaa747)
  }
  // The last zero to seven bytes, scrambled like a step's words but not absorbed.
  const to = first + size
  if (to > pairsEnd + 4) h2 ^= scramble(tailWord(bytes, pairsEnd + 4, to), C2, 16, C3)
  if (to > pairsEnd) h1 ^= scramble(tailWord(bytes, pairsEnd, to), C1, 15, C2)
  h1 ^= size
  h2 ^= size
  h1 = (h1 + h2) | 0
  h2 = (h2 + h1) | 0
  h1 = mix(h1)
  h2 = mix(h2)
  h1 = (h1 + h2) | 0
  h2 = (h2 + h1) | 0
  return (h1 >>> 0) * 0x200000 + (h2 >>> 11)
}
