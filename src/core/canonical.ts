/**
 * Call identity: tool name plus canonical arguments.
 * @module dsh-brake/core/canonical
 */
import { fingerprint, fingerprintValue } from './fingerprint.js'
import { memoizeByName } from './patterns.js'

/** A call's identity and the arguments it was computed from. */
export interface CallIdentity {
  /** The fingerprint of the arguments as key-sorted JSON, seeded with the tool name's. */
  readonly key: number
  /** The arguments the identity was computed from, as given; `canonicalJson` turns them into text for a preview. */
  readonly args: unknown
}

/**
 * Identify a call. Arguments arrive as parsed JSON, or as the raw string when the model's argument JSON did not
 * parse; either way they are identified as key-sorted JSON, so `{a,b}` and `{b,a}` are one identity and a raw string
 * is its own value. Returns `undefined` for arguments too deeply nested to walk. The tool name and the arguments are
 * hashed apart (the name's fingerprint seeds the arguments'), so no split of one string between the two can make two
 * different calls meet. The JSON text itself is only made when a notice quotes it.
 */
export function identifyCall(tool: string, args: unknown): CallIdentity | undefined {
  const key = callKey(tool, args)
  return key === undefined ? undefined : { key, args }
}

/** The key alone of `identifyCall(tool, args)`: what the hottest path needs, without an object to hold it. */
export function callKey(tool: string, args: unknown): number | undefined {
  return fingerprintValue(args, toolSeed(tool))
}

const toolSeed = memoizeByName(tool => fingerprint(tool))

/**
 * JSON with every object's keys in sorted order (what a notice quotes), or `undefined` for a value nested too deeply
 * to serialize (walking it exhausts the stack). Equal JSON values give equal strings. Only notices need it, so it
 * simply serializes a sorted copy.
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(sortedCopy(value)) ?? 'null'
  } catch (error) {
    // Serializing recurses: arguments nested tens of thousands of levels deep exhaust the stack. They have no
    // identity (undefined), which the caller takes as "not watched"; anything else is a real failure.
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/**
 * A copy of `value` with every object's keys inserted in sorted order. Integer keys such as `"10"` and `"9"` are
 * listed by the engine in numeric order whatever the insertion order: the same order for every object with those keys.
 */
function sortedCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(sortedCopy)
  const record = value as Record<string, unknown>
  // No prototype: a `__proto__` key from parsed JSON stays a plain key.
  const copy = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(record).sort()) copy[key] = sortedCopy(record[key])
  return copy
}
