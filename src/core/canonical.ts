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
 * to serialize (walking it exhausts the stack). Equal JSON values give equal strings. Arguments usually arrive with
 * their keys in the order the model wrote them, which is often sorted already: then the native `JSON.stringify` does
 * all the work, and only the objects that are out of order are copied.
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
 * `value` itself when every object in it has its keys in sorted order, otherwise a copy with them sorted. Integer
 * keys such as `"10"` and `"9"` are listed by the engine in numeric order whatever the insertion order, so an object
 * holding them is always copied; the copy's order is then the engine's, the same for every object with those keys.
 */
function sortedCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i]
      const sorted = sortedCopy(item)
      if (sorted !== item) (copy ??= value.slice())[i] = sorted
    }
    return copy ?? value
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  let inOrder = true
  // The values with their own keys sorted, once one of them had to be copied.
  let values: unknown[] | undefined
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && keys[i - 1]! >= keys[i]!) inOrder = false
    const item = record[keys[i]!]
    const sorted = sortedCopy(item)
    if (sorted !== item) values ??= keys.slice(0, i).map(key => record[key])
    values?.push(sorted)
  }
  if (inOrder && values === undefined) return value
  const order = keys.map((_, index) => index)
  if (!inOrder) order.sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1))
  // No prototype: a `__proto__` key from parsed JSON stays a plain key.
  const copy = Object.create(null) as Record<string, unknown>
  for (const index of order) copy[keys[index]!] = values === undefined ? record[keys[index]!] : values[index]
  return copy
}
