/**
 * The version of each call identity's result: a number that moves on whenever a call brings a result different from
 * the identity's previous one. It is what lets the detectors ask "did anything change since last time?" with one
 * comparison of numbers, and what the sequence detector compares so that a cycle whose output moves is not a loop.
 * @module dsh-brake/core/result-versions
 */
import { createLruTable } from './lru-table.js'
import { NO_RESULT, sameResult, type ResultRef } from './results.js'

/** Result versions per call identity, for a bounded number of identities. */
export interface ResultVersions {
  /**
   * The version of `key`'s result once `result` is taken in; a refused attempt has no result of its own and leaves the
   * version as it was. Every call is passed, refused ones included, so that the least recently seen identity is
   * forgotten first.
   */
  observe(key: number, result: ResultRef, refused: boolean): number
  clear(): void
  /** Identities remembered now. */
  readonly size: number
}

interface Entry {
  result: ResultRef
  version: number
}

/** Create the versions of at most `maxTracked` identities; the least recently seen is forgotten first. */
export function createResultVersions(maxTracked: number): ResultVersions {
  const table = createLruTable(maxTracked)
  // Per slot of `table`; an entry is reused when its slot passes to another identity.
  const entries: Entry[] = []
  return {
    observe(key, result, refused) {
      const slot = table.use(key)
      let entry = entries[slot]
      if (entry === undefined) {
        entries[slot] = entry = { result: NO_RESULT, version: 0 }
      } else if (table.added) {
        entry.result = NO_RESULT
        entry.version = 0
      }
      if (refused) return entry.version
      // A first result is a new version without a comparison (which could cost a normalization).
      if (entry.result === NO_RESULT || !sameResult(entry.result, result)) entry.version++
      entry.result = result
      return entry.version
    },
    clear() {
      table.clear()
      entries.length = 0
    },
    get size() {
      return table.size
    },
  }
}
