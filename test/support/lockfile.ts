/**
 * Reading package-lock.json the way npm decides what to install: which packages a dependency reaches (Node's lookup
 * through nested node_modules folders), which of them are required, and which an install on a given platform keeps.
 * npm's `--os`/`--cpu` flags only filter optional packages; a required package tied to one platform shows only in its
 * own `os`/`cpu`, which the lockfile copies into its entry.
 */

/** One `packages` entry of a lockfile (v3), as far as these questions need it. */
export interface LockEntry {
  readonly name?: string
  readonly link?: boolean
  readonly resolved?: string
  readonly optional?: boolean
  readonly os?: string | readonly string[]
  readonly cpu?: string | readonly string[]
  readonly dependencies?: Readonly<Record<string, string>>
  readonly devDependencies?: Readonly<Record<string, string>>
  readonly optionalDependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
  readonly peerDependenciesMeta?: Readonly<Record<string, { optional?: boolean }>>
}

export interface Lockfile {
  readonly packages: Readonly<Record<string, LockEntry>>
}

export interface Platform {
  readonly os: string
  readonly cpu: string
}

/** Where `name`, needed by the package at `from`, is found: its own node_modules first, then each parent's. */
function locate(lock: Lockfile, from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.includes('/node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`
    if (lock.packages[candidate] !== undefined) return candidate
    if (dir === '') return undefined
  }
}

/** A link entry stands for the folder it points at, whose own entry lists the dependencies. */
function target(lock: Lockfile, location: string): string {
  const entry = lock.packages[location]
  return entry?.link === true && entry.resolved !== undefined ? entry.resolved : location
}

/** Whether an `os`/`cpu` field allows `value` (a list of names, `!name` excluding one; absent allows all). */
function allows(field: string | readonly string[] | undefined, value: string): boolean {
  if (field === undefined) return true
  const list = typeof field === 'string' ? [field] : field
  if (list.includes(`!${value}`)) return false
  const positive = list.filter(item => !item.startsWith('!'))
  return positive.length === 0 || positive.includes(value)
}

/** Whether a lockfile entry is tied to some platforms only. */
export function platformBound(entry: LockEntry): boolean {
  return entry.os !== undefined || entry.cpu !== undefined
}

/**
 * The lockfile locations an install reaches from the root: dependencies and devDependencies, then each package's
 * dependencies and required peers, and, when `platform` is given, optional dependencies that fit it (npm skips the
 * others, and what only they need).
 */
export function reached(lock: Lockfile, platform?: Platform): Set<string> {
  const seen = new Set<string>()
  const visit = (location: string): void => {
    const at = target(lock, location)
    if (seen.has(location)) return
    seen.add(location)
    const entry = lock.packages[at]
    if (entry === undefined) return
    const names = [
      ...Object.keys(entry.dependencies ?? {}),
      ...at === '' ? Object.keys(entry.devDependencies ?? {}) : [],
      ...Object.keys(entry.peerDependencies ?? {}).filter(name => entry.peerDependenciesMeta?.[name]?.optional !== true),
    ]
    for (const name of names) {
      const found = locate(lock, at, name)
      if (found !== undefined) visit(found)
    }
    if (platform === undefined) return
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      const found = locate(lock, at, name)
      const optional = found === undefined ? undefined : lock.packages[found]
      const fits = optional !== undefined && allows(optional.os, platform.os) && allows(optional.cpu, platform.cpu)
      if (found !== undefined && fits) visit(found)
    }
  }
  visit('')
  seen.delete('')
  return seen
}
