/**
 * The replay and the labelling rule, built as `dist/replay.js` so that the real-trace evaluation (`npm run eval`,
 * plain Node on the built files) and `dsh-brake analyze` run the same code. Not part of the package's API: nothing in
 * `exports` points here.
 * @module dsh-brake/replay
 */
export { replay, withoutStopLines, type Mount, type Notice, type Refusal, type ReplayOptions, type ReplayResult, type Stop } from '../dsh/replay.js'
export type { AgentEvent, CallEvent, ContextMessage } from './agent-events.js'
export { CYCLE_LAPS, IDENTICAL_CALLS, LONG_PERIOD_MAX, LONG_PERIOD_MIN, labelAgent, labelRun, type AgentLabels, type CallFacts, type Episode } from './label.js'
export { readConfigFile } from '../analyze/config-file.js'
export { UsageError } from '../cli/usage-error.js'
