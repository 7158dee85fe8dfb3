/**
 * What a run keeps of the sessions it will report in detail, kept on disk instead of in memory: each agent's analysis
 * written once as a line of JSON to a temporary file, and read back by its place when a report gets to it. So a run
 * over a year of sessions holds a few numbers per session, whatever the share of them that looped. The file goes when
 * the process ends.
 * @module dsh-brake/analyze/spill
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where a record lies in the file. */
export interface Place {
  readonly offset: number
  readonly length: number
}

/** A file of records: put one, get it back by its place. */
export interface Spill<T> {
  put(record: T): Place
  get(place: Place): T
}

/** The spills this process made, closed and removed when it exits (one listener serves them all). */
const made: { readonly folder: string; readonly fd: number }[] = []

function removeAll(): void {
  for (const { folder, fd } of made) {
    closeSync(fd)
    rmSync(folder, { recursive: true, force: true })
  }
}

/** A new spill, in a folder of its own under the system's temporary folder. */
export function createSpill<T>(): Spill<T> {
  if (made.length === 0) process.once('exit', removeAll)
  const folder = mkdtempSync(join(tmpdir(), 'dsh-brake-analyze-'))
  const fd = openSync(join(folder, 'agents.jsonl'), 'w+')
  made.push({ folder, fd })
  let end = 0
  return {
    put(record) {
      const bytes = Buffer.from(`${JSON.stringify(record)}\n`)
      writeSync(fd, bytes, 0, bytes.length, end)
      const place = { offset: end, length: bytes.length }
      end += bytes.length
      return place
    },
    get({ offset, length }) {
      const bytes = Buffer.allocUnsafe(length)
      readSync(fd, bytes, 0, length, offset)
      return JSON.parse(bytes.toString('utf8')) as T
    },
  }
}
