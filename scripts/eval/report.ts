/**
 * Scoring and presenting: the notices each configuration gave, held against the labelled loop episodes.
 *
 * Scoring is kept apart from replaying and labelling so the figures have one definition, shared by the printed
 * report and the JSON file. An episode is caught when a notice acts on it, by the rule `dsh-brake analyze` applies
 * too (src/replay/score.ts: on a call from its first to CATCH_SLACK calls after its last); the delay is counted from
 * where the loop begins, its first repeat (the delays from its first call and from the call the labelling rule fires
 * at are reported beside it). A false alarm is a run with no labelled loop that got any notice. The text report ends
 * with the cases worth reading: missed episodes and the slowest catches, each with a compact listing of the calls
 * around the loop. Beside them, the same configurations against the stuck episodes a person marked by reading
 * (scored by src/replay/stuck.ts), with the notices a person would not give and those on runs no one labelled.
 */
import { addedTo, type Action } from '../../src/replay/actions.ts'
import type { CallFacts } from '../../src/replay/label/facts.ts'
import type { AgentLabels, Episode } from '../../src/replay/label/rules.ts'
import { actsOn, CATCH_SLACK, firstOn, keptFromPlay, spread, type Spread } from '../../src/replay/score.ts'
import { scoreStuckRun, STUCK_KINDS, summarizeStuck, type StuckRun, type StuckSummary, type UnwantedTally } from '../../src/replay/stuck.ts'
import { fit } from '../../src/words/text.ts'
import { addHearings, hearRun, SOON, SPAN, type Hearing } from './hearing.ts'

/** One run, labelled and replayed under every configuration. */
export interface RunResult {
  readonly id: string
  readonly set: string
  /** Whether the run was resolved, as the trace says (null when it does not). */
  readonly resolved: boolean | null
  readonly calls: number
  readonly labels: readonly AgentLabels[]
  /** What each configuration's plugins did (only stop mode ends a turn), by configuration name. */
  readonly actions: Readonly<Record<string, readonly Action[]>>
  /** Recorded calls stops spared (not played), by configuration name. */
  readonly spared: Readonly<Record<string, number>>
  /** Per agent, the calls made before each person's message: a turn starts there, and a stop before it ends there. */
  readonly turnStarts: Readonly<Record<string, readonly number[]>>
  /** The agent of each of the run's calls, in order: how the run's call numbering maps onto each agent's. */
  readonly callAgents: readonly string[]
}

/** How one configuration did on one episode. */
export interface EpisodeScore {
  readonly run: string
  readonly episode: Episode
  /** The first notice that acts on the episode, if any. */
  readonly notice: Action | undefined
  /** Calls from the episode's beginning (its first repeat) to that notice. */
  readonly delay: number | undefined
  /** The first stop that acts on the episode, if any. */
  readonly stop: Action | undefined
}

/** One configuration's figures. */
export interface ConfigSummary {
  readonly name: string
  readonly runs: number
  readonly calls: number
  readonly loopFreeRuns: number
  readonly falseAlarms: readonly { readonly run: string; readonly notices: readonly Action[] }[]
  readonly episodes: number
  /** Episodes a stop kept from being played: they begin after it, in the same turn. */
  readonly unreached: number
  readonly caught: number
  readonly delay: Spread
  /** The same delays counted from the call at which the labelling rule is first satisfied (negative: earlier). */
  readonly delayFromLabel: Spread
  /** The same delays counted from the loop's first call (the first of its identical calls, its first lap). */
  readonly delayFromFirstCall: Spread
  readonly notices: number
  readonly noticesPer1000Calls: number
  /** Notices in runs with loops that fall outside every episode's window. */
  readonly noticesOutsideLoops: number
  /** Loop-free runs a stop cut short. */
  readonly falseStops: readonly { readonly run: string; readonly stops: readonly Action[] }[]
  /** Episodes a stop ended (a stop in the episode's window). */
  readonly stopped: number
  /** Calls from an episode's first notice to the stop that ended it. */
  readonly noticeToStop: Spread
  /** Recorded calls stops spared (not played), in all runs. */
  readonly callsSpared: number
  /** How the model hears loops: the brake's notices against each other and the other plugin's. */
  readonly hearing: Hearing
  readonly scores: readonly EpisodeScore[]
}

/** Score one configuration over all runs. */
export function summarize(name: string, runs: readonly RunResult[]): ConfigSummary {
  let calls = 0
  let loopFreeRuns = 0
  let notices = 0
  let outside = 0
  let callsSpared = 0
  const falseAlarms: { run: string; notices: readonly Action[] }[] = []
  const falseStops: { run: string; stops: readonly Action[] }[] = []
  const scores: EpisodeScore[] = []
  const hearings: Hearing[] = []
  let unreached = 0
  for (const run of runs) {
    const actions = run.actions[name] ?? []
    const given = actions.filter(action => action.kind === 'notice')
    const stops = actions.filter(action => action.kind === 'stop')
    calls += run.calls
    notices += given.length
    callsSpared += run.spared[name] ?? 0
    const all = run.labels.flatMap(labels => labels.episodes)
    // An episode a stop kept from being played is neither caught nor missed: the runaway ended before it.
    const episodes = all.filter(episode => !keptFromPlay(episode, stops, run.turnStarts[episode.agent] ?? []))
    unreached += all.length - episodes.length
    hearings.push(hearRun(actions, episodes))
    if (all.length === 0) {
      loopFreeRuns++
      if (given.length > 0) falseAlarms.push({ run: run.id, notices: given })
      if (stops.length > 0) falseStops.push({ run: run.id, stops })
      continue
    }
    for (const episode of episodes) {
      const notice = firstOn(episode, given)
      const stop = firstOn(episode, stops)
      scores.push({ run: run.id, episode, notice, delay: notice === undefined ? undefined : notice.call - episode.begins, stop })
    }
    outside += given.filter(notice => !episodes.some(episode => actsOn(episode, notice))).length
  }
  const delays = scores.flatMap(score => score.delay === undefined ? [] : [score.delay])
  const fromLabel = scores.flatMap(score => score.notice === undefined ? [] : [score.notice.call - score.episode.labelledAt])
  const fromFirstCall = scores.flatMap(score => score.notice === undefined ? [] : [score.notice.call - score.episode.start])
  const noticeToStop = scores.flatMap(({ stop, notice }) => stop === undefined || notice === undefined ? [] : [stop.call - notice.call])
  return {
    name, runs: runs.length, calls, loopFreeRuns, falseAlarms, falseStops, callsSpared, unreached,
    hearing: addHearings(hearings),
    stopped: scores.filter(score => score.stop !== undefined).length,
    noticeToStop: spread(noticeToStop),
    episodes: scores.length,
    caught: delays.length,
    delay: spread(delays),
    delayFromLabel: spread(fromLabel),
    delayFromFirstCall: spread(fromFirstCall),
    notices,
    noticesPer1000Calls: calls === 0 ? 0 : notices / calls * 1000,
    noticesOutsideLoops: outside,
    scores,
  }
}

// ── text ─────────────────────────────────────────────────────────────────────────────────────────────────────────

/** The figures of every configuration side by side, one row per figure. */
export function figuresTable(summaries: readonly ConfigSummary[]): string {
  const rows: string[][] = [['', ...summaries.map(s => s.name)]]
  function row(label: string, cell: (s: ConfigSummary) => string): void {
    rows.push([label, ...summaries.map(cell)])
  }
  row('runs', s => String(s.runs))
  row('calls', s => String(s.calls))
  row('loop-free runs', s => String(s.loopFreeRuns))
  row('false alarms (loop-free runs with a notice)', s => `${s.falseAlarms.length} (${pct(s.falseAlarms.length, s.loopFreeRuns)})`)
  row('loop episodes', s => String(s.episodes))
  row(`episodes caught (notice in [start, end + ${CATCH_SLACK}])`, s => `${s.caught} (${pct(s.caught, s.episodes)})`)
  row('  not reached: a stop ended the run before them', s => String(s.unreached))
  row('calls from loop start (first repeat) to first notice: median', s => show(s.delay.median))
  row('  p75', s => show(s.delay.p75))
  row('  max', s => show(s.delay.max))
  row('calls from the loop\'s first call to first notice: median', s => show(s.delayFromFirstCall.median))
  row('calls from labelled call to first notice: median', s => show(s.delayFromLabel.median))
  row('  p75', s => show(s.delayFromLabel.p75))
  row('  max', s => show(s.delayFromLabel.max))
  row('notices', s => String(s.notices))
  row('notices per 1,000 calls', s => s.noticesPer1000Calls.toFixed(2))
  row('notices outside loops, in runs with loops', s => String(s.noticesOutsideLoops))
  row('false stops (loop-free runs cut short)', s => `${s.falseStops.length} (${pct(s.falseStops.length, s.loopFreeRuns)})`)
  row('episodes stopped (a stop in [start, end + 2])', s => `${s.stopped} (${pct(s.stopped, s.episodes)})`)
  row('calls from the first notice to the stop: median', s => show(s.noticeToStop.median))
  row('  max', s => show(s.noticeToStop.max))
  row('recorded calls not made after a stop', s => String(s.callsSpared))
  row('how the model hears loops (brake notices):', () => '')
  row('  on a loop episode, per episode: mean', s => s.hearing.episodes === 0 ? '–' : (s.hearing.episodeNotices / s.hearing.episodes).toFixed(2))
  row('    most on one episode', s => String(s.hearing.mostOnEpisode))
  row('  calls carrying two or more', s => String(s.hearing.crowdedCalls))
  row(`  most in any ${SPAN} consecutive calls of an agent`, s => String(s.hearing.mostInSpan))
  row(`  within ${SOON} calls after an earlier notice of either plugin`, s => String(s.hearing.soonAfterAny))
  row('    of them, after one on the same loop episode', s => String(s.hearing.soonAfterSameLoop))
  return table(rows)
}

/** Every episode once, with what it looks like and how each configuration did on it. */
export function episodeTable(runs: readonly RunResult[], summaries: readonly ConfigSummary[]): string {
  const lines: string[] = []
  let number = 0
  for (const run of runs) {
    for (const labels of run.labels) {
      for (const episode of labels.episodes) {
        number++
        const outcomes = summaries.map((s) => {
          const score = s.scores.find(x => x.run === run.id && x.episode === episode)
          if (score?.notice === undefined) return `${s.name}: missed`
          return `${s.name}: +${score.delay} (labelled ${signed(score.notice.call - episode.labelledAt)})`
        })
        lines.push(`#${number} ${run.id} [${labels.agent}] calls ${episode.start}–${episode.end} (${episode.end - episode.start + 1} calls), found by ${episode.foundBy.join('+')}, period ${episode.period}, labelled at ${episode.labelledAt}`)
        lines.push(`    ${describeEpisode(labels.calls, episode)}`)
        lines.push(`    ${outcomes.join(' · ')}`)
      }
    }
  }
  return lines.join('\n')
}

/** A one-line description of an episode: its tools, distinct actions, edits, and the errors it repeats. */
export function describeEpisode(calls: readonly CallFacts[], episode: Episode): string {
  const inside = calls.filter(call => call.index >= episode.start && call.index <= episode.end)
  const tools = new Map<string, number>()
  for (const call of inside) {
    const key = call.tool === 'str_replace_editor' ? `str_replace_editor ${String((call.args as { command?: unknown }).command)}` : call.tool
    tools.set(key, (tools.get(key) ?? 0) + 1)
  }
  const actions = new Set(inside.map(call => call.action)).size
  const edits = inside.filter(call => call.edit)
  const shellEdits = edits.filter(call => call.shellEdit).length
  const errors = new Set<string>()
  for (const call of inside) {
    const line = errorLine(call)
    if (line !== undefined) errors.add(line)
  }
  const parts = [
    [...tools].map(([tool, count]) => `${tool} ×${count}`).join(', '),
    `${actions} distinct actions`,
    `${edits.length} edits (${shellEdits} by shell, ${edits.filter(call => call.progress).length} progress)`,
  ]
  if (errors.size > 0) parts.push(`errors: ${[...errors].slice(0, 3).map(e => `"${e}"`).join('; ')}`)
  return parts.join('; ')
}

/** The line that says what went wrong in a failed call's result, if it failed. */
function errorLine(call: CallFacts): string | undefined {
  const exit = /\[exit code: (\d+)\]\s*$/.exec(call.text)
  const failed = call.isError || exit !== null || /has introduced new syntax error/.test(call.text)
  if (!failed) return undefined
  const lines = call.text.split('\n').map(line => line.trim()).filter(line => line !== '' && !line.startsWith('[exit code'))
  const telling = lines.find(line => /error|exception|invalid|no replacement|not found|no such|cannot|failed/i.test(line)) ?? lines.at(-1) ?? ''
  return fit(telling, 100)
}

/** Missed episodes and the slowest catches of one configuration, each with its listing. */
export function worstCases(summary: ConfigSummary, runs: readonly RunResult[], limit: number): string {
  const byId = new Map(runs.map(run => [run.id, run]))
  const missed = summary.scores.filter(score => score.notice === undefined)
  const slowest = summary.scores.filter(score => score.delay !== undefined).sort((a, b) => b.delay! - a.delay!).slice(0, limit)
  const out: string[] = []
  out.push(`missed episodes: ${missed.length}${missed.length > limit ? ` (first ${limit} shown)` : ''}`)
  for (const score of missed.slice(0, limit)) out.push(caseText(score, byId.get(score.run)!, summary.name))
  out.push(`slowest catches: ${slowest.length}`)
  for (const score of slowest) out.push(caseText(score, byId.get(score.run)!, summary.name))
  return out.join('\n')
}

/** False alarms of one configuration: the run, its notices, and the calls around the first one. */
export function falseAlarmText(summary: ConfigSummary, runs: readonly RunResult[], limit: number): string {
  return noticeCasesText('false alarms', summary.falseAlarms, runs, limit)
}

/** Notices on one run worth a look, the first one's calls listed. */
interface NoticeCase {
  readonly run: string
  readonly notices: readonly Action[]
}

/** Notices worth a look, one case per entry: its run, its notices, and the calls around the first one. */
function noticeCasesText(title: string, cases: readonly NoticeCase[], runs: readonly RunResult[], limit: number): string {
  const byId = new Map(runs.map(run => [run.id, run]))
  const out = [`${title}: ${cases.length}${cases.length > limit ? ` (first ${limit} shown)` : ''}`]
  for (const alarm of cases.slice(0, limit)) {
    const run = byId.get(alarm.run)!
    const first = alarm.notices[0]!
    const labels = run.labels.find(l => l.agent === first.agent)
    out.push(`  ${run.id} [${first.agent}]: ${alarm.notices.map(n => `@${n.call} ${n.plugin}: ${n.text}`).join(' | ')}`)
    if (labels !== undefined) out.push(listing(labels.calls, first.call - 6, first.call + 1, undefined, alarm.notices))
  }
  return out.join('\n')
}

// ── stuck episodes marked by reading ────────────────────────────────────────────────────────────────────────────

/**
 * What the detection aims for on the marked episodes of the development set: most of them told (24 of 27, scaled to
 * another count), soon after a watcher would say it, and no notice a person would not give on runs not stuck and
 * hardly any on resolved runs.
 */
const STUCK_TARGETS = { told: [36, 45], medianDelay: 3, notStuck: 0, resolvedOutside: 3 } as const

/** One configuration's figures against the marked episodes, with its name. */
export interface NamedStuckSummary {
  readonly name: string
  readonly stuck: StuckSummary
}

/** Notices each configuration gave in a baseline evaluation, by run id, then configuration name. */
export type Baseline = ReadonlyMap<string, Readonly<Record<string, readonly Action[]>>>

/** One configuration scored against the marked runs that were replayed (a run the traces lack is left out). */
export function stuckFor(name: string, runs: readonly RunResult[], labels: readonly StuckRun[]): StuckSummary {
  const byId = new Map(runs.map(run => [run.id, run]))
  return summarizeStuck(labels.flatMap((label) => {
    const run = byId.get(label.id)
    return run === undefined ? [] : [scoreStuckRun(label, run, run.actions[name] ?? [])]
  }))
}

/** The figures against the marked episodes, every configuration side by side, with the targets in the last column. */
export function stuckTable(summaries: readonly NamedStuckSummary[]): string {
  const rows: string[][] = [['', ...summaries.map(s => s.name), 'target']]
  function row(label: string, cell: (s: StuckSummary) => string, target = ''): void {
    rows.push([label, ...summaries.map(s => cell(s.stuck)), target])
  }
  const all = summaries[0] === undefined ? 0 : summaries[0].stuck.byKind.all.episodes + summaries[0].stuck.byKind.all.unreached
  const kinds = ['all', ...STUCK_KINDS] as const
  const name = (kind: typeof kinds[number]): string => kind === 'all' ? 'all' : `  ${kind}`
  row(`episodes caught (notice or refusal in [from, to + ${CATCH_SLACK}])`, () => '')
  for (const kind of kinds) {
    row(name(kind), s => `${s.byKind[kind].caught} of ${s.byKind[kind].episodes}`,
      kind === 'all' ? `≥ ${Math.ceil(all * STUCK_TARGETS.told[0] / STUCK_TARGETS.told[1])}` : '')
  }
  row('  not reached: a stop ended the run before them', s => String(s.byKind.all.unreached))
  row('calls from firstStuckCall to first notice: median / p75 / max', () => '')
  for (const kind of kinds) {
    row(name(kind), s => `${show(s.byKind[kind].delay.median)} / ${show(s.byKind[kind].delay.p75)} / ${show(s.byKind[kind].delay.max)}`,
      kind === 'all' ? `median ≤ ${STUCK_TARGETS.medianDelay}` : '')
  }
  row('notices a person would not give (notices, runs with one):', () => '')
  const tally = (t: UnwantedTally): string => `${t.actions} (${t.runsTold} of ${t.runs})`
  const notStuck = summaries[0] === undefined ? 0 : summaries[0].stuck.notStuck.resolved.runs + summaries[0].stuck.notStuck.unresolved.runs
  row('  on runs marked not stuck', s => tally(sum(s.notStuck.resolved, s.notStuck.unresolved)), `${STUCK_TARGETS.notStuck} on ${notStuck} runs`)
  row('    resolved', s => tally(s.notStuck.resolved))
  row('    unresolved', s => tally(s.notStuck.unresolved))
  row(`  on stuck runs, outside every episode (+ ${CATCH_SLACK} calls)`, s => tally(sum(s.outside.resolved, s.outside.unresolved)))
  row('    resolved', s => tally(s.outside.resolved))
  row('    unresolved', s => tally(s.outside.unresolved))
  row('  on resolved runs, outside every episode', s => tally(sum(s.notStuck.resolved, s.outside.resolved)), `≤ ${STUCK_TARGETS.resolvedOutside}`)
  return table(rows)
}

function sum(a: UnwantedTally, b: UnwantedTally): UnwantedTally {
  return { runs: a.runs + b.runs, runsTold: a.runsTold + b.runsTold, actions: a.actions + b.actions }
}

/** Every marked episode once, with what it is and how each configuration did on it. */
export function stuckEpisodeTable(summaries: readonly NamedStuckSummary[]): string {
  const first = summaries[0]?.stuck.runScores ?? []
  const lines: string[] = []
  let number = 0
  for (const [runIndex, runScore] of first.entries()) {
    for (const [episodeIndex, { episode }] of runScore.scores.entries()) {
      number++
      const outcomes = summaries.map((s) => {
        const score = s.stuck.runScores[runIndex]!.scores[episodeIndex]!
        if (score.unreached) return `${s.name}: not reached`
        return score.delay === undefined ? `${s.name}: missed` : `${s.name}: ${signed(score.delay)} (@${score.caughtAt})`
      })
      lines.push(`#${number} ${runScore.run.id} calls ${episode.from}–${episode.to}, ${episode.kind}, stuck at ${episode.firstStuckCall}, ${episode.confidence}: ${episode.what}`)
      lines.push(`    ${outcomes.join(' · ')}`)
    }
  }
  return lines.join('\n')
}

/** The notices and refusals of one configuration a person would not give, each with the calls around it. */
export function unwantedText(name: string, stuck: StuckSummary, runs: readonly RunResult[]): string {
  const cases = stuck.runScores.flatMap(runScore => runScore.unwanted.map(action => ({ run: runScore.run.id, notices: [action] })))
  return noticeCasesText(`notices a person would not give (${name})`, cases, runs, Infinity)
}

/**
 * Every notice of one configuration on a run no one labelled (not in the labels file, no loop by the rule), each with
 * the calls around it; with a baseline, only those it did not give.
 */
export function unlabelledText(name: string, runs: readonly RunResult[], labels: readonly StuckRun[], baseline?: Baseline): string {
  const marked = new Set(labels.map(label => label.id))
  const cases: NoticeCase[] = []
  for (const run of runs) {
    if (marked.has(run.id) || run.labels.some(labels => labels.episodes.length > 0)) continue
    const told = (run.actions[name] ?? []).filter(action => action.kind !== 'stop')
    for (const action of addedTo(baseline?.get(run.id)?.[name] ?? [], told)) cases.push({ run: run.id, notices: [action] })
  }
  const compared = baseline === undefined ? ''
    : [...baseline.values()].some(configurations => name in configurations) ? ', not in the baseline' : ', the baseline has no such configuration'
  const title = `notices on runs no one labelled${compared} (${name})`
  return noticeCasesText(title, cases, runs, Infinity)
}

function caseText(score: EpisodeScore, run: RunResult, config: string): string {
  const labels = run.labels.find(l => l.agent === score.episode.agent)!
  const episode = score.episode
  const notices = (run.actions[config] ?? []).filter(n => n.kind === 'notice' && n.agent === episode.agent)
  const when = score.notice === undefined ? 'missed' : `first notice at ${score.notice.call} (+${score.delay}, labelled ${signed(score.notice.call - episode.labelledAt)}): ${score.notice.text}`
  return [
    `  ${run.id} [${episode.agent}] calls ${episode.start}–${episode.end}, labelled at ${episode.labelledAt}, found by ${episode.foundBy.join('+')}, period ${episode.period}; ${when}`,
    `    ${describeEpisode(labels.calls, episode)}`,
    listing(labels.calls, episode.start - 2, episode.end + CATCH_SLACK + 1, episode, notices),
  ].join('\n')
}

/** Listings longer than LISTING_HEAD + LISTING_TAIL calls are cut in the middle. */
const LISTING_HEAD = 24
const LISTING_TAIL = 6

/**
 * Calls `from`..`to` one per line: `*` inside the episode, index, tool, an argument preview, whether the outcome
 * repeated (`=` same as the last call with this action, `≠` changed, blank: new action), `E` for an edit, `!` for an
 * error or non-zero exit, and the notices given after the call.
 */
export function listing(
  calls: readonly CallFacts[], from: number, to: number, episode: Episode | undefined, notices: readonly Action[],
): string {
  const shown = calls.filter(call => call.index >= from && call.index <= to)
  const lines = shown.map((call) => {
    const inside = episode !== undefined && call.index >= episode.start && call.index <= episode.end ? '*' : ' '
    const repeat = call.repeat === 'same' ? '=' : call.repeat === 'changed' ? '≠' : ' '
    const edit = call.edit ? (call.shellEdit ? 'E$' : 'E ') : '  '
    const failed = call.isError || /\[exit code: \d+\]\s*$/.test(call.text) ? '!' : ' '
    const given = notices.filter(n => n.call === call.index).map(n => `  ◀ ${n.plugin}: ${n.text}`).join('')
    return `    ${inside}${String(call.index).padStart(4)} ${call.tool.padEnd(18).slice(0, 18)} ${preview(call).padEnd(80)} ${repeat}${edit}${failed}${given}`
  })
  if (lines.length <= LISTING_HEAD + LISTING_TAIL + 1) return lines.join('\n')
  return [...lines.slice(0, LISTING_HEAD), `    … ${lines.length - LISTING_HEAD - LISTING_TAIL} calls …`, ...lines.slice(-LISTING_TAIL)].join('\n')
}

/** About 80 characters saying what a call did. */
export function preview(call: CallFacts): string {
  const args = (call.args ?? {}) as Record<string, unknown>
  let text: string
  if (typeof args['command'] === 'string' && call.tool !== 'str_replace_editor') text = args['command']
  else if (call.tool === 'str_replace_editor') {
    const range = Array.isArray(args['view_range']) ? ` [${args['view_range'].join(',')}]` : ''
    const input = typeof args['input'] === 'string' ? ` ${args['input']}` : ''
    text = `${String(args['command'])} ${String(args['path'])}${range}${input}`
  } else if (call.tool === 'read') {
    const offset = args['offset'] === undefined ? '' : ` @${argText(args['offset'])}`
    const limit = args['limit'] === undefined ? '' : `+${argText(args['limit'])}`
    text = `${String(args['file_path'])}${offset}${limit}`
  } else if (call.tool === 'write') {
    text = `${String(args['file_path'])} (${argText(args['content'] ?? '').length} chars)`
  } else {
    text = JSON.stringify(args)
  }
  return fit(text.replace(/\s+/g, ' '), 80)
}

/** An argument as text: an object or array as JSON, anything else as `String` writes it. */
function argText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '–' : `${(part / whole * 100).toFixed(1)}%`
}

function signed(value: number): string {
  return value < 0 ? String(value) : `+${value}`
}

function show(value: number | undefined): string {
  return value === undefined ? '–' : String(value)
}

function table(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map(row => row[column]!.length)))
  return rows.map(row => row.map((cell, column) => column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)).join('  ')).join('\n')
}
