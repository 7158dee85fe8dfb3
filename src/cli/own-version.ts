/**
 * This command's own package version, read from the package.json above the running file: the same answer built
 * (`dist/cli/main.js`), installed in a profile, or run from the sources.
 * @module dsh-brake/cli/own-version
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The version of the dsh-brake package this file belongs to, if its package.json is found. */
export function ownVersion(): string | undefined {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    if (!existsSync(file)) continue
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
    if (manifest.name === 'dsh-brake') return manifest.version
  }
  return undefined
}
