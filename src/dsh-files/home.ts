/**
 * Where DSH keeps a user's profiles, as DSH itself finds them: the home is `$DSH_HOME` when it is set and not blank
 * (a leading `~` meaning the user's home folder), else `~/.dsh`; a profile is the folder `profiles/<name>` in it,
 * holding a `package.json` whose `dsh.profile.bundles` lists the bundles it loads, `node_modules`, and the user's own
 * patch file `cordis.patch.yml`. The home may hold a `cordis.patch.yml` of its own, applied to every profile.
 * @module dsh-brake/dsh-files/home
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/** The DSH home for this environment, and how it was chosen (for messages). */
export function dshHome(env: Readonly<Record<string, string | undefined>>, home = homedir()): { dir: string; from: string } {
  const set = env['DSH_HOME']
  if (set === undefined || set.trim() === '') return { dir: join(home, '.dsh'), from: 'the default, as DSH_HOME is not set' }
  const expanded = set === '~' ? home : set.startsWith('~/') || set.startsWith('~\\') ? join(home, set.slice(2)) : set
  return { dir: resolve(expanded), from: 'DSH_HOME' }
}

/** A profile's manifest, as far as the doctor reads it. */
export interface ProfileManifest {
  readonly dependencies?: Readonly<Record<string, string>>
  readonly dsh?: { readonly profile?: { readonly bundles?: readonly string[] } }
}

/** A profile folder under the home. */
export function profileDir(home: string, name: string): string {
  return join(home, 'profiles', name)
}

/** The profile's manifest, or why it cannot be read. */
export function readManifest(dir: string): ProfileManifest | { error: string } {
  const file = join(dir, 'package.json')
  if (!existsSync(file)) return { error: `${file} does not exist` }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ProfileManifest
  } catch (error) {
    return { error: `${file} is not valid JSON: ${(error as Error).message}` }
  }
}

/** The names of the profiles under the home whose manifest mentions `plugin` (as a bundle or a dependency). */
export function profilesWith(home: string, plugin: string): string[] {
  const root = join(home, 'profiles')
  if (!existsSync(root)) return []
  return readdirSync(root, { withFileTypes: true })
    .filter(entry => entry.isDirectory() && entry.name !== 'node_modules')
    .map(entry => entry.name)
    .filter((name) => {
      const manifest = readManifest(join(root, name))
      return !('error' in manifest)
        && (manifest.dsh?.profile?.bundles?.includes(plugin) === true || manifest.dependencies?.[plugin] !== undefined)
    })
    .sort()
}
