/**
 * A fast, non-cryptographic 64-bit string fingerprint.
 *
 * Why not keep the full canonical form: per-agent state must stay bounded however large the arguments or text
 * blocks are (a 4 KB argument repeated across a thousand tracked identities would cost megabytes). Why not
 * `node:crypto`: the core stays free of Node APIs, and for the short strings that dominate (tool arguments,
 * paragraphs) a one-pass JavaScript hash costs less than a native call. Two 32-bit lanes with different
 * multipliers run over every UTF-16 code unit, then a cross-mixing finalizer spreads both lanes over all 64 output
 * bits. For inputs that are not crafted to collide, the chance that any two of n tracked fingerprints collide is
 * about n² / 2⁶⁵ (README, "Fingerprints").
 * @module dsh-brake/core/fingerprint
 */

/** Receives the normalized length of the fingerprinted range. */
export interface FingerprintLength {
  length: number
}

/**
 * Fingerprint `text[start, end)` as 16 hex digits. Line breaks are normalized on the way: `\r\n` and a lone `\r`
 * hash as `\n`, so a block pasted with Windows line endings matches its Unix twin. The normalized length is written
 * to `out` when given, so the text scanner allocates nothing per block. Callers that must not conflate `\r` with
 * `\n` pass text with no raw `\r` in it (JSON, as the call identity does).
 */
export function fingerprint(text: string, start = 0, end = text.length, out?: FingerprintLength): string {
  let h1 = 0x9e3779b9
  let h2 = 0x85ebca77
  let length = 0
  for (let i = start; i < end; i++) {
    let code = text.charCodeAt(i)
    if (code === 13) {
      if (i + 1 < end && text.charCodeAt(i + 1) === 10) continue
      code = 10
    }
    length++
    h1 = Math.imul(h1 ^ code, 0x2c1b3c6d)
    h1 = (h1 << 13) | (h1 >>> 19)
    h2 = Math.imul(h2 ^ code, 0x297a2d39)
    h2 = (h2 << 17) | (h2 >>> 15)
  }
  if (out !== undefined) out.length = length
  // Cross-mix the lanes (murmur-style avalanche) with the length folded in, then print 2 × 8 hex digits.
  let a = h1 ^ length ^ (h2 >>> 15)
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b)
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35)
  a ^= a >>> 16
  let b = h2 ^ Math.imul(length, 0x27d4eb2f) ^ a
  b = Math.imul(b ^ (b >>> 16), 0x7feb352d)
  b = Math.imul(b ^ (b >>> 15), 0x846ca68b)
  b ^= b >>> 16
  a ^= b >>> 7
  return hex8(a) + hex8(b)
}

function hex8(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0')
}
