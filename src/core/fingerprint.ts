/**
 * Fingerprints: what per-agent state keeps instead of full arguments, results or text.
 *
 * Why not keep the full text: state must stay bounded however large the arguments, results or text blocks are (a
 * 4 KB argument across a thousand tracked identities would cost megabytes). Why not a cryptographic hash: a native
 * `node:crypto` call costs about a microsecond here whatever the length, the brake fingerprints every tool result,
 * and the benchmark text has 3 300 paragraphs per megabyte. A fingerprint here is a 53-bit number (a safe integer,
 * so a `Map` keys it without building a string). The text is copied into a scratch buffer by one native write
 * (reading it character by character from JavaScript is several times slower): one byte per character when every
 * character fits in one (Latin-1, which covers ASCII), two bytes per UTF-16 code unit otherwise, lone surrogates
 * included, so nothing is lost either way. The bytes are then hashed in 16-byte blocks the way MurmurHash3's 128-bit
 * x86 variant does it: four lanes, each taking in its neighbour after every block, so the processor overlaps their
 * multiplications and yet a difference anywhere in the text reaches all 128 bits of state before 53 of them are
 * kept. Two different texts then meet with a chance of about 2⁻⁵³ (README, "Fingerprints"). The hash is not built
 * to resist texts crafted to collide; the most such a collision could do here is one wrong notice, or one wrong
 * refusal in deny mode.
 *
 * Pure: the scratch buffer is an implementation detail shared by every call; nothing depends on what it held before.
 * @module dsh-brake/core/fingerprint
 */

/** Bytes the scratch buffer keeps between calls at most (1 MiB); a longer text gets a buffer of its own. */
const KEPT_BYTES = 1 << 20

/** A character that does not fit in one byte. For a string V8 stores one byte per character, this test is free. */
const WIDE = /[\u0100-\uffff]/

/** The encodings, kept apart: the same bytes mean different things in each. */
const LATIN1 = 0
const UTF16 = 1
const VALUE = 2

/** One buffer seen as bytes (to write text into) and through a view that reads the 32-bit words the lanes take in. */
interface Scratch {
  readonly bytes: Buffer
  readonly view: DataView
}

function scratchOf(size: number): Scratch {
  // Not zeroed (only written bytes are read), and never from Node's shared pool, so the view starts at byte 0.
  const bytes = Buffer.allocUnsafeSlow(size)
  return { bytes, view: new DataView(bytes.buffer, 0, size) }
}

let kept = scratchOf(1 << 12)
/**
 * The latest buffer too large to keep, held weakly: a run of large messages reuses it (writing into fresh memory
 * costs a page fault per 4 KB, measured a quarter of the scan of a 10 MB message), and the collector takes it back
 * whenever it wants.
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

// The block, tail and finalization steps of MurmurHash3 (x86, 128-bit), a public-domain design: each 16-byte block
// goes into four lanes, and every lane takes in its neighbour after each block, so a difference anywhere reaches all
// 128 bits of state.
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

/** The little-endian word of up to four bytes of `bytes` from `from`, stopping before `to`. */
function tailWord(bytes: Buffer, from: number, to: number): number {
  let word = 0
  for (let i = Math.min(to, from + 4) - 1; i >= from; i--) word = (word << 8) | bytes[i]!
  return word
}

/**
 * Hash `size` bytes of `buffer` from byte `first` on. `size` and the encoding's `domain` are mixed in, so texts that
 * differ only in trailing zero bytes differ, and so do the two encodings of one byte string; `seed` (a fingerprint, or
 * 0) starts two of the lanes, so one text under two seeds gives two unrelated values. Blocks are read as
 * little-endian 32-bit words from `first` on, whatever its alignment and whatever the machine's byte order: a view's
 * unaligned read is one load on the processors Node runs on, measured a fifth faster than putting each word together
 * from the two aligned words it straddles.
 */
function hashBytes({ bytes, view }: Scratch, first: number, size: number, domain: number, seed: number): number {
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
  // The last zero to fifteen bytes, byte by byte (any alignment), scrambled like a block's words but not absorbed.
  const from = first + (size & ~15)
  const to = first + size
  if (to > from + 12) h4 ^= scramble(tailWord(bytes, from + 12, to), C4, 18, C1)
  if (to > from + 8) h3 ^= scramble(tailWord(bytes, from + 8, to), C3, 17, C4)
  if (to > from + 4) h2 ^= scramble(tailWord(bytes, from + 4, to), C2, 16, C3)
  if (to > from) h1 ^= scramble(tailWord(bytes, from, to), C1, 15, C2)
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
 * The fingerprint of a string: a non-negative safe integer below 2⁵³. With a `seed` (another fingerprint), the
 * fingerprint of the pair: what a call identity is made of (the tool name's fingerprint and the arguments), without
 * joining the two strings first, which costs more than hashing them.
 */
export function fingerprint(text: string, seed = 0): number {
  if (WIDE.test(text)) {
    const buffer = scratch(text.length * 2)
    return hashBytes(buffer, 0, buffer.bytes.write(text, 0, 'utf16le'), UTF16, seed)
  }
  // Every character fits in one byte: Latin-1 keeps them all, at half the size.
  const buffer = scratch(text.length)
  return hashBytes(buffer, 0, buffer.bytes.write(text, 0, 'latin1'), LATIN1, seed)
}

/**
 * Fingerprint ranges of one text: `range(start, end)` equals `fingerprint(text.slice(start, end))`, without making
 * the slice. A text whose characters all fit in one byte is loaded once; any other text falls back to slicing,
 * because a range of it may well fit in one byte where the whole does not. Valid until the next call into this module.
 */
export function fingerprintRanges(text: string): (start: number, end: number) => number {
  if (WIDE.test(text)) return (start, end) => fingerprint(text.slice(start, end))
  const buffer = scratch(text.length)
  buffer.bytes.write(text, 0, 'latin1')
  return (start, end) => hashBytes(buffer, start, end - start, LATIN1, 0)
}

/** Tags of the value encoding (see `fingerprintValue`). */
const NULL = 0
const FALSE = 1
const TRUE = 2
const NUMBER = 3
const LATIN1_STRING = 4
const UTF16_STRING = 5
const ARRAY = 6
const OBJECT = 7
const END = 8

/** Where the value encoding is being written: a scratch buffer, grown (and copied) as the value needs. */
let out = kept
let at = 0

function reserve(size: number): void {
  if (at + size <= out.bytes.length) return
  const grown = scratch(Math.max(out.bytes.length * 2, at + size))
  out.bytes.copy(grown.bytes, 0, 0, at)
  out = grown
}

function writeLength(length: number): void {
  const bytes = out.bytes
  bytes[at] = length
  bytes[at + 1] = length >>> 8
  bytes[at + 2] = length >>> 16
  bytes[at + 3] = length >>> 24
  at += 4
}

function writeString(text: string): void {
  if (WIDE.test(text)) {
    reserve(5 + text.length * 2)
    out.bytes[at++] = UTF16_STRING
    writeLength(text.length)
    at += out.bytes.write(text, at, 'utf16le')
  } else {
    reserve(5 + text.length)
    out.bytes[at++] = LATIN1_STRING
    writeLength(text.length)
    at += out.bytes.write(text, at, 'latin1')
  }
}

/**
 * Object keys as `writeString` encodes them, remembered: arguments use a few dozen field names over and over, and a
 * copy of remembered bytes costs less than another native write. Bounded: long keys are not remembered, and the
 * memory starts over once it holds `REMEMBERED_KEYS` of them.
 */
const rememberedKeys = new Map<string, Uint8Array>()
const REMEMBERED_KEYS = 1024
const REMEMBERED_KEY_CHARS = 64

function writeKey(key: string): void {
  let encoded = rememberedKeys.get(key)
  if (encoded === undefined) {
    const start = at
    writeString(key)
    if (key.length > REMEMBERED_KEY_CHARS) return
    if (rememberedKeys.size >= REMEMBERED_KEYS) rememberedKeys.clear()
    // A copy: a Buffer's slice is a view of the scratch memory, which the next call overwrites.
    rememberedKeys.set(key, new Uint8Array(out.bytes.subarray(start, at)))
    return
  }
  reserve(encoded.length)
  out.bytes.set(encoded, at)
  at += encoded.length
}

/** Whether JSON leaves this value out of an object (and writes `null` for it in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
}

/** Keys at most this many are sorted in place by insertion; more go to `Array.prototype.sort`. */
const FEW_KEYS = 16

/**
 * `keys` in code-unit order, as `sort()` leaves them. Arguments have a handful of keys, often in order already, and
 * `sort()` allocates a working copy even for those; a few insertions allocate nothing.
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > FEW_KEYS) return keys.sort()
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!
    let j = i - 1
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!
      j--
    }
    keys[j + 1] = key
  }
  return keys
}

function writeValue(value: unknown): void {
  switch (typeof value) {
    case 'string':
      writeString(value)
      return
    case 'number':
      reserve(9)
      if (!Number.isFinite(value)) {
        out.bytes[at++] = NULL
        return
      }
      out.bytes[at++] = NUMBER
      // JSON has one zero.
      out.bytes.writeDoubleLE(value === 0 ? 0 : value, at)
      at += 8
      return
    case 'boolean':
      reserve(1)
      out.bytes[at++] = value ? TRUE : FALSE
      return
    case 'bigint':
      // JSON cannot hold one either; parsed arguments never do.
      throw new TypeError('Do not know how to fingerprint a BigInt')
    default:
  }
  if (value === null || typeof value !== 'object') {
    reserve(1)
    out.bytes[at++] = NULL
    return
  }
  reserve(1)
  if (Array.isArray(value)) {
    out.bytes[at++] = ARRAY
    const items = value as unknown[]
    for (let i = 0; i < items.length; i++) writeValue(omitted(items[i]) ? null : items[i])
  } else {
    out.bytes[at++] = OBJECT
    const record = value as Record<string, unknown>
    const keys = sortKeys(Object.keys(record))
    for (let i = 0; i < keys.length; i++) {
      const item = record[keys[i]!]
      if (omitted(item)) continue
      writeKey(keys[i]!)
      writeValue(item)
    }
  }
  reserve(1)
  out.bytes[at++] = END
}

/**
 * The fingerprint of a JSON value as JSON sees it, seeded like `fingerprint`: two values that serialize to the same
 * key-sorted JSON get the same fingerprint (keys in any order, one zero, no `undefined` members), two that do not get
 * different ones, with the same chance of a collision as any two texts. The value is written straight into the scratch
 * buffer as tagged, length-prefixed parts, never as JSON text: serializing a 4 KB string argument takes ten times
 * as long as copying it. Returns `undefined` for a value nested too deeply to walk.
 */
export function fingerprintValue(value: unknown, seed = 0): number | undefined {
  out = kept
  at = 0
  try {
    writeValue(value)
  } catch (error) {
    // Walking recurses: a value nested tens of thousands of levels deep exhausts the stack.
    if (error instanceof RangeError) return undefined
    throw error
  }
  return hashBytes(out, 0, at, VALUE, seed)
}
