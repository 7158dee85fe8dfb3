/**
 * A stopped subagent's reason, carried to its parent. DSH hands the parent only "subagent run was cancelled" and the
 * child's last words, which would leave the parent to hand out the same task again blindly; so the reason waits, per
 * parent session, for the parent's next failed delegation result, and is added to that result's text.
 * @module dsh-brake/dsh/subagents
 */
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { PostToolDecision, ToolExecution, ToolExecutionResult } from '@deepseek-ai/dsh-tools'
import { touch } from '../core/tables/bounded-map.js'
import { subagentStoppedLine } from '../messages/notices.js'
import { SUBAGENT_TOOLS } from './stock-tools.js'

/** Parents with reasons waiting, at most: a parent that never collects its children's results must not grow this. */
const WAITING_PARENTS = 64
/** Reasons kept per parent, at most (the latest). */
const WAITING_REASONS = 8

/** Reasons of stopped subagents waiting for their parents' delegation results. */
export interface SubagentStops {
  /** A subagent of the agent whose session is `parent` was stopped for `reason`. */
  stopped(parent: string, reason: string): void
  /** Whether reasons wait for the agent of `exec` (asked on every call, so it is cheap while none wait). */
  waiting(exec: ToolExecution): boolean
  /** The parent's decision with the waiting reasons added, when `exec` is a failed delegation of a parent with some. */
  carry(exec: ToolExecution, result: Readonly<ToolExecutionResult>, decision: PostToolDecision): PostToolDecision
}

/** Create the table of waiting reasons of one mounted brake. */
export function createSubagentStops(): SubagentStops {
  const waiting = new Map<string, string[]>()
  return {
    stopped(parent, reason) {
      const reasons = touch(waiting, parent, WAITING_PARENTS, () => [])
      reasons.push(reason)
      if (reasons.length > WAITING_REASONS) reasons.shift()
    },
    waiting: exec => waiting.size > 0 && exec.agent !== undefined && waiting.has(exec.agent.id),
    carry(exec, result, decision) {
      if (!result.isError || !SUBAGENT_TOOLS.includes(exec.name)) return decision
      const reasons = waiting.get(exec.agent!.id)
      if (reasons === undefined) return decision
      waiting.delete(exec.agent!.id)
      // On a line of its own: a model reads the result's text blocks joined together.
      const lines: ContentBlock[] = reasons.map(reason => ({ type: 'text', text: `\n${subagentStoppedLine(reason)}` }))
      // A listener downstream may have blocked the call or replaced its content: add to what it decided.
      if (decision.kind === 'block') return { ...decision, feedback: [...decision.feedback, ...lines] }
      if (decision.value !== undefined) return decision
      return { ...decision, content: [...decision.content ?? result.content, ...lines] }
    },
  }
}
