/**
 * A bounded table of fingerprints, least recently used forgotten first: what every per-key detector state is indexed
 * by (it hands out slot numbers; each detector keeps its own data per slot). Arrays indexed by slot rather than a `Map`
 * with delete-and-reinsert, whose eviction walks the holes deletions leave, and most keys are new (bench/README.md).
 * Design: docs/design.md#bounds
 * @module dsh-brake/core/lru-table
 */
import type { Mutable } from './types.js'

/**
 * Slots a table starts with; it grows fourfold up to its bound as keys arrive, so an agent that does little costs
 * little, and a table that fills (a few thousand lines of file content) is moved and rehashed a few times, not many.
 * What it moves is its links and index: the keys lie in an array that only ever has keys appended.
 */
const INITIAL_SLOTS = 16
const GROWTH = 4
const NONE = -1
/**
 * Keys a table holds at most: slot numbers (and slot + 1, in the index) are 16-bit. The links and index lie outside
 * the heap, in memory fresh from the system as the table grows (faulted in page by page as it is zeroed), and the
 * collector is pressed by every byte of it an agent allocates: two bytes a link, not four.
 */
export const MAX_LIMIT = 0x7fff
const NO_LINKS = new Int16Array(0)

/** A bounded fingerprint → slot table. */
export interface LruTable {
  /** The slot of `key`, or -1; does not count as a use. */
  find(key: number): number
  /**
   * The slot of `key`, marked most recently used. A key not in the table takes a free slot, or the least recently
   * used key's slot once the table is full; `added` then tells the caller to start that slot's data afresh.
   */
  use(key: number): number
  /** Whether the latest `use` added its key (rather than finding it). */
  readonly added: boolean
  /** Forget everything. */
  clear(): void
  /** Keys held now. */
  readonly size: number
}

/** Create a table of at most `limit` keys (1 ≤ `limit` ≤ `MAX_LIMIT`). Keys are non-negative safe integers (fingerprints). */
export function createLruTable(limit: number): LruTable {
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new RangeError(`an LRU table holds 1 to ${MAX_LIMIT} keys, not ${limit}`)
  let slots = 0
  // keys[slot], in a plain array: V8 keeps numbers in it unboxed, on the heap, where a typed array's memory would be
  // fresh memory outside it, the greater part of a table's growth (a fingerprint takes eight bytes, a link two).
  // Slots are handed out in order, so keys are appended: growth never copies them.
  const keys: number[] = []
  // Shared empty arrays until the first key: a table that is never used allocates no memory outside the heap.
  let newer = NO_LINKS
  let older = NO_LINKS
  // index[bucket] = slot + 1, 0 for an empty bucket; at least twice as many buckets as slots.
  let index = NO_LINKS
  let mask = 0
  let used = 0
  let newest = NONE
  let oldest = NONE

  const bucketOf = (key: number): number => (key >>> 0) & mask

  function place(slot: number): void {
    let bucket = bucketOf(keys[slot]!)
    while (index[bucket] !== 0) bucket = (bucket + 1) & mask
    index[bucket] = slot + 1
  }

  function grow(): void {
    slots = Math.min(limit, Math.max(INITIAL_SLOTS, slots * GROWTH))
    let buckets = 2
    while (buckets < slots * 2) buckets *= 2
    // One allocation for the three arrays (each one outside the heap costs the collector work of its own).
    const memory = new ArrayBuffer(slots * 4 + buckets * 2)
    const grownNewer = new Int16Array(memory, 0, slots)
    const grownOlder = new Int16Array(memory, slots * 2, slots)
    grownNewer.set(newer)
    grownOlder.set(older)
    newer = grownNewer
    older = grownOlder
    index = new Int16Array(memory, slots * 4, buckets)
    mask = buckets - 1
    for (let slot = 0; slot < used; slot++) place(slot)
  }

  function bucketOfKey(key: number): number {
    for (let bucket = bucketOf(key); ; bucket = (bucket + 1) & mask) {
      const entry = index[bucket]!
      if (entry === 0) return NONE
      if (keys[entry - 1] === key) return bucket
    }
  }

  /** Empty `bucket`, moving later entries of its probe run back so that every lookup still finds them. */
  function unplace(bucket: number): void {
    let hole = bucket
    for (let next = (hole + 1) & mask; index[next] !== 0; next = (next + 1) & mask) {
      const home = bucketOf(keys[index[next]! - 1]!)
      // The entry at `next` may move into the hole unless its home lies cyclically in (hole, next].
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        index[hole] = index[next]!
        hole = next
      }
    }
    index[hole] = 0
  }

  function unlink(slot: number): void {
    const before = older[slot]!
    const after = newer[slot]!
    if (before === NONE) oldest = after
    else newer[before] = after
    if (after === NONE) newest = before
    else older[after] = before
  }

  function link(slot: number): void {
    older[slot] = newest
    newer[slot] = NONE
    if (newest === NONE) oldest = slot
    else newer[newest] = slot
    newest = slot
  }

  // `added` and `size` are fields kept up to date, not getters (see `Mutable`): every agent makes several tables.
  const table: Mutable<LruTable> = {
    find(key) {
      if (used === 0) return NONE
      const bucket = bucketOfKey(key)
      return bucket === NONE ? NONE : index[bucket]! - 1
    },
    use(key) {
      if (used > 0) {
        const bucket = bucketOfKey(key)
        if (bucket !== NONE) {
          const slot = index[bucket]! - 1
          if (slot !== newest) {
            unlink(slot)
            link(slot)
          }
          table.added = false
          return slot
        }
      }
      let slot: number
      if (used < limit) {
        if (used === slots) grow()
        slot = used++
      } else {
        // Full: the least recently used key gives its slot up.
        slot = oldest
        unplace(bucketOfKey(keys[slot]!))
        unlink(slot)
      }
      keys[slot] = key
      place(slot)
      link(slot)
      table.added = true
      table.size = used
      return slot
    },
    added: false,
    clear() {
      index.fill(0)
      used = 0
      newest = NONE
      oldest = NONE
      table.size = 0
    },
    size: 0,
  }
  return table
}
