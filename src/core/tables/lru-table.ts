/**
 * A bounded table of fingerprints, least recently used forgotten first: what every per-key detector state is indexed
 * by (it hands out slot numbers; each detector keeps its own data per slot). Arrays indexed by slot rather than a `Map`
 * with delete-and-reinsert, whose eviction walks the holes deletions leave, and most keys are new (bench/README.md).
 * Design: docs/design.md#bounds
 * @module dsh-brake/core/tables/lru-table
 */
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
  return new Table(limit)
}

/**
 * A class rather than a factory of closures: every agent makes up to five tables, and a table's dozen closures cost
 * about 700 bytes each time, where its methods on a prototype are made once. Its fields are its own, read by no one
 * else (`added` and `size` are kept up to date, not getters: see `Mutable`).
 */
class Table implements LruTable {
  added = false
  size = 0
  private readonly limit: number
  private slots = 0
  // keys[slot], in a plain array: V8 keeps numbers in it unboxed, on the heap, where a typed array's memory would be
  // fresh memory outside it, the greater part of a table's growth (a fingerprint takes eight bytes, a link two).
  // Slots are handed out in order, so keys are appended: growth never copies them.
  private readonly keys: number[] = []
  // Shared empty arrays until the first key: a table that is never used allocates no memory outside the heap.
  private newer = NO_LINKS
  private older = NO_LINKS
  // index[bucket] = slot + 1, 0 for an empty bucket; at least twice as many buckets as slots.
  private index = NO_LINKS
  private mask = 0
  private used = 0
  private newest = NONE
  private oldest = NONE

  constructor(limit: number) {
    this.limit = limit
  }

  find(key: number): number {
    if (this.used === 0) return NONE
    const bucket = this.bucketOfKey(key)
    return bucket === NONE ? NONE : this.index[bucket]! - 1
  }

  use(key: number): number {
    if (this.used > 0) {
      const bucket = this.bucketOfKey(key)
      if (bucket !== NONE) {
        const slot = this.index[bucket]! - 1
        if (slot !== this.newest) {
          this.unlink(slot)
          this.link(slot)
        }
        this.added = false
        return slot
      }
    }
    let slot: number
    if (this.used < this.limit) {
      if (this.used === this.slots) this.grow()
      slot = this.used++
    } else {
      // Full: the least recently used key gives its slot up.
      slot = this.oldest
      this.unplace(this.bucketOfKey(this.keys[slot]!))
      this.unlink(slot)
    }
    this.keys[slot] = key
    this.place(slot)
    this.link(slot)
    this.added = true
    this.size = this.used
    return slot
  }

  clear(): void {
    this.index.fill(0)
    this.used = 0
    this.newest = NONE
    this.oldest = NONE
    this.size = 0
  }

  private bucketOf(key: number): number {
    return (key >>> 0) & this.mask
  }

  private place(slot: number): void {
    const index = this.index
    let bucket = this.bucketOf(this.keys[slot]!)
    while (index[bucket] !== 0) bucket = (bucket + 1) & this.mask
    index[bucket] = slot + 1
  }

  private grow(): void {
    const slots = this.slots = Math.min(this.limit, Math.max(INITIAL_SLOTS, this.slots * GROWTH))
    let buckets = 2
    while (buckets < slots * 2) buckets *= 2
    // One allocation for the three arrays (each one outside the heap costs the collector work of its own).
    const memory = new ArrayBuffer(slots * 4 + buckets * 2)
    const grownNewer = new Int16Array(memory, 0, slots)
    const grownOlder = new Int16Array(memory, slots * 2, slots)
    grownNewer.set(this.newer)
    grownOlder.set(this.older)
    this.newer = grownNewer
    this.older = grownOlder
    this.index = new Int16Array(memory, slots * 4, buckets)
    this.mask = buckets - 1
    for (let slot = 0; slot < this.used; slot++) this.place(slot)
  }

  private bucketOfKey(key: number): number {
    const index = this.index
    const keys = this.keys
    const mask = this.mask
    for (let bucket = this.bucketOf(key); ; bucket = (bucket + 1) & mask) {
      const entry = index[bucket]!
      if (entry === 0) return NONE
      if (keys[entry - 1] === key) return bucket
    }
  }

  /** Empty `bucket`, moving later entries of its probe run back so that every lookup still finds them. */
  private unplace(bucket: number): void {
    const index = this.index
    const mask = this.mask
    let hole = bucket
    for (let next = (hole + 1) & mask; index[next] !== 0; next = (next + 1) & mask) {
      const home = this.bucketOf(this.keys[index[next]! - 1]!)
      // The entry at `next` may move into the hole unless its home lies cyclically in (hole, next].
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        index[hole] = index[next]!
        hole = next
      }
    }
    index[hole] = 0
  }

  private unlink(slot: number): void {
    const before = this.older[slot]!
    const after = this.newer[slot]!
    if (before === NONE) this.oldest = after
    else this.newer[before] = after
    if (after === NONE) this.newest = before
    else this.older[after] = before
  }

  private link(slot: number): void {
    this.older[slot] = this.newest
    this.newer[slot] = NONE
    if (this.newest === NONE) this.oldest = slot
    else this.newer[this.newest] = slot
    this.newest = slot
  }
}
