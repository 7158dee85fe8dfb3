/**
 * Which top-level session a session belongs to: a subagent's session was delegated from its parent's, and so on up.
 * Both the choice of logs (`--last`, by their files' headers) and the run's grouping (by the logs read) follow it.
 * @module dsh-brake/session-logs/root-session
 */

/**
 * The top-level session `session` belongs to, following `parentOf` (undefined where a session has no parent among those
 * known) as far as it goes; a cycle of parents ends the walk.
 */
export function rootSession<T>(session: T, parentOf: (session: T) => T | undefined): T {
  let root = session
  let parent = parentOf(root)
  // Most sessions have no parent: the cycle guard is made only for the few that do.
  const seen = parent === undefined ? undefined : new Set([session])
  while (parent !== undefined && !seen!.has(parent)) {
    seen!.add(parent)
    root = parent
    parent = parentOf(root)
  }
  return root
}
