/**
 * The analysis of a set of session logs: each log analyzed on its own (on every core), then put together: subagents
 * under their session, the sessions with something to show costliest first, the quiet ones counted, the overview.
 * Memory stays flat however many logs there are: figures are added up as results come in, details go to a spill file.
 * Design: docs/design.md#source-layout; at scale: docs/analyze.md#at-scale
 * @module dsh-brake/analyze/analyze-sessions
 */
import { LOOP_KINDS, type LoopKind } from '../core/kinds.js'
import type { AgentAnalysis, Analysis, Loop, Overview, QuietSession, ReadError, SessionAnalysis, Tokens } from './analysis.js'
import { HEARD_WITHIN } from './analysis.js'
import type { ConfigSetup, LogResult } from './analyze-log.js'
import { analyzeAll, defaultJobs } from './pool.js'
import { LogTable } from './log-table.js'
import { createSpill } from './spill.js'
import { NO_TOKENS, sum } from './tokens.js'
import { rootSession } from '../session-logs/root-session.js'

export type { ConfigSetup } from './analyze-log.js'

/** How a run goes. */
export interface RunOptions {
  /** Threads to analyze logs on (default: one per core). */
  readonly jobs?: number
  /** List the quiet sessions too. */
  readonly all?: boolean
  /** Told after each log, with how many are done. */
  readonly progress?: (done: number) => void
}

/** The costliest loops the overview names. */
export const COSTLIEST = 10

/** Analyze the session logs in `files` (`count` of them, when it is known) under each config. */
export async function analyzeSessions(
  files: Iterable<string>, setups: readonly ConfigSetup[], options: RunOptions & { readonly count?: number } = {},
): Promise<Analysis> {
  const count = options.count ?? (Array.isArray(files) ? files.length : undefined)
  const configs = setups.map(setup => setup.name)
  const kept = new LogTable()
  const spill = createSpill<AgentAnalysis>()
  const totals = createTotals(configs)
  const errors: ReadError[] = []
  await analyzeAll(files, count, setups, options.jobs ?? defaultJobs(), (result, done) => {
    if ('message' in result) errors.push(result)
    else keep(result)
    options.progress?.(done)
  })

  function keep({ file, session, parent, subagent, calls, tokens, loops, detail }: LogResult): void {
    totals.add(calls, tokens, loops, detail?.loops ?? [])
    kept.add(session, { calls, tokens }, {
      parent: subagent ? parent : undefined,
      shown: detail === undefined ? undefined : { place: spill.put(detail), wasted: loops.wasted },
      file: options.all === true ? file : undefined,
    })
  }

  // Each log under the top-level session it belongs to (following parents through the logs that were read; a
  // subagent whose parent was not read stands as its own session); the main agent first, then the subagents.
  const rootOf = (session: string): string => rootSession(session, (id) => {
    const parent = kept.parent(id)
    return parent !== undefined && kept.has(parent) ? parent : undefined
  })
  // Most sessions are one log: only the subagents' logs are listed under their session.
  const subagents = new Map<string, string[]>()
  for (const session of kept.sessions()) {
    const root = rootOf(session)
    if (root !== session) subagents.set(root, [...subagents.get(root) ?? [], session])
  }
  const sessions: SessionAnalysis[] = []
  const quiet: QuietSession[] = []
  let quietCount = 0
  let sessionCount = 0
  for (const root of kept.sessions()) {
    if (rootOf(root) !== root) continue
    sessionCount++
    const ids = [root, ...(subagents.get(root) ?? []).sort()]
    const shown = ids.flatMap((id) => {
      const one = kept.shownOf(id)
      return one === undefined ? [] : [{ id, ...one }]
    })
    const logs = ids.map(id => kept.figures(id))
    const figures = {
      agentCount: ids.length, calls: logs.reduce((total, log) => total + log.calls, 0), tokens: sum(logs.map(log => log.tokens)),
    }
    if (shown.length === 0) {
      quietCount++
      const { calls, tokens } = figures
      if (options.all === true) quiet.push({ session: root, files: ids.map(id => kept.file(id)!), calls, tokens })
      continue
    }
    sessions.push({
      session: root,
      ...figures,
      wasted: sum(shown.map(one => one.wasted)),
      // Read back from the spill file each time: a report takes one session at a time.
      get agents() {
        return shown.map(one => named(spill.get(one.place), root, one.id))
      },
    })
  }
  sessions.sort((a, b) => b.wasted.total - a.wasted.total || (a.session < b.session ? -1 : 1))
  quiet.sort((a, b) => a.session < b.session ? -1 : 1)
  errors.sort((a, b) => a.file < b.file ? -1 : 1)
  return {
    configs,
    overview: totals.overview(sessionCount, rootOf),
    sessions,
    quiet: { count: quietCount, sessions: options.all === true ? quiet : undefined },
    errors,
  }
}

/** Loops in the order of their session, then of their first call. */
function byPlace(a: Loop, b: Loop): number {
  if (a.session !== b.session) return a.session < b.session ? -1 : 1
  return a.firstCall - b.firstCall
}

/** An agent's analysis under the session it belongs to: a subagent's agent and loops are named by its own session id. */
function named(detail: AgentAnalysis, root: string, id: string): AgentAnalysis {
  if (id === root) return detail
  const names = { session: root, agent: id }
  return { ...detail, ...names, loops: detail.loops.map(loop => ({ ...loop, ...names })) }
}

/** The overview's figures, added up as results come in; the costliest loops kept as they go, no more than needed. */
function createTotals(configs: readonly string[]) {
  let agents = 0
  let calls = 0
  let tokens: Tokens = NO_TOKENS
  let inLoops: Tokens = NO_TOKENS
  let wasted: Tokens = NO_TOKENS
  const kinds = Object.fromEntries(LOOP_KINDS.map(kind => [kind, 0])) as Record<LoopKind, number>
  const saved = Object.fromEntries(configs.map(config => [config, { afterNotice: NO_TOKENS, afterStop: NO_TOKENS }]))
  const heard = { loops: 0, endedSoon: 0 }
  const sessionsWithLoops = new Set<string>()
  let costliest: Loop[] = []
  return {
    /** An agent's figures: its loops' together (each piece of its tokens once), and the loops one by one. */
    add(agentCalls: number, agentTokens: Tokens, spent: LogResult['loops'], loops: readonly Loop[]): void {
      agents++
      calls += agentCalls
      tokens = sum([tokens, agentTokens])
      inLoops = sum([inLoops, spent.inLoops])
      wasted = sum([wasted, spent.wasted])
      for (const config of configs) {
        const { afterNotice, afterStop } = saved[config]!
        const more = spent.saved[config]
        saved[config] = {
          afterNotice: sum([afterNotice, more?.afterNotice ?? NO_TOKENS]), afterStop: sum([afterStop, more?.afterStop ?? NO_TOKENS]),
        }
      }
      for (const loop of loops) {
        kinds[loop.kind]++
        if (loop.callsAfterSaid !== null) {
          heard.loops++
          if (loop.callsAfterSaid <= HEARD_WITHIN) heard.endedSoon++
        }
        sessionsWithLoops.add(loop.session)
      }
      // Ties in the order of their session and place, not in the order the threads finished them.
      if (loops.length === 0) return
      costliest = [...costliest, ...loops]
        .sort((a, b) => b.wasted.total - a.wasted.total || byPlace(a, b))
        .slice(0, COSTLIEST)
    },
    /** The figures, the loops named by the session they belong to (known once every log is read). */
    overview(sessions: number, rootOf: (session: string) => string): Overview {
      return {
        sessions, agents, calls,
        sessionsWithLoops: new Set([...sessionsWithLoops].map(rootOf)).size,
        loops: kinds, tokens, inLoops, wasted, saved, heard,
        costliest: costliest.map((loop) => {
          const root = rootOf(loop.session)
          return root === loop.session ? loop : { ...loop, session: root, agent: loop.session }
        }),
      }
    },
  }
}
