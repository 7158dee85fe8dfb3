/**
 * The analysis: every session log read, its agent's calls replayed through the plugin under each config, its loops
 * labelled by the evaluation's rule, and each loop's cost taken from the session's usage records.
 *
 * One log at a time, so memory stays flat however many sessions there are; a log that cannot be read is set aside
 * with its error and the others go on. Subagents are their own logs; once all are read, each is grouped under the
 * top-level session it was delegated from.
 * @module dsh-brake/analyze/analyze-sessions
 */
import * as Brake from '../dsh/plugin.js'
import { byCall, type Action } from '../replay/actions.js'
import { labelRun, type Episode } from '../replay/label/rules.js'
import { replay, type ReplayResult } from '../replay/replay.js'
import { firstOn } from '../replay/score.js'
import { readSessionLog } from '../replay/session-log.js'
import { recordingOf, type RecordedCall, type SessionRecording } from '../replay/session-recording.js'
import type { AgentAnalysis, Analysis, BrakeAction, CallSummary, Loop, ReadError, ResponseCut, Tokens } from './analysis.js'
import { cutInSession, wouldCut } from './response-cuts.js'

/** A config to replay under, and the name the reports give it. */
export interface ConfigSetup {
  readonly name: string
  readonly config: Readonly<Record<string, unknown>>
}

/** About four characters of text per token, for logs without usage records. */
const CHARS_PER_TOKEN = 4

/**
 * Analyze the session logs in `files` under each config.
 * @param progress - told after each log, with how many are done.
 */
export async function analyzeSessions(
  files: readonly string[], setups: readonly ConfigSetup[], progress: (done: number) => void = () => {},
): Promise<Analysis> {
  const agents: (AgentAnalysis & { parent: string | undefined; subagent: boolean })[] = []
  const errors: ReadError[] = []
  for (const [index, file] of files.entries()) {
    try {
      const recording = recordingOf(readSessionLog(file), Brake.name)
      const results: Record<string, ReplayResult> = {}
      const cuts: Record<string, ResponseCut[]> = {}
      for (const setup of setups) {
        results[setup.name] = await replay(recording.events, [{ plugin: Brake, config: setup.config }], {
          headers: new Map([[recording.session, recording.header]]),
        })
        cuts[setup.name] = wouldCut(recording.responses, setup.config)
      }
      agents.push({
        ...analyzeAgent(recording, results), cuts, cutInSession: cutInSession(recording.responses),
        parent: recording.parentSession, subagent: recording.subagent,
      })
    } catch (error) {
      errors.push({ file, message: error instanceof Error ? error.message.replace(`${file}: `, '') : String(error) })
    }
    progress(index + 1)
  }
  return { configs: setups.map(setup => setup.name), agents: groupUnderRoots(agents), errors }
}

/** One agent's analysis, its session and agent fields naming itself until it is grouped. */
function analyzeAgent(recording: SessionRecording, results: Readonly<Record<string, ReplayResult>>): Omit<AgentAnalysis, 'cuts' | 'cutInSession'> {
  const calls = recording.calls.map(call => summarizeCall(call, recording))
  const replayed = Object.entries(results).map(([config, result]) => [config, byCall(result.actions)] as const)
  const episodes = labelRun(recording.events).flatMap(labels => labels.episodes)
  const loops = episodes.map(episode => loopOf(episode, recording, calls, replayed))
  const brake: Record<string, BrakeAction[]> = {}
  const spared: Record<string, number> = {}
  for (const [config, actions] of replayed) brake[config] = actions.map(counted)
  for (const [config, result] of Object.entries(results)) spared[config] = result.notPlayed
  const said = recording.said.map(counted)
  return { session: recording.session, agent: 'main', file: recording.file, calls, loops, brake, spared, said, tokens: sum(calls.map(call => call.tokens)) }
}

/** An action as the reports number calls: from 1. */
function counted({ kind, call, text }: Action): BrakeAction {
  return { kind, call: call + 1, text }
}

function loopOf(
  episode: Episode, recording: SessionRecording, calls: readonly CallSummary[], replayed: readonly (readonly [string, readonly Action[]])[],
): Loop {
  const first = (actions: readonly Action[]): BrakeAction | null => {
    const found = firstOn(episode, actions)
    return found === undefined ? null : counted(found)
  }
  const firstAction: Record<string, BrakeAction | null> = {}
  for (const [config, actions] of replayed) firstAction[config] = first(actions)
  return {
    session: recording.session,
    agent: 'main',
    kind: episode.period === 1 ? 'repeated-call' : episode.period <= 4 ? 'cycle' : 'long-cycle',
    rules: episode.rules,
    firstCall: episode.start + 1,
    lastCall: episode.end + 1,
    begins: episode.begins + 1,
    calls: episode.end - episode.start + 1,
    period: episode.period,
    tokens: sum(calls.slice(episode.start, episode.end + 1).map(call => call.tokens)),
    firstAction,
    firstSaid: first(recording.said),
  }
}

/** A call for the reports, with its share of its model step's tokens (or an estimate from its text). */
function summarizeCall(call: RecordedCall, recording: SessionRecording): CallSummary {
  const used = recording.usage.get(call.step)
  const share = recording.callsPerStep.get(call.step) ?? 1
  const tokens: Tokens = used === undefined ? estimate(call) : {
    input: used.inputTokens / share,
    output: used.outputTokens / share,
    total: (used.inputTokens + used.outputTokens) / share,
    estimated: false,
  }
  return { call: call.index + 1, tool: call.tool, failed: call.isError, refused: call.refused, tokens }
}

/** The call's own text as tokens: its result goes into the context, its arguments came out of the model. */
function estimate(call: RecordedCall): Tokens {
  const input = Math.ceil(call.text.length / CHARS_PER_TOKEN)
  const output = Math.ceil(call.argumentChars / CHARS_PER_TOKEN)
  return { input, output, total: input + output, estimated: true }
}

function sum(parts: readonly Tokens[]): Tokens {
  let input = 0
  let output = 0
  let estimated = false
  for (const part of parts) {
    input += part.input
    output += part.output
    estimated ||= part.estimated
  }
  return { input: Math.round(input), output: Math.round(output), total: Math.round(input + output), estimated }
}

/**
 * Put each subagent under the top-level session it was delegated from (following parents through the logs that were
 * read), named by its own session id; a subagent whose parent was not read stands as its own session. Sessions keep
 * the order their first log was read in, each with its main agent first.
 */
function groupUnderRoots(agents: readonly (AgentAnalysis & { parent: string | undefined; subagent: boolean })[]): AgentAnalysis[] {
  const byId = new Map(agents.map(agent => [agent.session, agent]))
  const grouped = agents.map(({ parent: _parent, subagent: _subagent, ...agent }) => {
    let root = byId.get(agent.session)!
    const seen = new Set<string>()
    while (root.subagent && root.parent !== undefined && byId.has(root.parent) && !seen.has(root.parent)) {
      seen.add(root.session)
      root = byId.get(root.parent)!
    }
    if (root.session === agent.session) return agent
    const named = { session: root.session, agent: agent.session }
    return { ...agent, ...named, loops: agent.loops.map(loop => ({ ...loop, ...named })) }
  })
  const order = new Map<string, number>()
  for (const agent of grouped) if (!order.has(agent.session)) order.set(agent.session, order.size)
  const rank = (agent: AgentAnalysis): number => order.get(agent.session)! * 2 + (agent.agent === 'main' ? 0 : 1)
  return grouped.sort((a, b) => rank(a) - rank(b))
}
