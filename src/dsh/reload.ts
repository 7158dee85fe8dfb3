/**
 * A config edit DSH refused, told to the person who saved it: HMR rolls the brake back to its previous config and
 * stock dsh shows nothing, so the brake that runs after the rollback says what was refused, once; so is a patch file
 * DSH could not read at all (one read half written, as DSH's watcher can read a save written in place).
 * Design: docs/design.md#failures-stay-inside
 * @module dsh-brake/dsh/reload
 */
import type { Context } from '@deepseek-ai/cordis'
import { escapeRegExp } from '../core/identity/patterns.js'

/** The event cordis-plugin-hmr emits after a watched config file's refresh failed and was rolled back. */
const RELOAD_FAILED = 'hmr/config-update-failed'

/** A refusal told once, however many brake rows hear it. */
const told = new WeakSet<object>()

/**
 * Tell the person, through `say`, of each refused edit that concerns plugin `name`: an edit of its config it refused,
 * or a patch file DSH could not read at all, which takes the brake's edit with it.
 */
export function onReloadRejected(ctx: Context, name: string, say: (line: string) => void): void {
  // The event is declared by cordis-plugin-hmr, which this package does not depend on; it is a plain Cordis event.
  const on = ctx.on.bind(ctx) as unknown as (event: string, listener: (file: unknown, error: unknown) => void) => void
  on(RELOAD_FAILED, (file, error) => {
    if (typeof error !== 'object' || error === null || told.has(error)) return
    const line = refusal(name, String(file), error) ?? unreadPatchFile(name, String(file), error)
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
 * What to tell of a patch file DSH could not take as a whole (not YAML, not a list of rows), or undefined when `error`
 * is no such failure of `file`. Stock dsh tells it nowhere, and it is what a save written in place often gives: DSH
 * 0.1.0-rc.8 reads the file at the first change its watcher reports (cordis-plugin-hmr over chokidar), which for a
 * file written in place is the truncation, finds it empty, and drops the change the content brings if it comes within
 * the watcher's 50 ms: the edit then never applies, until the next change of the file.
 */
export function unreadPatchFile(name: string, file: string, error: object): string | undefined {
  const reason = messages(error).map(message => whyUnread(message.split('\n')[0]!, file)).find(why => why !== undefined)
  if (reason === undefined) return undefined
  return `${name}: DSH could not read your edit of ${file} (${reason}), so none of it applies: every plugin runs on as before, `
    + `${name} too. A save that writes the file in place (\`cat >\`, \`cp\`, some editors) can be read half written, and DSH does not `
    + `read it again until the next change: save it again, or \`touch ${file}\`. If the file is wrong, fix it (\`dsh-brake doctor\` names `
    + 'the line).\n'
}

/** What dsh-app-boot's message for a patch file it could not take says is wrong with `file`, in a few words. */
function whyUnread(message: string, file: string): string | undefined {
  const escaped = escapeRegExp(file)
  if (new RegExp(`patches ${escaped} must be a top-level YAML array`).test(message)) return 'it found no list of rows in it'
  const parse = new RegExp(`failed to parse patches ${escaped}: (?:YAMLException: )?(.+)$`).exec(message)
  if (parse !== null) return `it is not valid YAML: ${parse[1]!}`
  const entry = new RegExp(`patches entry (\\d+) in ${escaped} must be a mapping`).exec(message)
  if (entry !== null) return `its entry ${entry[1]!} is not a mapping`
  const unreadable = new RegExp(`failed to read patches ${escaped}: (.+)$`).exec(message)
  if (unreadable !== null) return `it cannot be read: ${unreadable[1]!}`
  return undefined
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
