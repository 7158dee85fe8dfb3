/**
 * Tool-name patterns for `include` / `exclude`.
 * @module dsh-brake/core/identity/patterns
 */

/** Compile `*`-wildcard patterns into one anchored test; every other character matches itself. */
export function compilePatterns(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false
  const alternatives = patterns.map(pattern =>
    pattern.split('*').map(escapeRegExp).join('.*'))
  const regexp = new RegExp(`^(?:${alternatives.join('|')})$`, 's')
  return name => regexp.test(name)
}

/** Whether a tool is tracked: in `include` (or `include` is empty) and not in `exclude`. */
export function createToolFilter(include: readonly string[], exclude: readonly string[]): (name: string) => boolean {
  const included = compilePatterns(include)
  const excluded = compilePatterns(exclude)
  const all = include.length === 0
  return name => (all || included(name)) && !excluded(name)
}

/** Tool names whose answer is remembered; a session uses a few dozen tools, the bound only guards odd names. */
const REMEMBERED_NAMES = 256

/**
 * Remember `answer(name)` per tool name. Tool-name lookups run on every tool call, and their answers never change
 * while the plugin runs, so the patterns behind them run once per name.
 */
export function memoizeByName<T>(answer: (name: string) => T): (name: string) => T {
  const answers = new Map<string, T>()
  return (name) => {
    const known = answers.get(name)
    if (known !== undefined || answers.has(name)) return known as T
    const value = answer(name)
    if (answers.size >= REMEMBERED_NAMES) answers.clear()
    answers.set(name, value)
    return value
  }
}

/** `text` with every character a regular expression gives a meaning to escaped, so it matches itself. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')
}
