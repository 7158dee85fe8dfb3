/**
 * A count with its noun, as the command's reports and the doctor's summary write it: `1 call`, `3 calls`.
 * @module dsh-brake/words/plural
 */

/** `count` and `noun`, with an `s` unless the count is one. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
