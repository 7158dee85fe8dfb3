import type { ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { describe, expect, it } from 'vitest'
import type { Identity } from '../../../src/core/identify.ts'
import { observeCall } from '../../../src/dsh/observe.ts'

const ok = (text: string): ToolExecutionResult => ({ isError: false, value: null, content: [{ type: 'text', text }] })
const exec = (name: string): ToolExecution => ({ name, arguments: {} }) as unknown as ToolExecution
const identity = (shell: boolean): Identity => ({ kind: 'default', key: 1, args: {}, changeStands: false, shell, edits: [] })

describe('observing a call', () => {
  it('reads a closing `[exit code: N]` as a failure from a shell tool only', () => {
    const text = 'line one\n[exit code: 1]'
    expect(observeCall(exec('bash'), identity(true), ok(text), false).failed).toBe(true)
    expect(observeCall(exec('read'), identity(false), ok(text), false).failed).toBe(false)
  })

  it('keeps at most 2 000 characters of an error line', () => {
    const failure: ToolExecutionResult = {
      isError: true, content: [{ type: 'text', text: `Error: ${'x'.repeat(10_000)}` }], error: { message: 'x' },
    }
    expect(observeCall(exec('read'), identity(false), failure, false).errorLine).toHaveLength(2000)
  })
})
