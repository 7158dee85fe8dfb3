/**
 * One session log, analyzed: read, its agent's calls replayed through the plugin under each config, its loops found
 * and priced (loops.ts). What comes back is plain data a worker thread can post: the agent's figures always, and its
 * full analysis only when there is something to show (a loop, or something the brake would do or did), so a quiet
 * session costs the run a few numbers.
 * @module dsh-brake/analyze/analyze-log
 */
import * as Brake from '../dsh/plugin.js'
import { stoppedLoopSummary } from '../dsh/readings.js'
import { byCall, type Action } from '../replay/actions.js'
import { labelRun } from '../replay/label/rules.js'
import { createReplayer, type Replayer } from '../replay/replay.js'
import { FileError } from '../errors/file-errors.js'
import { readSessionLog } from '../session-logs/decode.js'
import { recordingOf, type RecordedCall, type SessionRecording } from '../replay/session-recording.js'
import type { AgentAnalysis, BrakeAction, CallSummary, ReadError, ResponseCut, Tokens } from './analysis.js'
import { agentLoops, counted, type AgentLoops } from './loops.js'
import { piecesOf } from './pieces.js'
import { cutInSession, wouldCut } from './response-cuts.js'
import { estimateTokens, reportedTokens, sum } from './tokens.js'

/** The defaults' config map: one object, so that what wouldCut resolves of it is kept from log to log. */
const DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({})

/** A config to replay under, and the name the reports give it. */
export interface ConfigSetup {
  readonly name: string
  readonly config: Readonly<Record<string, unknown>>
}

/** What one log gives the run: who its agent is, its figures, and its analysis when there is something to show. */
export interface LogResult {
  readonly file: string
  readonly session: string
  /** The delegating session, for a subagent's log. */
  readonly parent: string | undefined
  readonly subagent: boolean
  readonly calls: number
  readonly tokens: Tokens
  /** What its loops spent, wasted and would spare under each config, each piece counted once. */
  readonly loops: Omit<AgentLoops, 'loops'>
  readonly detail: AgentAnalysis | undefined
}

/**
 * An analyzer of logs under `setups`: the plugin is mounted once per config, on first use, and every log is replayed
 * through it with agents of its own (a log's agent starts with empty state, as a new session's does in DSH).
 */
export function createLogAnalyzer(setups: readonly ConfigSetup[]): (file: string) => Promise<LogResult | ReadError> {
  let replayers: Promise<Replayer[]> | undefined
  return async (file) => {
    replayers ??= Promise.all(setups.map(setup => createReplayer([{ plugin: Brake, config: setup.config }])))
    return analyzeLog(file, setups, await replayers)
  }
}

/** Analyze the log at `file` under each config (replayed by `replayers`, in order); an unreadable log comes back as its error. */
async function analyzeLog(file: string, setups: readonly ConfigSetup[], replayers: readonly Replayer[]): Promise<LogResult | ReadError> {
  let recording: SessionRecording
  try {
    recording = recordingOf(readSessionLog(file), Brake.name)
  } catch (error) {
    return { file, message: error instanceof FileError ? error.problem : error instanceof Error ? error.message : String(error) }
  }
  const replayed: Record<string, Action[]> = {}
  const spared: Record<string, number> = {}
  const cuts: Record<string, ResponseCut[]> = {}
  for (const [index, setup] of setups.entries()) {
    const result = await replayers[index]!(recording.events, { headers: new Map([[recording.session, recording.header]]) })
    replayed[setup.name] = byCall(withoutStopNotices(result.actions))
    spared[setup.name] = result.spared
    cuts[setup.name] = wouldCut(recording.responses, setup.config, recording.calls)
  }
  // `runaway` loops are read under the default thresholds: the first config's cuts, when that is the defaults.
  const first = setups[0]
  const defaultCuts = first !== undefined && Object.keys(first.config).length === 0
    ? cuts[first.name]!
    : wouldCut(recording.responses, DEFAULTS, recording.calls)
  const calls = recording.calls.map(call => summarizeCall(call, recording))
  // The agent's tokens and its loops' costs are added up from the same pieces: no loop can cost more than the agent.
  const pieces = piecesOf({
    calls: recording.calls.map((call, index) => ({ step: call.step, tokens: calls[index]!.tokens })),
    usage: recording.usage, responses: recording.responses, events: recording.events,
  })
  const tokens = sum([...pieces.tokens.values()])
  const labels = labelRun(recording.events).find(agent => agent.agent === recording.session)
  const saidLive = withoutStopNotices(recording.said)
  const { loops, ...spent } = agentLoops({
    session: recording.session, agent: recording.session, events: recording.events, recorded: recording.calls,
    facts: labels?.calls ?? [], episodes: labels?.episodes ?? [], pieces, responses: recording.responses,
    replayed, cuts, defaultCuts, said: saidLive,
  })
  const actionsByConfig: Record<string, BrakeAction[]> = {}
  for (const [config, actions] of Object.entries(replayed)) actionsByConfig[config] = actions.map(counted)
  const said = saidLive.map(counted)
  const live = cutInSession(recording.responses)
  const quiet = loops.length === 0 && said.length === 0 && live.length === 0
    && Object.values(actionsByConfig).every(actions => actions.length === 0) && Object.values(cuts).every(list => list.length === 0)
  return {
    file, session: recording.session, parent: recording.parentSession, subagent: recording.subagent,
    calls: calls.length, tokens, loops: spent,
    detail: quiet ? undefined : {
      session: recording.session, agent: 'main', file, calls, loops, actionsByConfig, spared, said, cuts, cutInSession: live, tokens,
      inLoops: spent.inLoops, wasted: spent.wasted,
    },
  }
}

/**
 * The actions without the notices that close a stopped turn: such a notice is the stop's own, told in place of the
 * loop's next notice, and the stop is reported where the turn ends (else a stop-mode loop read as "notice at call 11",
 * before the refusal and the stop it was part of).
 */
function withoutStopNotices(actions: readonly Action[]): Action[] {
  return actions.filter(action => action.kind !== 'notice' || action.plugin !== Brake.name || stoppedLoopSummary(action.text) === undefined)
}

/** A call for the reports, with its share of its model step's tokens (or an estimate from its text). */
function summarizeCall(call: RecordedCall, recording: SessionRecording): CallSummary {
  const used = recording.usage.get(call.step)
  // The call's own text where the step has no usage: its result went into the context, its arguments came out of the model.
  const tokens = used === undefined
    ? estimateTokens(call.text.length, call.argumentChars)
    : reportedTokens(used, recording.callsPerStep.get(call.step) ?? 1)
  return { call: call.index + 1, tool: call.tool, failed: call.isError, refused: call.refused, tokens }
}
