/**
 * Least-recently-seen eviction on top of `Map`'s insertion order.
 * @module dsh-brake/core/tables/bounded-map
 */

/**
 * Look `key` up, marking it most recently seen, or create it with `create()`. When the map then holds more than
 * `limit` entries, the least recently seen one is dropped, so a detector's memory is bounded by configuration,
 * not by session length.
 */
export function touch<K, V>(map: Map<K, V>, key: K, limit: number, create: () => V): V {
  const value = map.get(key)
  if (value === undefined) return remember(map, key, create(), limit)
  map.delete(key)
  map.set(key, value)
  return value
}

/**
 * Set `key` to `value` as the most recently seen key (`key` must not be in the map, or be its most recently seen
 * already); when the map then holds more than `limit` entries, the least recently seen one is dropped.
 */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): V {
  map.set(key, value)
  if (map.size > limit) map.delete(map.keys().next().value as K)
  return value
}
