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
 * included, so nothing is lost either way. Four independent multiply-rotate lanes then read it 32 bits at a time, so
 * the processor overlaps their multiplications instead of waiting on one chain.
 *
 * Each lane step is a bijection of the lane for a fixed input word and of the word for a fixed lane, so two texts of
 * one length and encoding that differ in a single 32-bit word always leave different lanes; otherwise two texts
 * meet with a chance of about 2⁻⁵³ (README, "Fingerprints"). The hash is not built to resist texts crafted to
 * collide; the most such a collision could do here is one wrong notice.
 *
 * Pure: the scratch buffer is an implementation detail shared by every call; nothing depends on what it held before.
 * @module dsh-brake/core/fingerprint
 */

/** Bytes the scratch buffer keeps between calls at most (1 MiB); a longer text gets a buffer of its own. */
const KEPT_BYTES = 1 << 20

/** A character that does not fit in one byte. For a string V8 stores one byte per character, this test is free. */
const WIDE = /[\u0100-\uffff]/

/** Whether 32-bit words hold their lowest byte first (x64 and arm64 do). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

/** The encodings, kept apart: the same bytes mean different things in each. */
const LATIN1 = 0
const UTF16 = 1
const VALUE = 2

/** One buffer seen as bytes (to write text into) and as the 32-bit words the lanes read. */
interface Scratch {
  readonly bytes: Buffer
  readonly words: Int32Array
}

function scratchOf(size: number): Scratch {
  // A whole number of words; not zeroed (only written bytes are read), and never from Node's shared pool, so the
  // word view starts at byte 0.
  const bytes = Buffer.allocUnsafeSlow((size + 3) & ~3)
  return { bytes, words: new Int32Array(bytes.buffer, 0, bytes.length >> 2) }
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

const M1 = 0xcc9e2d51 | 0
const M2 = 0x1b873593 | 0
const M3 = 0x85ebca6b | 0
const M4 = 0xc2b2ae35 | 0

function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), M3)
  h = Math.imul(h ^ (h >>> 13), M4)
  return h ^ (h >>> 16)
}

/**
 * Hash `size` bytes of `buffer` from byte `first` on. `size` and the encoding's `domain` are mixed in, so texts that
 * differ only in trailing zero bytes differ, and so do the two encodings of one byte string; `seed` (a fingerprint,
 * or 0) starts two of the lanes, so one text under two seeds gives two unrelated values. The lanes always read
 * the 32-bit words that start at `first`, `first` + 4, …: when `first` is not a multiple of 4, each is put together
 * from the two aligned words it straddles.
 */
function hashBytes({ bytes, words }: Scratch, first: number, size: number, domain: number, seed: number): number {
  const count = size >> 2
  let a = 0x243f6a88 ^ size
  let b = 0x85a308d3 ^ domain
  let c = 0x13198a2e ^ seed
  let d = 0x03707344 ^ (seed / 0x100000000)
  let k = first >> 2
  const end = k + count
  const end4 = k + (count & ~3)
  const right = (first & 3) * 8
  if (right === 0) {
    for (; k < end4; k += 4) {
      a = Math.imul(a ^ words[k]!, M1)
      b = Math.imul(b ^ words[k + 1]!, M2)
      c = Math.imul(c ^ words[k + 2]!, M3)
      d = Math.imul(d ^ words[k + 3]!, M4)
      a = (a << 15) | (a >>> 17)
      b = (b << 13) | (b >>> 19)
      c = (c << 17) | (c >>> 15)
      d = (d << 11) | (d >>> 21)
    }
  } else {
    const left = 32 - right
    let low = words[k]!
    for (; k < end4; k += 4) {
      const w1 = words[k + 1]!
      const w2 = words[k + 2]!
      const w3 = words[k + 3]!
      const w4 = words[k + 4]!
      a = Math.imul(a ^ ((low >>> right) | (w1 << left)), M1)
      b = Math.imul(b ^ ((w1 >>> right) | (w2 << left)), M2)
      c = Math.imul(c ^ ((w2 >>> right) | (w3 << left)), M3)
      d = Math.imul(d ^ ((w3 >>> right) | (w4 << left)), M4)
      a = (a << 15) | (a >>> 17)
      b = (b << 13) | (b >>> 19)
      c = (c << 17) | (c >>> 15)
      d = (d << 11) | (d >>> 21)
      low = w4
    }
  }
  // The last one to three words, then the last one to three bytes, read byte by byte (any alignment).
  for (let lane = 0, byte = first + ((k - (first >> 2)) << 2); k < end; k++, lane++, byte += 4) {
    const word = bytes[byte]! | (bytes[byte + 1]! << 8) | (bytes[byte + 2]! << 16) | (bytes[byte + 3]! << 24)
    if (lane === 0) a = Math.imul(a ^ word, M2)
    else if (lane === 1) b = Math.imul(b ^ word, M3)
    else c = Math.imul(c ^ word, M4)
  }
  let tail = 0
  for (let i = first + size - 1; i >= first + (count << 2); i--) tail = (tail << 8) | bytes[i]!
  d = Math.imul(d ^ tail, M1)
  let high = mix(a ^ Math.imul(c, M2))
  const low = mix(b ^ Math.imul(d, M1) ^ high)
  high = mix(high ^ low)
  return (high >>> 0) * 0x200000 + (low >>> 11)
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
 * because a range of it may well fit in one byte where the whole does not (and so does every text on a big-endian
 * machine, where the words put together from unaligned bytes would not be the words read aligned). Valid until the
 * next call into this module.
 */
export function fingerprintRanges(text: string): (start: number, end: number) => number {
  if (!LITTLE_ENDIAN || WIDE.test(text)) return (start, end) => fingerprint(text.slice(start, end))
  // One word more than the text: an unaligned read of the last whole word looks one word further.
  const buffer = scratch(text.length + 4)
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

/** Whether JSON leaves this value out of an object (and writes `null` for it in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
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
    for (const item of value as unknown[]) writeValue(omitted(item) ? null : item)
  } else {
    out.bytes[at++] = OBJECT
    const record = value as Record<string, unknown>
    const keys = Object.keys(record)
    let sorted = true
    for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!
    if (!sorted) keys.sort()
    for (const key of keys) {
      const item = record[key]
      if (omitted(item)) continue
      writeString(key)
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
