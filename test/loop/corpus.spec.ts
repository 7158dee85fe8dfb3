/**
 * Issue-level proof of the progress-aware brake: every corpus scenario through the real DSH agent loop. With the
 * defaults, traps draw no notice and no refusal, and every loop draws exactly its expected notices. The same corpus
 * with plain counting (`progressAware: false`) is measured too, and the table in docs/testing.md must match both.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import { describe, expect, it } from 'vitest'
import * as Brake from '../../src/index.ts'
import { compactAt } from './corpus/compaction.ts'
import { SCENARIOS, type Scenario } from './corpus/scenarios.ts'
import { agent, bootDsh, notices, prompt, results, say, tool } from '../../scripts/dsh-loop.ts'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'

interface Outcome {
  readonly notices: string[]
  readonly refusals: number
}

/** What else a play shows: the notices' full texts, the calls that ran, and where a compaction fell. */
interface Played {
  readonly texts: string[]
  readonly calls: number
  readonly compactedAt: number | undefined
}

/** The outcome, and what else it showed. */
async function play(scenario: Scenario, progressAware = true, mode = scenario.config.mode): Promise<Outcome & Played> {
  const ctx: Context = await bootDsh()
  await ctx.plugin(Brake, { ...scenario.config, progressAware, ...mode === undefined ? {} : { mode } })
  for (const [name, body] of Object.entries(scenario.tools)) {
    tool(ctx, name, (args, runs) => body(args as Record<string, unknown>, runs), scenario.concurrent?.includes(name) ?? false)
  }
  const inject = scenario.inject
  if (inject !== undefined) {
    let runs = 0
    ctx.on('tools/post-execute', async (_exec, _result, next) => {
      const decision = await next()
      const message = {
        content: [{ type: 'text', text: inject(++runs) }],
        source: { kind: 'plugin', plugin: 'hooks-claude-code' },
        role: 'user',
        id: crypto.randomUUID(),
      } as UserMessage
      return { ...decision, additionalContexts: [message, ...decision.additionalContexts ?? []] }
    })
  }
  const { agent: target } = agent(ctx, [...scenario.script, say('done')])
  const compaction = scenario.compaction === undefined ? undefined : compactAt(ctx, target, scenario.compaction)
  await prompt(ctx, target)
  const given = notices(target)
  const ran = results(target)
  return {
    notices: given.map(n => n.summary),
    refusals: ran.filter(r => r.text.startsWith('Error: dsh-brake refused')).length,
    texts: given.map(n => n.text),
    calls: ran.length,
    compactedAt: compaction?.at,
  }
}

/** Tool results a full play of `scenario` logs: one per scripted call, and a pruned one twice. */
function resultsExpected(scenario: Scenario): number {
  const scripted = scenario.script.reduce((n, turn) => n + ('calls' in turn ? turn.calls.length : 0), 0)
  return scripted + (scenario.compaction?.kind === 'prune' ? 1 : 0)
}

/** Play `scenario` with the defaults and check its exact outcome, and what its notices say. */
async function check(scenario: Scenario): Promise<void> {
  const { texts, calls, compactedAt, ...outcome } = await play(scenario)
  expect(outcome).toEqual(scenario.expected)
  for (const phrase of scenario.says ?? []) expect(texts.join('\n')).toContain(phrase)
  // Every scripted call got its result, and a compaction fell where it was asked to.
  expect(calls).toBe(resultsExpected(scenario))
  expect(compactedAt).toBe(scenario.compaction?.after)
}

const traps = SCENARIOS.filter(s => s.kind === 'trap')
const loops = SCENARIOS.filter(s => s.kind === 'loop')

describe('the corpus has at least 12 traps and 12 loops', () => {
  it('counts', () => {
    expect(traps.length).toBeGreaterThanOrEqual(12)
    expect(loops.length).toBeGreaterThanOrEqual(12)
  })
})

describe('real work draws no notice and no refusal (deny mode, defaults)', () => {
  it.each(traps.map(s => [s.name, s] as const))('%s', async (_, scenario) => {
    await check(scenario)
  })
})

describe('stop mode never stops real work', () => {
  it.each(traps.map(s => [s.name, s] as const))('%s', async (_, scenario) => {
    const { notices: said, refusals, calls } = await play(scenario, true, 'stop')
    expect({ notices: said, refusals }).toEqual(scenario.expected)
    // Every scripted call ran: the turn was not cut short.
    expect(calls).toBe(resultsExpected(scenario))
  })
})

describe('real loops draw exactly their notices and refusals (defaults)', () => {
  it.each(loops.map(s => [s.name, s] as const))('%s', async (_, scenario) => {
    await check(scenario)
  })
})

describe('docs/testing.md reports the corpus', () => {
  it('with the figures of both counting modes', async () => {
    const tally = async (progressAware: boolean): Promise<string> => {
      let falseNotices = 0
      let missed = 0
      for (const scenario of traps) {
        const outcome = await play(scenario, progressAware)
        if (outcome.notices.length > 0 || outcome.refusals > 0) falseNotices++
      }
      for (const scenario of loops) {
        const outcome = await play(scenario, progressAware)
        if (outcome.notices.length === 0 && outcome.refusals === 0) missed++
      }
      return `${falseNotices} of ${traps.length} | ${missed} of ${loops.length}`
    }
    if (process.env['CORPUS_TALLY'] === '1') {
      for (const progressAware of [true, false]) {
        for (const scenario of SCENARIOS) {
          const { notices: summaries, refusals } = await play(scenario, progressAware)
          const outcome = { notices: summaries, refusals }
          console.log(progressAware, scenario.kind, scenario.name, JSON.stringify(outcome))
        }
      }
    }
    const testing = readFileSync(join(PACKAGE_ROOT, 'docs', 'testing.md'), 'utf8')
    expect(testing).toContain(`**${traps.length} kinds of real work that look like loops**`)
    expect(testing).toContain(`**${loops.length} real loops**`)
    expect(testing).toContain(`| progress-aware (default) | ${await tally(true)} |`)
    expect(testing).toContain(`| plain counting (\`progressAware: false\`) | ${await tally(false)} |`)
  }, 60_000)
})
