/**
 * The brake's own words read back, by the templates that made them: a refused call's result, a stopped turn's reason,
 * a notice's summary and a stop's phrase. How the records (telemetry.ts), the replay and `analyze` tell the brake's
 * actions in what DSH logged, without a mark of their own in the log. Built from the templates, so a change of wording
 * changes the reading with it.
 * @module dsh-brake/dsh/readings
 */
import { LOOP_KINDS, type LoopKind } from '../core/kinds.js'
import { DENIAL_REASON, STOP_REASON, STOP_SUMMARY } from '../messages/templates.js'
import { WORDINGS } from '../messages/wording.js'
import { templateParts } from '../words/template.js'

/** Placeholders that always hold a whole number. */
const NUMBERS = new Set(['count', 'laps', 'length', 'calls', 'cuts', 'copies', 'times'])

/**
 * A template as a pattern that reads its values back: literal text as it is, each `{name}` a named group (digits for
 * counts). Anchored at the start only: a summary cut short to its length still reads as far as it goes.
 */
export function templatePattern(template: string): RegExp {
  const parts = templateParts(template)
  let source = '^'
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) {
      source += parts[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      continue
    }
    const name = parts[i]!
    const last = i === parts.length - 2 && parts[i + 1] === ''
    source += NUMBERS.has(name) ? `(?<${name}>\\d+)` : `(?<${name}>[\\s\\S]${last ? '*' : '*?'})`
  }
  return new RegExp(source)
}

/** What a summary or a phrase says of its loop: the kind, and what the template's placeholders held. */
export interface Reading {
  readonly kind: LoopKind
  readonly fields: Readonly<Record<string, string>>
}

interface Reader {
  readonly pattern: RegExp
  readonly kind: LoopKind
}

/**
 * Readers of every kind's templates of one sort, the templates that spell out the most literal text first: of two that
 * could read one text (`{tool} × {count}, …` would read `bash failed × 3, same error` too), the one that says more is
 * the one that wrote it.
 */
function readers(templatesOf: (kind: LoopKind) => readonly string[]): readonly Reader[] {
  const literal = (template: string): number => templateParts(template).filter((_, i) => i % 2 === 0).join('').length
  return LOOP_KINDS.flatMap(kind => templatesOf(kind).map(template => ({ template, kind })))
    .sort((a, b) => literal(b.template) - literal(a.template))
    .map(({ template, kind }) => ({ pattern: templatePattern(template), kind }))
}

const SUMMARIES = readers(kind => WORDINGS[kind].summaries)
const PHRASES = readers(kind => WORDINGS[kind].phrases)

function read(from: readonly Reader[], text: string): Reading | undefined {
  for (const { pattern, kind } of from) {
    const fields = pattern.exec(text)?.groups
    if (fields !== undefined) return { kind, fields }
  }
  return undefined
}

/** A notice's summary, read back: its loop's kind and values (undefined for a summary no kind's template makes). */
export function readSummary(summary: string): Reading | undefined {
  return read(SUMMARIES, summary)
}

/** A stop's phrase for its loop (what follows the stop reason's opening), read back. */
export function readPhrase(phrase: string): Reading | undefined {
  return read(PHRASES, phrase)
}

const STOPPED = templatePattern(STOP_SUMMARY)

/** The loop's own summary that a stop notice's summary names, or undefined when `summary` is no stop notice's. */
export function stoppedLoopSummary(summary: string): string | undefined {
  return STOPPED.exec(summary)?.groups?.['loop']
}

/**
 * Whether a tool result the model got is this brake's refusal, as DSH words a guard's reason (`Error: <reason>`):
 * how a session log shows the calls deny mode refused.
 */
export function isRefusalResult(text: string): boolean {
  return text.startsWith(REFUSAL_RESULT_START)
}

// Made once: the telemetry listener and `analyze` ask this of every failed result they read.
const REFUSAL_RESULT_START = `Error: ${DENIAL_REASON.slice(0, DENIAL_REASON.indexOf('{'))}`
const REFUSAL = templatePattern(DENIAL_REASON)

/** A refused call's result (`isRefusalResult`) read back: the tool and the calls that ran before it, as far as it reads. */
export function readRefusal(text: string): Readonly<Record<string, string>> | undefined {
  return REFUSAL.exec(text.slice('Error: '.length))?.groups
}

/**
 * Whether a reason a turn was cancelled with is this brake's stop (the text the stop reason's template makes): how a
 * session log shows the turns stop mode ended, and how a replay tells the stop lines it holds back from stderr.
 */
export function isStopReason(text: string): boolean {
  return text.startsWith(STOP_PREFIX)
}

const STOP_PREFIX = STOP_REASON.slice(0, STOP_REASON.indexOf('{'))

/** The phrase a stop reason (`isStopReason`) names its loop by. */
export function stopPhraseOf(reason: string): string {
  return reason.slice(STOP_PREFIX.length)
}
