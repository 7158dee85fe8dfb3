/**
 * Columns of numbers that a detector keeps per agent: plain arrays of a fixed length, zero-filled as a typed array
 * would be. A typed array lies outside the JavaScript heap, and making one costs microseconds of the collector's
 * bookkeeping (bench/README.md); every agent makes these columns, so for a few dozen numbers a plain array is the
 * cheaper home. Columns that grow as an agent goes (the identical-call chains, rereading's windows) are plain arrays
 * appended to instead; only the least-recently-used tables keep their links typed, where thousands of slots at two
 * bytes a link against a plain array's eight are what counts (lru-table.ts).
 * @module dsh-brake/core/tables/columns
 */

/**
 * A plain array of `length` zeros. Filled by pushing, so V8 keeps it packed (no holes) and of small integers until a
 * fraction is written, when it moves to unboxed doubles: either way its numbers are not objects.
 */
export function zeros(length: number): number[] {
  const column: number[] = []
  for (let i = 0; i < length; i++) column.push(0)
  return column
}
