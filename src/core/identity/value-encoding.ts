/**
 * A JSON value's fingerprint, taken from a compact byte encoding of the value rather than from its JSON text, because
 * serializing a long string argument costs many times as much as copying it, and every call's identity is computed.
 * Two values get the same bytes exactly when they serialize to the same key-sorted JSON.
 * Design: docs/design.md#fingerprints
 * @module dsh-brake/core/identity/value-encoding
 */
import { Domain, hashBytes, WIDE, type ByteView } from '../tables/hash.js'

const NULL = 0
const FALSE = 1
const TRUE = 2
const NUMBER = 3
const LATIN1_STRING = 4
const UTF16_STRING = 5
const ARRAY = 6
const OBJECT = 7
const END = 8

/** Object keys whose encoding is remembered at most; the memory starts over beyond that. */
const REMEMBERED_KEYS = 1024
/** Longer keys are encoded every time. */
const REMEMBERED_KEY_CHARS = 64
/** Bytes of buffer kept between values at most: one value larger than this gets a buffer that is let go after it. */
const KEPT_BYTES = 1 << 20
/** Keys at most this many are sorted by insertion, which allocates nothing; more go to `Array.prototype.sort`. */
const FEW_KEYS = 16

interface Buffered extends ByteView {
  readonly bytes: Buffer
}

function bufferOf(size: number): Buffered {
  const bytes = Buffer.allocUnsafeSlow(size)
  return { bytes, view: new DataView(bytes.buffer, 0, size) }
}

/** Whether JSON leaves this value out of an object (and writes `null` for it in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
}

/** `keys` in code-unit order, as `sort()` leaves them (arguments have a handful, often in order already). */
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

/** Fingerprint a JSON value, seeded like `fingerprint`; `undefined` for a value nested too deeply to walk. */
export type ValueFingerprinter = (value: unknown, seed?: number) => number | undefined

/** Create a fingerprinter with its own buffer. */
export function createValueFingerprinter(): ValueFingerprinter {
  const encoder = new ValueEncoder()
  return (value, seed = 0) => encoder.fingerprint(value, seed)
}

/**
 * A value's compact encoding, written into one buffer that grows as needed and is hashed where it lies. A class, so
 * that its writers are methods made once.
 */
class ValueEncoder {
  private out = bufferOf(1 << 12)
  private at = 0
  // Arguments use a few dozen field names over and over: a copy of remembered bytes costs less than another write.
  private readonly rememberedKeys = new Map<string, Uint8Array>()

  fingerprint(value: unknown, seed: number): number | undefined {
    this.at = 0
    try {
      this.writeValue(value)
      return hashBytes(this.out, 0, this.at, Domain.VALUE, seed)
    } catch (error) {
      // Walking recurses: a value nested tens of thousands of levels deep exhausts the stack.
      if (error instanceof RangeError) return undefined
      throw error
    } finally {
      // One huge argument (a whole file written) must not keep its buffer for as long as the plugin runs.
      if (this.out.bytes.length > KEPT_BYTES) this.out = bufferOf(1 << 12)
    }
  }

  private reserve(size: number): void {
    if (this.at + size <= this.out.bytes.length) return
    const grown = bufferOf(Math.max(this.out.bytes.length * 2, this.at + size))
    this.out.bytes.copy(grown.bytes, 0, 0, this.at)
    this.out = grown
  }

  private writeByte(byte: number): void {
    this.out.bytes[this.at++] = byte
  }

  private writeLength(length: number): void {
    this.out.bytes.writeUInt32LE(length, this.at)
    this.at += 4
  }

  private writeString(text: string): void {
    const wide = WIDE.test(text)
    this.reserve(5 + text.length * (wide ? 2 : 1))
    this.writeByte(wide ? UTF16_STRING : LATIN1_STRING)
    this.writeLength(text.length)
    this.at += this.out.bytes.write(text, this.at, wide ? 'utf16le' : 'latin1')
  }

  private writeKey(key: string): void {
    const encoded = this.rememberedKeys.get(key)
    if (encoded !== undefined) {
      this.reserve(encoded.length)
      this.out.bytes.set(encoded, this.at)
      this.at += encoded.length
      return
    }
    const start = this.at
    this.writeString(key)
    if (key.length > REMEMBERED_KEY_CHARS) return
    if (this.rememberedKeys.size >= REMEMBERED_KEYS) this.rememberedKeys.clear()
    // A copy: the buffer is overwritten by the next value.
    this.rememberedKeys.set(key, new Uint8Array(this.out.bytes.subarray(start, this.at)))
  }

  private writeValue(value: unknown): void {
    switch (typeof value) {
      case 'string':
        this.writeString(value)
        return
      case 'number':
        this.reserve(9)
        if (!Number.isFinite(value)) {
          this.writeByte(NULL)
          return
        }
        this.writeByte(NUMBER)
        // JSON has one zero.
        this.out.bytes.writeDoubleLE(value === 0 ? 0 : value, this.at)
        this.at += 8
        return
      case 'boolean':
        this.reserve(1)
        this.writeByte(value ? TRUE : FALSE)
        return
      case 'bigint':
        // JSON cannot hold one either; parsed arguments never do.
        throw new TypeError('Do not know how to fingerprint a BigInt')
      default:
    }
    this.reserve(1)
    if (value === null || typeof value !== 'object') this.writeByte(NULL)
    else if (Array.isArray(value)) this.writeArray(value as unknown[])
    else this.writeObject(value as Record<string, unknown>)
  }

  private writeArray(items: unknown[]): void {
    this.writeByte(ARRAY)
    for (let i = 0; i < items.length; i++) this.writeValue(omitted(items[i]) ? null : items[i])
    this.reserve(1)
    this.writeByte(END)
  }

  private writeObject(record: Record<string, unknown>): void {
    this.writeByte(OBJECT)
    const keys = sortKeys(Object.keys(record))
    for (let i = 0; i < keys.length; i++) {
      const item = record[keys[i]!]
      if (omitted(item)) continue
      this.writeKey(keys[i]!)
      this.writeValue(item)
    }
    this.reserve(1)
    this.writeByte(END)
  }
}
