/**
 * The stream watch on real text. The traces hold no model responses, but they hold the long text models read and
 * quote: tool outputs (files, logs, tracebacks) and tasks. Each is streamed in 4-character deltas through the watch
 * the plugin runs, under the default thresholds, as a response quoting it whole would stream with it in its request:
 * any cut is real text such a response would lose. Streamed with no request, the cuts say what the quote rule spares.
 * The longest back-to-back repetition of any text says how long a quote the rule must follow. Then the model text at
 * hand: the real runaways users reported and the real repetitive texts of the test corpus.
 */
import { DEFAULTS } from '../../src/config/keys.ts'
import { resolveOptions } from '../../src/config/resolve.ts'
import type { RunawayOptions } from '../../src/core/stream/runaway-rules.ts'
import { RunawayWatch, type Repetition } from '../../src/core/stream/runaway-watch.ts'
import { foldText } from '../../src/core/stream/fold.ts'
import { createQuotedRun } from '../../src/core/stream/quotes.ts'
import type { AgentEvent } from '../../src/replay/agent-events.ts'
// The corpus of real model text lives with the tests that hold the watch to it; the evaluation reads it too.
import { RUNAWAYS, TEXTS } from '../../test/loop/corpus/real-texts.ts'

/** What the watch made of the texts. */
export interface TextSurvey {
  texts: number
  chars: number
  /** Texts at least as long as the default threshold: the ones it could cut at all. */
  long: number
  /** Texts the defaults would cut, with where. */
  cut: { run: string; unit: string; copies: number; span: number }[]
  /** Texts the defaults would cut in a response that had no request to quote them from. */
  unquoted: number
  /** The longest back-to-back repetition found in any text (at least `LOW` characters), and where. */
  longest: { run: string; unit: string; copies: number; span: number } | undefined
}

/** The threshold the longest repetition is looked for with. */
const LOW = 1_000

/** A survey to feed runs into. */
export interface Survey {
  add(run: string, events: readonly AgentEvent[]): void
  readonly result: TextSurvey
  readonly options: RunawayOptions
}

export function createTextSurvey(): Survey {
  const options = resolveOptions(DEFAULTS).stream!
  // Only the characters rule, far lower: every long run, however many copies.
  const low = { ...options, chars: LOW, copies: Number.MAX_SAFE_INTEGER }
  const result: TextSurvey = { texts: 0, chars: 0, long: 0, cut: [], unquoted: 0, longest: undefined }
  return {
    options,
    result,
    add(run, events) {
      for (const event of events) {
        if (event.kind !== 'call' && event.kind !== 'user') continue
        const text = event.text
        result.texts++
        result.chars += text.length
        if (text.length < options.minChars) continue
        if (text.length >= options.chars) result.long++
        const found = stream(text, options, text)[0]
        if (found !== undefined) result.cut.push({ run, unit: found.unit, copies: found.copies, span: found.span })
        if (stream(text, options)[0] !== undefined) result.unquoted++
        if (text.length < LOW) continue
        for (const { unit, copies, span } of stream(text, low)) {
          if (span > (result.longest?.span ?? 0)) result.longest = { run, unit, copies, span }
        }
      }
    },
  }
}

/** Every repetition a watch reports over `text` streamed in 4-character deltas (it goes on looking after the first). */
function stream(text: string, options: RunawayOptions, request?: string): Repetition[] {
  const watch = new RunawayWatch(options, request === undefined ? undefined : createQuotedRun(() => foldText(request)))
  const found: Repetition[] = []
  for (let at = 0; at < text.length; at += 4) {
    const repetition = watch.push(text.slice(at, at + 4))
    if (repetition !== undefined) found.push(repetition)
  }
  return found
}

/** The survey as the report's closing section. */
export function textSurveyText({ texts, chars, long, cut, unquoted, longest }: TextSurvey, options: RunawayOptions): string {
  const quote = (unit: string): string => JSON.stringify(unit.length > 48 ? `${unit.slice(0, 48)}…` : unit)
  const lines = [
    `The traces hold no model responses; their ${texts} tool outputs and tasks (${(chars / 1e6).toFixed(1)} M characters, ${long} of them`
    + ` ${options.chars} or longer) stand in for the long text a model quotes.`,
    `would be cut, quoted whole, under the defaults (${options.copies} copies or ${options.chars} characters): ${cut.length}`,
    `would be cut with no request to quote them from (what the quote rule spares): ${unquoted}`,
    ...cut.slice(0, 5).map(found => `  ${found.run}: ${quote(found.unit)} × ${found.copies} (${found.span} characters)`),
    longest === undefined
      ? `no back-to-back repetition of ${LOW} characters or more in any of them`
      : `longest back-to-back repetition in any of them: ${longest.span} characters (${quote(longest.unit)} × ${longest.copies}, ${longest.run})`,
    ...modelTextLines(options),
  ]
  return lines.join('\n')
}

/** The real model text at hand: where the runaways users reported are cut, and which real repetitive texts would be. */
function modelTextLines(options: RunawayOptions): string[] {
  const kept = RUNAWAYS.map((entry) => {
    const watch = new RunawayWatch(options)
    for (let at = 0; at < entry.text.length; at += 4) {
      if (watch.push(entry.text.slice(at, at + 4)) !== undefined) return Math.min(at + 4, entry.text.length)
    }
    return undefined
  })
  const cutAt = kept.filter(at => at !== undefined).sort((a, b) => a - b)
  const texts = TEXTS.filter(entry => stream(entry.text, options, entry.request).length > 0)
  return [
    `runaways users reported: ${cutAt.length} of ${RUNAWAYS.length} cut, keeping a median of ${cutAt[Math.floor(cutAt.length / 2)] ?? 0} characters`
    + ` (at most ${cutAt.at(-1) ?? 0}); real repetitive texts cut: ${texts.length} of ${TEXTS.length}`
    + (texts.length > 0 ? ` (${texts.map(entry => entry.name).join('; ')})` : ''),
  ]
}
