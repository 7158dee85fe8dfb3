/**
 * The word a person most likely meant when they wrote one that does not exist: a config key (`callWarnCnt`), a
 * patch row's id (`dsh-brakes`). Told as "did you mean …?" beside the error, so a typo is fixed without reading the
 * list of valid words.
 * @module dsh-brake/words/spelling
 */

/**
 * Edits (a character inserted, deleted, replaced, or two neighbours swapped) that turn `a` into `b`, ignoring case,
 * as the restricted Damerau-Levenshtein distance counts them.
 */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  // Three rows of the table are enough: a swap looks two rows back.
  let before: number[] = []
  let previous = Array.from({ length: y.length + 1 }, (_, column) => column)
  for (let row = 1; row <= x.length; row++) {
    const current = [row]
    for (let column = 1; column <= y.length; column++) {
      const cost = x[row - 1] === y[column - 1] ? 0 : 1
      let best = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost)
      const swapped = row > 1 && column > 1 && x[row - 1] === y[column - 2] && x[row - 2] === y[column - 1]
      if (swapped) best = Math.min(best, before[column - 2]! + 1)
      current.push(best)
    }
    before = previous
    previous = current
  }
  return previous[y.length]!
}

/**
 * The candidate closest to `word`, when it is close enough to be a slip of the keyboard rather than another word: at
 * most one edit in four characters (two for `callWarnCnt`, one for `dsh-brakes`), at least one; undefined otherwise,
 * and for a word that is a candidate itself.
 */
export function closestSpelling(word: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined
  for (const candidate of candidates) {
    if (candidate === word) return undefined
    const distance = editDistance(word, candidate)
    const slip = distance <= Math.max(1, Math.floor(candidate.length / 4))
    if (slip && (best === undefined || distance < best.distance)) best = { candidate, distance }
  }
  return best?.candidate
}
