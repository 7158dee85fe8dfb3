/**
 * Which session logs a path names: a `session.jsonl.zstd` file itself, every one under a folder, or, for a DSH home
 * (a folder with a `sessions/` folder), every one under its `sessions/`. Sorted by path, so reports are stable.
 * @module dsh-brake/dsh-files/session-files
 */
import { readdirSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { UsageError } from '../usage-error.js'

/** The name DSH gives every session log. */
export const SESSION_LOG_NAME = 'session.jsonl.zstd'

/** The session logs under `path`. @throws UsageError when there is no such path, or no log under it. */
export function sessionFiles(path: string): string[] {
  const kind = kindOf(path)
  if (kind === undefined) throw new UsageError(`\`${path}\`: no such file or folder`)
  if (kind === 'file') return [path]
  const root = kindOf(join(path, 'sessions')) === 'folder' ? join(path, 'sessions') : path
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter(entry => basename(entry) === SESSION_LOG_NAME)
    .map(entry => join(root, entry))
    .sort()
  if (files.length === 0) throw new UsageError(`\`${path}\`: no session logs (${SESSION_LOG_NAME}) under it`)
  return files
}

function kindOf(path: string): 'file' | 'folder' | undefined {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file'
  } catch {
    return undefined
  }
}
