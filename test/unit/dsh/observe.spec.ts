import type { ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import type { Identity } from '../../../src/core/identity/identify.ts'
import { observeCall } from '../../../src/dsh/observe.ts'
import { createIdentify } from '../../../src/core/identity/identify.ts'
import { FILE_CHANGING_SHELL_COMMANDS, STOCK_TOOL_POLICIES } from '../../../src/dsh/stock-tools.ts'

const ok = (text: string): ToolExecutionResult => ({ isError: false, value: null, content: [{ type: 'text', text }] })
const exec = (name: string): ToolExecution => ({ name, arguments: {} }) as unknown as ToolExecution
const identity = (shell: boolean): Identity => ({ kind: 'default', key: 1, args: {}, changeStands: false, shell, logs: false, line: undefined, edits: [] })

describe('observing a call', () => {
  it('reads a closing `[exit code: N]` as a failure from a shell tool only', () => {
    const text = 'line one\n[exit code: 1]'
    expect(observeCall(exec('bash'), identity(true), ok(text), false).failed).toBe(true)
    expect(observeCall(exec('read'), identity(false), ok(text), false).failed).toBe(false)
  })

  it('reads a failure from what a command printed, not the closing line DSH adds; none for a refused call', () => {
    const output = 'Traceback (most recent call last):\n  File "/r/a.py", line 3, in f\n    g()\nNameError: name \'g\' is not defined\n[exit code: 1]'
    expect(observeCall(exec('bash'), identity(true), ok(output), false).failure).toMatchObject({ line: "NameError: name 'g' is not defined", origin: '/r/a.py' })
    // A file tool's text is read as it is: a file may end in anything.
    expect(observeCall(exec('read'), identity(false), ok('all good\n[exit code: 1]'), false).failure).toBeUndefined()
    expect(observeCall(exec('bash'), identity(true), ok(output), true).failure).toBeUndefined()
  })

  it('reads a run whose output goes into a log as a check, and a command that only writes a file as none', () => {
    const logged = { ...identity(true), kind: 'mutating', changeStands: true, logs: true, edits: [{ file: 'train.log', kind: 'other', log: true }] } as const
    expect(observeCall(exec('bash'), logged, ok('[timed out after 60s]'), false).failure).toMatchObject({ line: 'timeout' })
    const written = { ...identity(true), kind: 'mutating', edits: [{ file: 'a.py', kind: 'other' }] } as const
    expect(observeCall(exec('bash'), written, ok('Traceback (most recent call last):\nValueError: x\n[exit code: 1]'), false).failure).toBeUndefined()
  })

  it('names the files a check\'s command line names, whichever argument a shell tool\'s policy reads it from', () => {
    const identify = createIdentify({
      include: [], exclude: [], policies: { sh: { class: 'default', shellCommand: 'cmd' } }, defaults: STOCK_TOOL_POLICIES, fileChangingCommands: FILE_CHANGING_SHELL_COMMANDS,
    })
    const failing = ok('Traceback (most recent call last):\n  File "/r/run.py", line 3, in <module>\nValueError: x\n[exit code: 1]')
    const run = (tool: string, args: Record<string, unknown>): ReturnType<typeof observeCall> =>
      observeCall({ name: tool, arguments: args } as unknown as ToolExecution, identify(tool, args)!, failing, false)
    expect(run('sh', { cmd: 'timeout 30 python run.py --in data/in.csv' }).inputs).toEqual(['run.py', 'data/in.csv'])
    expect(run('bash', { command: 'python run.py data/in.csv' }).inputs).toEqual(['run.py', 'data/in.csv'])
  })

  it('carries the edits the identity shows', () => {
    const edits = [{ file: 'a.py', kind: 'other' }] as const
    expect(observeCall(exec('bash'), { ...identity(true), kind: 'mutating', edits }, ok(''), false).edits).toBe(edits)
  })

  it('keeps at most 2 000 characters of an error line', () => {
    const failure: ToolExecutionResult = {
      isError: true, content: [{ type: 'text', text: `Error: ${'x'.repeat(10_000)}` }], error: { message: 'x' },
    }
    expect(observeCall(exec('read'), identity(false), failure, false).errorLine).toHaveLength(2000)
  })
})

describe('what an observation keeps of a large result', () => {
  // vitest runs without --expose-gc: the collector is reached the way Node's own tests reach it.
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const heapUsed = (): number => {
    gc()
    gc()
    return process.memoryUsage().heapUsed
  }

  it('keeps none of the output its error line and its failure were read from', () => {
    const kept: unknown[] = []
    const before = heapUsed()
    for (let i = 0; i < 30; i++) {
      // About half a megabyte each, distinct, so that nothing is shared between them.
      const output = `output line ${i}, nothing to see here\n`.repeat(14_000)
      const failed: ToolExecutionResult = { isError: true, content: [{ type: 'text', text: `Error: tool ${i} failed on its input\n${output}` }], error: { message: 'failed' } }
      const error = observeCall(exec('tool'), identity(false), failed, false)
      const raised = observeCall(exec('bash'), identity(true), ok(`${output}Traceback (most recent call last):\n  File "src/app_${i}.py", line 3, in run\n    check()\nAssertionError: expected the value of check ${i}\n[exit code: 1]`), false)
      const named = observeCall(exec('bash'), identity(true), ok(`${output}FAILED tests/test_${i}.py::test_value - assert the value\n[exit code: 1]`), false)
      kept.push(error.errorLine, raised.failure?.line, raised.failure?.origin, named.failure?.line, named.failure?.files)
    }
    expect(kept.filter(value => value === undefined)).toEqual([])
    // 90 outputs of half a megabyte went through (45 MB): the lines kept of them come to a few kilobytes. A line kept
    // as a view into its output would keep the output whole.
    expect((heapUsed() - before) / 1024 / 1024).toBeLessThan(4)
  })
})
