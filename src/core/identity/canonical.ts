/**
 * A call's canonical form: its arguments as key-sorted JSON (only notices quote it), and its identity key, the
 * fingerprint of the arguments' value encoding seeded with the tool name's, so two calls share a key exactly when their
 * tool names and key-sorted JSON texts are equal.
 * Design: docs/design.md#fingerprints
 * @module dsh-brake/core/identity/canonical
 */
import stringify from 'fast-json-stable-stringify'
import { fingerprint } from '../tables/fingerprint.js'
import { memoizeByName } from './patterns.js'
import { createValueFingerprinter } from './value-encoding.js'

const fingerprintValue = createValueFingerprinter()
/** The library's types say string, but a value JSON cannot hold at the top (`undefined`) gives `undefined`. */
const stableJson = stringify as (value: unknown) => string | undefined
const rememberedSeed = memoizeByName(toolSeed)

/**
 * The identity key of a call. Arguments arrive as parsed JSON, or as the raw string when the model's argument JSON did
 * not parse; either way they are identified as key-sorted JSON, so `{a,b}` and `{b,a}` are one identity and a raw
 * string is its own value. `undefined` for arguments too deeply nested to walk.
 */
export function callKey(tool: string, args: unknown): number | undefined {
  return argumentsKey(rememberedSeed(tool), args)
}

/** What a tool's name puts into its calls' keys. */
export function toolSeed(tool: string): number {
  return fingerprint(tool)
}

/**
 * {@link callKey} from the tool's {@link toolSeed}, for a caller that looks a tool's name up once for all it needs of
 * it.
 */
export function argumentsKey(seed: number, args: unknown): number | undefined {
  return fingerprintValue(args, seed)
}

/**
 * JSON with every object's keys in sorted order (what a notice quotes), or `undefined` for a value nested too deeply
 * to serialize.
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    // No arguments at all read as `null`, as JSON writes a missing value.
    return stableJson(value) ?? 'null'
  } catch (error) {
    // Serializing recurses: arguments nested tens of thousands of levels deep exhaust the stack.
    if (error instanceof RangeError) return undefined
    throw error
  }
}
