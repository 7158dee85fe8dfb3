/**
 * A config edit DSH refused, told to the person who saved it: HMR rolls the brake back to its previous config and
 * stock dsh shows nothing, so the brake that runs after the rollback says what was refused, once.
 * Design: docs/design.md#failures-stay-inside
 * @module dsh-brake/dsh/reload
 */
import type { Context } from '@deepseek-ai/cordis'

/** The event cordis-plugin-hmr emits after a watched config file's refresh failed and was rolled back. */
const RELOAD_FAILED = 'hmr/config-update-failed'

/** A refusal told once, however many brake rows hear it. */
const told = new WeakSet<object>()

/** Tell the person, through `say`, of each refused edit that concerns plugin `name`. */
export function onReloadRejected(ctx: Context, name: string, say: (line: string) => void): void {
  // The event is declared by cordis-plugin-hmr, which this package does not depend on; it is a plain Cordis event.
  const on = ctx.on.bind(ctx) as unknown as (event: string, listener: (file: unknown, error: unknown) => void) => void
  on(RELOAD_FAILED, (file, error) => {
    if (typeof error !== 'object' || error === null || told.has(error)) return
    const line = refusal(name, String(file), error)
    if (line === undefined) return
    told.add(error)
    say(line)
  })
}

/**
 * What to tell of a refused edit, or undefined when it is not about plugin `name`. The Loader's error names the entry
 * (`failed to apply loader entry dsh-brake (dsh-brake): invalid config:`), then one issue a line, each in the
 * brake's own words (`  - dsh-brake: \`mode\` must be one of …`).
 */
export function refusal(name: string, file: string, error: object): string | undefined {
  const text = messages(error).join('\n')
  const issues = [...text.matchAll(new RegExp(`^\\s*- ${name}: (.+)$`, 'gm'))].map(match => match[1]!)
  if (issues.length === 0 && !text.includes(`(${name}):`)) return undefined
  // An apply that threw for another reason is told by its own first line, without the Loader's preamble.
  const why = issues.length > 0 ? [...new Set(issues)] : [innermost(error)]
  const head = `${name}: your edit of ${file} was not applied; dsh-brake runs on with its previous config (its counts start afresh)`
  const fix = 'Fix it and save again (`dsh-brake doctor` names the line).'
  return why.length === 1 ? `${head}: ${why[0]!}. ${fix}\n` : `${head}:\n${why.map(issue => `  - ${issue}`).join('\n')}\n${fix}\n`
}

/**
 * What to tell of a settings section the brake refused when it registered (`why` is the brake's message): the section
 * was stored outside the web UI, which refuses such a value at the save.
 */
export function settingsRefusal(name: string, why: string): string {
  return `${name}: your \`${name}:\` section of DSH's settings document was not applied; ${name} runs with its cordis.patch.yml config: ${withoutName(name, why)}. Fix it and save again (\`dsh-brake doctor\` shows the settings in force).\n`
}

/** What to tell of a change of the settings section the brake refused while it runs: it runs on as it was. */
export function settingsChangeRefusal(name: string, why: string): string {
  return `${name}: a change of your \`${name}:\` settings was refused; ${name} runs on with its settings as they were: ${withoutName(name, why)}.\n`
}

/** A message of the brake's without the name it opens with, for a line that names the brake already. */
function withoutName(name: string, why: string): string {
  return why.startsWith(`${name}: `) ? why.slice(name.length + 2) : why
}

/** The messages of an error, its causes and, for an AggregateError, the errors it gathers. */
function messages(error: unknown, seen = new Set<unknown>()): string[] {
  if (typeof error !== 'object' || error === null || seen.has(error)) return []
  seen.add(error)
  const { message, cause, errors } = error as { message?: unknown; cause?: unknown; errors?: unknown }
  return [
    ...typeof message === 'string' ? [message] : [],
    ...messages(cause, seen),
    ...Array.isArray(errors) ? errors.flatMap(inner => messages(inner, seen)) : [],
  ]
}

/** The first line of the deepest cause: what went wrong, before each layer above added where. */
function innermost(error: object): string {
  const causeOf = (inner: object): unknown => (inner as { cause?: unknown }).cause
  let deepest = error
  for (let depth = 0; depth < 16; depth++) {
    const cause = causeOf(deepest)
    if (typeof cause !== 'object' || cause === null) break
    deepest = cause
  }
  const message = (deepest as { message?: unknown }).message
  return (typeof message === 'string' ? message : 'the plugin could not start').split('\n')[0]!
}
