/**
 * Fingerprints: what per-agent state keeps instead of full arguments or text.
 *
 * Why not keep the full canonical form: state must stay bounded however large the arguments or text blocks are (a
 * 4 KB argument across a thousand tracked identities would cost megabytes). Why SHA-1 through `node:crypto`: it is a
 * pure function (no I/O, no clock), and measured on the target machine the one-shot native `hash()` beats a
 * JavaScript hash loop on short strings and runs at over 1 GB/s on long ones. 160 bits make an accidental collision
 * among n tracked fingerprints about n² / 2¹⁶¹; a deliberately built SHA-1 collision costs about 2⁶³ hash
 * computations, far beyond anything a model's tool arguments or an injected context do (README, "Fingerprints").
 * @module dsh-brake/core/fingerprint
 */
import { hash } from 'node:crypto'

/**
 * Fingerprint a string losslessly: every UTF-16 code unit counts. Well-formed text is hashed as UTF-8, which is
 * injective for it; text with a lone surrogate (which UTF-8 would turn into U+FFFD, merging different strings) is
 * hashed as UTF-16 in a separate domain.
 */
export function fingerprint(text: string): string {
  return text.isWellFormed() ? hash('sha1', text, 'base64') : `~${hash('sha1', Buffer.from(text, 'utf16le'), 'base64')}`
}
