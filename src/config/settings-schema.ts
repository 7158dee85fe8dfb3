/**
 * The schema the brake registers its settings section with. DSH's settings service judges a write by calling the
 * schema on the layered section, and refuses the write with whatever the call throws; the web UI shows that message.
 * A plain schema would word a refusal its own way ("expected number >= 2 but got 1") and could not see the rule between
 * keys, so this one runs the brake's checker first and throws the brake's own message (key, rule, value), then lets
 * the schema fill the defaults. Serialized (`toJSON`, what the web UI reads), it is the plain schema of the section.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/config/settings-schema
 */
import Schema from '@deepseek-ai/schemastery'
import { describeProblems } from './check.js'
import type { Config } from './keys.js'
import { keysSchema } from './schema.js'
import { SETTINGS_KEYS, settingsProblems, type Settings } from './settings.js'

/**
 * The section's schema, judging each write as part of `config` (the row's config, which the section sits over);
 * `refused` hears each refusal's message before it is thrown.
 */
export function settingsSchema(
  config: Readonly<Config>, refused: (message: string) => void = () => undefined,
): Schema<Partial<Settings>, Settings> {
  const plain = keysSchema(SETTINGS_KEYS)
  const worded = function (value: unknown, options?: unknown): unknown {
    const problems = settingsProblems(value, config)
    if (problems.length > 0) {
      const message = describeProblems(problems)
      refused(message)
      throw new TypeError(message)
    }
    return (plain as (value: unknown, options?: unknown) => unknown)(value, options)
  }
  // A schema is a function carrying its description as own properties on Schema's prototype (that is how schemastery
  // builds one); the same properties on `worded` make it serialize, and be walked, as the plain schema is.
  Object.assign(worded, plain)
  Object.defineProperty(worded, 'uid', { value: (plain as unknown as { uid: number }).uid })
  Object.setPrototypeOf(worded, Object.getPrototypeOf(plain) as object)
  return worded as unknown as Schema<Partial<Settings>, Settings>
}
