/**
 * Which session logs a run reads: those under the paths given (a log, a folder of them, or a DSH home), or under the
 * DSH home when none is given, as `dsh-brake doctor` reads it; then, when asked, only those since a date, of a
 * project, or the last N sessions. A folder with no log in it is a warning, and the others are still read.
 *
 * "Sessions" are top-level sessions: a subagent's log comes with the session that delegated to it. Recency is the
 * log's last write (a session's last activity); a project is the session's working directory, or one under it.
 * @module dsh-brake/session-logs/select
 */
import { existsSync, statSync } from 'node:fs'
import { resolve, sep } from 'node:path'
import { dshHome } from '../dsh-files/home.js'
import { readSessionHeader } from './decode.js'
import { SESSION_LOG_NAME, walkSessionFiles } from './find.js'
import { rootSession } from './root-session.js'

/** How to narrow the logs down. */
export interface Selection {
  /** Only the most recent N sessions (with their subagents). */
  readonly last?: number
  /** Only sessions written to since this time. */
  readonly since?: Date
  /** Only sessions whose working directory is this one or under it. */
  readonly project?: string
}

/** The logs to read, in path order, how many, and what a person should know about the paths. */
export interface Selected {
  /** Walked as they are read when nothing narrows them down: an archive is not held as a list of paths. */
  readonly files: Iterable<string>
  /** How many, when they were counted (a walk that keeps nothing, for a progress line); undefined when not. */
  readonly count: number | undefined
  /** Complete once `files` has been walked: a folder without logs is only known then, when they are not counted. */
  readonly warnings: string[]
}

/** How the logs are walked: counted first (for a progress line) or not, and the environment that names the DSH home. */
export interface Walking {
  readonly count?: boolean
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** The logs under `paths` (or the DSH home), narrowed by `selection`. @throws NoSuchPathError for a path that does not exist. */
export function selectLogs(paths: readonly string[], selection: Selection, walking: Walking = {}): Selected {
  const { count: counted = true, env = process.env } = walking
  const warnings: string[] = []
  let roots = paths
  if (roots.length === 0) {
    const home = dshHome(env)
    roots = [home.dir]
    if (!existsSync(home.dir)) return { files: [], count: 0, warnings: [`the DSH home ${home.dir} (${home.from}) does not exist: give a session log, a folder of them, or a DSH home`] }
  }
  const narrowed = selection.last !== undefined || selection.since !== undefined || selection.project !== undefined
  if (!counted && !narrowed && roots.length === 1) {
    // One walk, as the logs are read; a folder without any is noted when the walk ends.
    const path = roots[0]!
    const walk = walkSessionFiles(path)
    const files = (function* () {
      let found = 0
      for (const file of walk) {
        found++
        yield file
      }
      if (found === 0) warnings.push(noLogs(path))
    })()
    return { files, count: undefined, warnings }
  }
  // Counted first (a walk that keeps nothing), so a folder without logs is named and the progress line knows the total.
  let count = 0
  for (const path of roots) {
    let found = 0
    for (const _ of walkSessionFiles(path)) found++
    if (found === 0) warnings.push(noLogs(path))
    count += found
  }
  const walked = (function* () {
    for (const path of roots) yield* walkSessionFiles(path)
  })()
  if (!narrowed && roots.length === 1) return { files: walked, count, warnings }
  // Several paths may name the same logs; narrowing reads them all first.
  const files = narrow([...new Set(walked)].sort(), selection)
  return { files, count: files.length, warnings }
}

function noLogs(path: string): string {
  return `\`${path}\`: no session logs (${SESSION_LOG_NAME}) under it`
}

function narrow(files: readonly string[], { last, since, project }: Selection): string[] {
  if (last === undefined && since === undefined && project === undefined) return [...files]
  const written = new Map(files.map(file => [file, statSync(file).mtimeMs]))
  const headers = new Map(files.map(file => [file, readSessionHeader(file)]))
  const inProject = (file: string): boolean => {
    const cwd = headers.get(file)?.cwd
    if (project === undefined) return true
    const dir = resolve(project)
    return cwd !== undefined && (cwd === dir || cwd.startsWith(dir.endsWith(sep) ? dir : dir + sep))
  }
  // Top-level sessions are chosen; a subagent's log follows the session it was delegated from.
  const byId = new Map<string, string>()
  for (const [file, header] of headers) if (header !== undefined) byId.set(header.id, file)
  const rootOf = (file: string): string => rootSession(file, (at) => {
    const header = headers.get(at)
    return header?.origin === 'subagent' && header.parentSession !== undefined ? byId.get(header.parentSession) : undefined
  })
  let roots = files.filter(file => rootOf(file) === file)
    .filter(file => since === undefined || written.get(file)! >= since.getTime())
    .filter(inProject)
  if (last !== undefined) roots = [...roots].sort((a, b) => written.get(b)! - written.get(a)!).slice(0, last)
  const chosen = new Set(roots)
  return files.filter(file => chosen.has(rootOf(file)))
}

