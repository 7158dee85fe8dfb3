/**
 * Progress awareness on the real DSH loop: what unlocks a refusal, what counts as progress, and how Code Mode
 * sub-calls and parallel calls are counted.
 */
import type { Context } from '@deepseek-ai/cordis'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import CodeRuntime, { type CodeRunRequest, type CodeRunResult } from '@deepseek-ai/dsh-code-runtime'
import LlmRuntime from '@deepseek-ai/dsh-llm'
import SessionStore from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { Context as Root } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import * as Brake from '../../src/index.ts'
import type { Config } from '../../src/config/keys.ts'
import { agent, bootDsh, call, notices, prompt, repeat, results, say, tool } from '../../scripts/dsh-loop.ts'

const TEST = call('bash', { command: 'npm test', description: 'Run the tests' })
const FAILING = 'FAIL test/app.spec.ts\n Tests  1 failed (1)\n[exit code: 1]'

async function brake(config: Partial<Config>): Promise<Context> {
  const ctx = await bootDsh()
  await ctx.plugin(Brake, config)
  tool(ctx, 'bash', () => FAILING)
  tool(ctx, 'edit', () => 'The file src/app.ts has been updated successfully.')
  tool(ctx, 'job_output', () => '(no new output)\n[status: running]')
  return ctx
}

/** Whether each bash call ran (true) or was refused (false). */
const ran = (target: Parameters<typeof results>[0]): boolean[] =>
  results(target).filter(r => r.name === 'bash').map(r => !r.text.startsWith('Error: dsh-brake refused'))

describe('safe deny', () => {
  it('refuses a call repeated without progress, and a new successful change unlocks it', async () => {
    const ctx = await brake({ mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    const target = (await (async () => {
      const { agent: a } = agent(ctx, [...repeat(4, TEST), call('edit', { file_path: 'src/app.ts', old_string: 'a', new_string: 'b' }), ...repeat(4, TEST), say('done')])
      await prompt(ctx, a)
      return a
    })())
    expect(ran(target)).toEqual([true, true, true, false, true, true, true, false])
  })

  it('is not unlocked by repeating the same change', async () => {
    const ctx = await brake({ mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    const edit = call('edit', { file_path: 'src/app.ts', old_string: 'a', new_string: 'b' })
    const { agent: target } = agent(ctx, [edit, ...repeat(3, TEST), edit, TEST, edit, TEST, say('done')])
    await prompt(ctx, target)
    expect(ran(target)).toEqual([true, true, true, false, false])
  })

  it('never refuses a poller', async () => {
    const ctx = await brake({ mode: 'deny', callWarnCount: 2, pollWarnCount: 2, callDenyCount: 3 })
    const { agent: target } = agent(ctx, [...repeat(8, call('job_output', { job_id: 'bash-1' })), say('done')])
    await prompt(ctx, target)
    expect(results(target).some(r => r.isError)).toBe(false)
    expect(notices(target).map(n => n.summary)).toEqual(['job_output × 2, same result', 'job_output × 7, same result'])
  })

  it('counts every repeat, results or not, with plain counting', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { mode: 'deny', callWarnCount: 2, callDenyCount: 3, progressAware: false })
    tool(ctx, 'bash', (_, runs) => `run ${runs}`)
    const { agent: target } = agent(ctx, [...repeat(4, TEST), say('done')])
    await prompt(ctx, target)
    expect(ran(target)).toEqual([true, true, true, false])
    expect(notices(target).map(n => n.summary)).toEqual(['bash × 2, results changed'])
    expect(results(target)[3]!.text).toContain('since the last user message')
  })
})

describe('escalation needs fresh evidence', () => {
  it('starts over after a changed result: the next notice needs a whole new chain', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { callWarnCount: 6 })
    tool(ctx, 'bash', (_, runs) => runs === 7 ? 'different' : FAILING)
    const { agent: target } = agent(ctx, [...repeat(12, TEST), say('done')])
    await prompt(ctx, target)
    // Runs 1-6 notice at 6; run 7 differs (a new chain), run 8 differs again from run 7: chain 8..12 is 5 long.
    expect(notices(target).map(n => n.summary)).toEqual(['bash × 6, same failure'])
  })
})

/** A code runtime for tests: the "program" is JSON, a list of [tool, arguments] pairs called in order. */
class ScriptedCode extends CodeRuntime {
  readonly language = 'typescript'
  readonly isolation = 'worker-thread'
  async run(request: CodeRunRequest): Promise<CodeRunResult> {
    const values = []
    for (const [name, args] of JSON.parse(request.program) as [string, unknown][]) {
      values.push(await request.bindings[0]!.functions[name]!(args))
    }
    return { value: values.length, logs: [] }
  }
}

describe('what counts as a call', () => {
  it('counts Code Mode sub-calls like direct calls, and run_code itself by its program', async () => {
    const ctx = new Root()
    await ctx.plugin(LlmRuntime)
    await ctx.plugin(SessionStore)
    await ctx.plugin(SystemPrompt, {})
    await ctx.plugin(ScriptedCode as never, undefined as never)
    await ctx.plugin(ToolRuntime, { mode: 'code' })
    await ctx.plugin(AgentRegistry)
    await ctx.plugin(AgentLoop, { agents: [] })
    await ctx.plugin(Brake, { callWarnCount: 3 })
    tool(ctx, 'read', () => 'same contents')
    const program = JSON.stringify([['read', { file_path: 'a.ts' }], ['read', { file_path: 'a.ts' }]])
    const { agent: target } = agent(ctx, [...repeat(3, call('run_code', { code: program, description: 'Read twice' })), say('done')])
    await prompt(ctx, target)
    // Sub-calls: reads 1..6 notice at 3 and at 8 (none); run_code ×3 notices at 3. Sub-call notices ride the
    // enclosing run_code result, as DSH defers them.
    expect(notices(target).map(n => n.summary)).toEqual(['read × 3, same result', 'run_code × 3, same result'])
  })

  it('counts each of several identical calls in one response', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { callWarnCount: 3 })
    tool(ctx, 'read', () => 'same', true)
    const same = { name: 'read', args: { file_path: 'a.ts' } }
    const { agent: target } = agent(ctx, [{ calls: [same, same, same] }, say('done')])
    await prompt(ctx, target)
    expect(notices(target).map(n => n.summary)).toEqual(['read × 3, same result'])
  })
})

describe('shell commands', () => {
  it('a file-changing shell command that fails is not progress', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    tool(ctx, 'bash', args => (args as { command: string }).command.startsWith('git apply')
      ? 'error: patch failed\n[exit code: 1]'
      : FAILING)
    const apply = call('bash', { command: 'git apply fix.patch', description: 'Apply' })
    const { agent: target } = agent(ctx, [...repeat(3, TEST), apply, TEST, say('done')])
    await prompt(ctx, target)
    // Had the failed `git apply` been progress, the fifth `npm test` would have run.
    expect(results(target).map(r => r.text.startsWith('Error: dsh-brake refused'))).toEqual([false, false, false, false, true])
  })

  it('a shell failure is not an error result: it feeds the identical-call detector, not the repeated-error one', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { errorRepeatCount: 2 })
    tool(ctx, 'bash', () => 'boom\n[exit code: 1]')
    const { agent: target } = agent(ctx, [...['a', 'b', 'c'].map(f => call('bash', { command: `cat ${f}`, description: 'x' })), say('done')])
    await prompt(ctx, target)
    expect(notices(target)).toEqual([])
  })
})

describe('what lifts a refusal', () => {
  it('a poller that reports news', async () => {
    const ctx = await bootDsh()
    await ctx.plugin(Brake, { mode: 'deny', callWarnCount: 2, callDenyCount: 3 })
    tool(ctx, 'bash', () => FAILING)
    tool(ctx, 'job_output', (_, runs) => runs === 1 ? '[status: running]' : '[status: completed, exit code: 0]')
    const poll = call('job_output', { job_id: 'bash-1' })
    const { agent: target } = agent(ctx, [poll, ...repeat(4, TEST), poll, TEST, say('done')])
    await prompt(ctx, target)
    expect(ran(target)).toEqual([true, true, true, false, true])
  })
})
