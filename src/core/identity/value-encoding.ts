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
  let out = bufferOf(1 << 12)
  let at = 0
  // Arguments use a few dozen field names over and over: a copy of remembered bytes costs less than another write.
  const rememberedKeys = new Map<string, Uint8Array>()

  function reserve(size: number): void {
    if (at + size <= out.bytes.length) return
    const grown = bufferOf(Math.max(out.bytes.length * 2, at + size))
    out.bytes.copy(grown.bytes, 0, 0, at)
    out = grown
  }

  function writeLength(length: number): void {
    out.bytes.writeUInt32LE(length, at)
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

  function writeKey(key: string): void {
    const encoded = rememberedKeys.get(key)
    if (encoded !== undefined) {
      reserve(encoded.length)
      out.bytes.set(encoded, at)
      at += encoded.length
      return
    }
    const start = at
    writeString(key)
    if (key.length > REMEMBERED_KEY_CHARS) return
    if (rememberedKeys.size >= REMEMBERED_KEYS) rememberedKeys.clear()
    // A copy: the buffer is overwritten by the next value.
    rememberedKeys.set(key, new Uint8Array(out.bytes.subarray(start, at)))
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
    reserve(1)
    if (value === null || typeof value !== 'object') {
      out.bytes[at++] = NULL
      return
    }
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

  return (value, seed = 0) => {
    at = 0
    try {
      writeValue(value)
      return hashBytes(out, 0, at, Domain.VALUE, seed)
    } catch (error) {
      // Walking recurses: a value nested tens of thousands of levels deep exhausts the stack.
      if (error instanceof RangeError) return undefined
      throw error
    } finally {
      // One huge argument (a whole file written) must not keep its buffer for as long as the plugin runs.
      if (out.bytes.length > KEPT_BYTES) out = bufferOf(1 << 12)
    }
  }
}
