/**
 * Command-line flags for every subcommand, read by Node's `parseArgs` in strict mode, with its errors turned into one
 * line that names the flag (`unknown option \`--jsn\``) instead of Node's wording.
 * @module dsh-brake/cli/parse-options
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from '../errors/usage-error.js'

type Options = NonNullable<ParseArgsConfig['options']>

/** The flags and positionals of `argv`. @throws UsageError for an unknown flag or a flag without its value. */
export function parseOptions(argv: readonly string[], options: Options): {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>
  positionals: string[]
} {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    const { code, message } = error as { code?: string; message: string }
    const flag = /'(-[^'\s]+)/.exec(message)?.[1]
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option \`${flag ?? message}\``)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`\`${flag ?? message}\` ${/argument missing|ambiguous/.test(message) ? 'needs a value' : 'takes no value'}`)
    throw new UsageError(message)
  }
}
