/**
 * Which session logs a path names: a `session.jsonl.zstd` file itself, every one under a folder, or, for a DSH home
 * (a folder with a `sessions/` folder), every one under its `sessions/`. Sorted by path, so reports are stable. A
 * folder without any is no error here: the caller says so and reads the others. A path that names nothing is a
 * {@link NoSuchPathError}; what it means for a command (bad input, exit 2) is the command's business.
 * @module dsh-brake/session-logs/find
 */
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { FileError } from '../errors/file-errors.js'

/** The name DSH gives every session log. */
export const SESSION_LOG_NAME = 'session.jsonl.zstd'

/** A path that names no file or folder; the message names the path. */
export class NoSuchPathError extends FileError {
  constructor(path: string) {
    super(path, 'no such file or folder', `\`${path}\``)
  }
}

/** The session logs under `path` (none when there are none). @throws NoSuchPathError when there is no such path. */
export function sessionFiles(path: string): string[] {
  return [...walkSessionFiles(path)]
}

/**
 * The session logs under `path`, one at a time, in the same order as {@link sessionFiles}: only the folder being
 * walked is listed in memory, so an archive of any size is not held as a list of paths.
 * @throws NoSuchPathError when there is no such path (at once, before the first log).
 */
export function walkSessionFiles(path: string): Iterable<string> {
  const kind = kindOf(path)
  if (kind === undefined) throw new NoSuchPathError(path)
  if (kind === 'file') return [path]
  const root = kindOf(join(path, 'sessions')) === 'folder' ? join(path, 'sessions') : path
  return walk(root)
}

/** Every session log under `folder`, each folder's entries in order (a file before a folder of the same name). */
function* walk(folder: string): Generator<string> {
  const entries = readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  for (const entry of entries) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else if (entry.name === SESSION_LOG_NAME) yield path
  }
}

function kindOf(path: string): 'file' | 'folder' | undefined {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file'
  } catch {
    return undefined
  }
}
