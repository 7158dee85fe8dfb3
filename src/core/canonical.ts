/**
 * Call identity: tool name plus canonical arguments.
 * @module dsh-brake/core/canonical
 */
import stringify from 'fast-json-stable-stringify'
import { keyOf } from './results.js'

/** A call's identity and the canonical arguments it was computed from. */
export interface CallIdentity {
  /** The key of the tool name and the canonical arguments (itself when short, its fingerprint otherwise). */
  readonly key: string
  /** Key-sorted JSON of the arguments. */
  readonly args: string
}

/**
 * Identify a call. Arguments arrive as parsed JSON, or as the raw string when the model's argument JSON did not
 * parse; either way they are serialized with sorted keys, so `{a,b}` and `{b,a}` are one identity and a raw string is
 * its own value. Returns `undefined` for arguments too deeply nested to serialize. The tool name goes in JSON-quoted, so neither a separator nor a line break inside it can make two
 * different calls meet.
 */
export function identifyCall(tool: string, args: unknown): CallIdentity | undefined {
  let canonical: string
  try {
    canonical = stringify(args) ?? 'null'
  } catch (error) {
    // Serializing recurses: arguments nested tens of thousands of levels deep exhaust the stack. They have no
    // identity (undefined), which the caller takes as "not watched"; anything else is a real failure.
    if (error instanceof RangeError) return undefined
    throw error
  }
  return { key: keyOf(JSON.stringify(tool) + canonical), args: canonical }
}
