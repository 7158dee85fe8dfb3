/**
 * DSH's shell convention: `bash` and `pwsh` return a command that exited non-zero, timed out or was killed as a
 * successful tool call whose text closes with a line such as `[exit code: 1]`. For judging repeats it is a failure
 * all the same.
 * @module dsh-brake/dsh/shell
 */

/** The closing line of a failed command, matched against the last non-blank line only (sticky, from its start). */
const SHELL_FAILURE = /\[(?:exit code: -?[1-9]\d*|timed out after [^\]\n]*|killed by signal: [^\]\n]*)\]$/y

/** Whether a successful tool result reports a failed command. Only the end of the text is read. */
export function reportsShellFailure(text: string): boolean {
  const trimmed = text.trimEnd()
  // `]` is U+005D.
  if (trimmed.charCodeAt(trimmed.length - 1) !== 0x5d) return false
  SHELL_FAILURE.lastIndex = trimmed.lastIndexOf('\n') + 1
  return SHELL_FAILURE.test(trimmed)
}

/**
 * The output of a command that failed, as {@link reportsShellFailure} tells, without the closing line that reports its
 * failure: what the command itself printed.
 */
export function withoutShellFailure(failedOutput: string): string {
  const trimmed = failedOutput.trimEnd()
  return trimmed.slice(0, trimmed.lastIndexOf('\n') + 1)
}

/** How a failed command ended, from its closing line: `timeout` (timed out, or `timeout`'s exit code 124), `exit N`, a signal. */
export function shellEnd(text: string): string {
  const trimmed = text.trimEnd()
  const last = trimmed.slice(trimmed.lastIndexOf('\n') + 1)
  if (/^\[timed out after |^\[exit code: 124\]$/.test(last)) return 'timeout'
  const ended = /^\[(exit code: -?\d+|killed by signal: [^\]]*)\]$/.exec(last)
  return ended === null ? '' : ended[1]!
}
