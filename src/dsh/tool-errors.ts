/**
 * Which tool errors are about the model's input: the tool refused what was sent (arguments that fail the schema, an
 * `old_string` that is not in the file, a file edited before it was read, a view range past the end, an edit that
 * would introduce a syntax error), as opposed to the environment (a missing file or program, permissions, a timeout).
 * Trying other inputs is the right response to the first kind, and the wrong one to the second; the brake's notice
 * says so.
 * @module dsh-brake/dsh/tool-errors
 */
import type { ToolExecutionResult } from '@deepseek-ai/dsh-tools'

/** Error codes DSH's registry and stock tools give a refused input. */
const INPUT_ERROR_CODES = new Set([
  'INVALID_ARGS', 'UNKNOWN_TOOL', 'FS_EDIT_NOT_FOUND', 'FS_AMBIGUOUS_EDIT', 'FS_NOT_OBSERVED', 'SEARCH_INVALID_PATTERN',
])

/**
 * The same, from the error text, for errors that carry no code (plain errors of the stock tools, and file editors
 * such as `str_replace_editor`).
 */
const INPUT_ERROR_TEXT = new RegExp([
  '^(?:Error: )?invalid arguments:',
  'old_string (?:was not found|matched \\d+ times)',
  'old_string and new_string must differ',
  'requires reading .* first',
  'without reading it first',
  'must be a (?:non-empty string|positive integer|number|string|integer)',
  'is out of range for',
  'pattern rejected by',
  'must be one glob',
  '^(?:Error: )?unknown tool',
  'No replacement was performed',
  'did not appear verbatim',
  'Invalid `(?:view_range|insert_line)`',
  'Parameter `\\w+` is (?:required|empty) for command',
  'is not an absolute path',
  'Cannot overwrite files using command',
  'introduced new syntax error',
].join('|'))

/** Whether a failed result rejected the model's input; `errorLine` is the line the error is known by. */
export function rejectsInput(result: Readonly<ToolExecutionResult>, errorLine: string): boolean {
  const code = result.error?.info?.code
  if (code !== undefined && INPUT_ERROR_CODES.has(code)) return true
  return INPUT_ERROR_TEXT.test(errorLine)
}
