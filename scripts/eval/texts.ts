/**
 * The stream watch on real text. The traces hold no model responses, but they hold the long text models read and
 * quote: tool outputs (files, logs, tracebacks) and tasks. Each is streamed in 4-character deltas through the watch
 * the plugin runs, under the default thresholds: any that would be cut is real text a response quoting it would lose.
 * The longest back-to-back exact repetition of any text, found with a far lower threshold, says how much margin the
 * default leaves.
 */
import { DEFAULTS } from '../../src/config/keys.ts'
import { resolveOptions } from '../../src/config/resolve.ts'
import { createRepetitionWatch, type Repetition, type RepetitionOptions } from '../../src/core/detectors/repetition.ts'
import type { AgentEvent } from '../../src/replay/agent-events.ts'

/** What the watch made of the texts. */
export interface TextSurvey {
  texts: number
  chars: number
  /** Texts at least as long as the default threshold: the ones it could cut at all. */
  long: number
  /** Texts the defaults would cut, with where. */
  cut: { run: string; unit: string; copies: number; span: number }[]
  /** The longest back-to-back repetition found in any text (at least `LOW` characters), and where. */
  longest: { run: string; unit: string; copies: number; span: number } | undefined
}

/** The threshold the longest repetition is looked for with. */
const LOW = 1_000

/** A survey to feed runs into. */
export interface Survey {
  add(run: string, events: readonly AgentEvent[]): void
  readonly result: TextSurvey
  readonly options: RepetitionOptions
}

export function createTextSurvey(): Survey {
  const options = resolveOptions(DEFAULTS).stream!
  const low = { ...options, chars: LOW }
  const result: TextSurvey = { texts: 0, chars: 0, long: 0, cut: [], longest: undefined }
  return {
    options,
    result,
    add(run, events) {
      for (const event of events) {
        if (event.kind !== 'call' && event.kind !== 'user') continue
        const text = event.text
        result.texts++
        result.chars += text.length
        if (text.length < LOW) continue
        if (text.length >= options.chars) result.long++
        const found = stream(text, options)[0]
        if (found !== undefined) result.cut.push({ run, unit: found.unit, copies: found.copies, span: found.span })
        for (const { unit, copies, span } of stream(text, low)) {
          if (span > (result.longest?.span ?? 0)) result.longest = { run, unit, copies, span }
        }
      }
    },
  }
}

/** Every repetition a watch reports over `text` streamed in 4-character deltas (it goes on looking after the first). */
function stream(text: string, options: RepetitionOptions): Repetition[] {
  const watch = createRepetitionWatch(options)
  const found: Repetition[] = []
  for (let at = 0; at < text.length; at += 4) {
    const repetition = watch.push(text.slice(at, at + 4))
    if (repetition !== undefined) found.push(repetition)
  }
  return found
}

/** The survey as the report's closing section. */
export function textSurveyText({ texts, chars, long, cut, longest }: TextSurvey, options: RepetitionOptions): string {
  const quote = (unit: string): string => JSON.stringify(unit.length > 48 ? `${unit.slice(0, 48)}…` : unit)
  const lines = [
    `The traces hold no model responses; their ${texts} tool outputs and tasks (${(chars / 1e6).toFixed(1)} M characters, ${long} of them`
    + ` ${options.chars} or longer) stand in for the long text a model quotes.`,
    `would be cut under the defaults (${options.chars} characters, ${options.copies} copies): ${cut.length}`,
    ...cut.slice(0, 5).map(found => `  ${found.run}: ${quote(found.unit)} × ${found.copies} (${found.span} characters)`),
    longest === undefined
      ? `no back-to-back repetition of ${LOW} characters or more in any of them`
      : `longest back-to-back exact repetition in any of them: ${longest.span} characters (${quote(longest.unit)} × ${longest.copies}, ${longest.run})`,
  ]
  return lines.join('\n')
}
