/**
 * Columns of numbers that a detector keeps per agent, or per file an agent reads: plain arrays of a fixed length,
 * zero-filled as a typed array would be. A typed array lies outside the JavaScript heap, and making one costs
 * microseconds of the collector's bookkeeping (bench/README.md); an agent makes a few of these columns, and one per
 * file it pages through, so for columns of a few dozen numbers a plain array is the cheaper home. Large tables
 * (hundreds of slots and up) stay typed: there the four bytes of an `Int32Array` slot against a plain array's eight
 * are what counts.
 * @module dsh-brake/core/columns
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
