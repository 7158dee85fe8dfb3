/**
 * Tool-name patterns for `include` / `exclude`.
 * @module dsh-brake/core/patterns
 */

/** Compile `*`-wildcard patterns into one anchored test; every other character matches itself. */
export function compilePatterns(patterns: readonly string[]): (name: string) => boolean {
  if (patterns.length === 0) return () => false
  const alternatives = patterns.map(pattern =>
    pattern.split('*').map(part => part.replace(/[\\^$.|?+()[\]{}]/g, '\\$&')).join('.*'))
  const regexp = new RegExp(`^(?:${alternatives.join('|')})$`, 's')
  return name => regexp.test(name)
}

/** Tool names whose verdict is remembered; a session uses a few dozen tools, the bound only guards odd names. */
const REMEMBERED_NAMES = 256

/**
 * Whether a tool is tracked: in `include` (or `include` is empty) and not in `exclude`. The filter runs on every
 * tool call, so verdicts are remembered per name instead of running the patterns again.
 */
export function createToolFilter(include: readonly string[], exclude: readonly string[]): (name: string) => boolean {
  const included = compilePatterns(include)
  const excluded = compilePatterns(exclude)
  const all = include.length === 0
  const verdicts = new Map<string, boolean>()
  return (name) => {
    let tracked = verdicts.get(name)
    if (tracked === undefined) {
      tracked = (all || included(name)) && !excluded(name)
      if (verdicts.size >= REMEMBERED_NAMES) verdicts.clear()
      verdicts.set(name, tracked)
    }
    return tracked
  }
}
