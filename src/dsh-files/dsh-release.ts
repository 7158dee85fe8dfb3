/**
 * The DSH release dsh-brake targets, and the versions of the Cordis family it was published with. `@deepseek-ai/dsh`
 * 0.1.0-rc.8 asks for these packages by ranges that newer releases also satisfy, and those do not fit it: every boot
 * then fails ("user patch-layer watching requires the Cordis HMR service"). docs/install.md's recipe pins them; the
 * doctor checks that the pins took (a test keeps the three in step).
 * @module dsh-brake/dsh-files/dsh-release
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The `@deepseek-ai/dsh` release dsh-brake is built and tested against. */
export const DSH_RELEASE = '0.1.0-rc.8'

/** The oldest Node that release runs on: on an older one (Node 20) every boot fails. */
export const DSH_NODE = '22.19'

/** Whether a Node version (`v22.19.0`) runs that release: 22.19 or a later 22, or 24 and later (engines `^22.19.0 || >=24`). */
export function fitsDshNode(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  return (major === 22 && minor >= 19) || major >= 24
}

/** The Cordis family as published with that release. */
export const CORDIS_PINS: Readonly<Record<string, string>> = Object.freeze({
  '@deepseek-ai/cordis': '4.0.1',
  '@deepseek-ai/cordis-plugin-group': '1.0.1',
  '@deepseek-ai/cordis-plugin-hmr': '1.0.16',
  '@deepseek-ai/cordis-plugin-include': '1.0.6',
  '@deepseek-ai/cordis-plugin-loader': '1.0.2',
  '@deepseek-ai/cordis-plugin-timer': '1.1.3',
  '@deepseek-ai/cosmokit': '1.8.2',
  '@deepseek-ai/schemastery': '3.18.1',
})

/**
 * The Cordis family as the DSH home's profiles get it: DSH links its own install's packages into
 * `profiles/node_modules` at every boot (and `--dump-config`), so these are the versions the last dsh that ran loads.
 * Each package's version, or undefined where the link is not there (dsh has not run with this home yet).
 */
export function installedCordis(home: string): Record<string, string | undefined> {
  const found: Record<string, string | undefined> = {}
  for (const name of Object.keys(CORDIS_PINS)) {
    try {
      found[name] = (JSON.parse(readFileSync(join(home, 'profiles', 'node_modules', name, 'package.json'), 'utf8')) as { version?: string }).version
    } catch {
      found[name] = undefined
    }
  }
  return found
}
