import type { ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import { rejectsInput } from '../../../src/dsh/tool-errors.ts'

/** An error result as DSH's registry builds it: the text, and a code when a HarnessError was thrown. */
function failure(message: string, code?: string): ToolExecutionResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `Error: ${message}` }],
    error: code === undefined ? { message } : { message, info: { name: 'HarnessError', code } },
  }
}

describe('input errors and environment errors', () => {
  it.each([
    // Refused input, told by code.
    ['invalid arguments: missing required property "file_path"', 'INVALID_ARGS'],
    ['old_string was not found in "src/a.ts"', 'FS_EDIT_NOT_FOUND'],
    ['edit requires reading "src/a.ts" first — read the file, then retry', 'FS_NOT_OBSERVED'],
    // Refused input, told by text.
    ['old_string matched 3 times in "src/a.ts"; provide a more specific old_string or set replace_all to true', undefined],
    ['offset must be a positive integer', undefined],
    ['No replacement was performed, old_str `def f():` did not appear verbatim in /repo/a.py.', undefined],
    ['Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.', undefined],
    ['Invalid `view_range`: [2500, 2550]. Its second element `2550` should be smaller than the number of lines in the file: `2528`', undefined],
  ])('%s is about the input', (message, code) => {
    const result = failure(message, code)
    expect(rejectsInput(result, `Error: ${message}`)).toBe(true)
  })

  it.each([
    ['cannot read "src/missing.ts": not found', 'FS_NOT_FOUND'],
    ['cannot list "/root": permission denied', 'FS_PERMISSION_DENIED'],
    ['tool call timed out after 120000ms', 'TOOL_TIMEOUT'],
    ['The path /testbed/django/db/functions.py does not exist. Please provide a valid path.', 'FS_NOT_FOUND'],
    ['grep search failed (exit 2): rg: src/nope: No such file or directory', 'SEARCH_FAILED'],
  ])('%s is about the environment', (message, code) => {
    expect(rejectsInput(failure(message, code), `Error: ${message}`)).toBe(false)
  })
})
