/**
 * The state of each file an agent edits, as far as its edits show it: a fingerprint that comes back when the file does,
 * so a debug print inserted, deleted and inserted again at the same place is known without seeing the file. An edit the
 * brake cannot read gives a state never met again.
 * Design: docs/design.md#progress-that-was-not-real
 * @module dsh-brake/core/file-states
 */
import { touch } from './bounded-map.js'
import { ANY_FILE, type FileEdit } from './file-edits.js'
import { fingerprint } from './fingerprint.js'
import { escapeRegExp } from './patterns.js'
import type { Mutable } from './types.js'

/** The state of a file as the agent found it (or as committed, after a `git checkout` of it). */
export const ORIGINAL = 0
/** Files whose state is kept, least recently edited forgotten first. */
export const MAX_FILES = 64
/** Changes kept on top of a file's content. */
export const MAX_CHANGES = 32
/** States remembered per file, latest first kept. */
export const MAX_VISITS = 8

/** States are sums of fingerprints taken modulo 2⁵², which keeps every sum exact in a double. */
const MODULUS = 2 ** 52

/** One stay of a file in a state: when it ended (Infinity while it lasts), and what the detector noted of it. */
export interface Visit {
  readonly state: number
  /** The call that moved the file on; Infinity while the file is in this state. */
  leftAt: number
  /** What the first check after the file entered the state showed (a failure's fingerprint, or a pass); set by the caller. */
  outcome: number | undefined
}

/** A file that moved to another state: its new visit, and the visit of an earlier stay in that same state, if any. */
export interface Move {
  readonly file: string
  readonly entered: Visit
  readonly before: Visit | undefined
}

interface Change {
  /** Fingerprint of the change, and of the change that would undo it (-1: none known). */
  readonly id: number
  readonly undo: number
  /** An inserted line's text and line number, so that a deletion can find it. */
  readonly text: string | undefined
  readonly line: number | undefined
}

interface FileState {
  base: number
  changes: Change[]
  visits: Visit[]
}

/** The states of an agent's files. */
export interface FileStates {
  /** Apply an edit made at call `at`; returns the files that moved to another state. */
  apply(edit: FileEdit, at: number): Move[]
  /** The state `file` is in now (its latest visit), if it is remembered. */
  current(file: string): Visit | undefined
  clear(): void
  /** Files remembered now. */
  readonly size: number
}

/** Create the file states of one agent. */
export function createFileStates(): FileStates {
  const files = new Map<string, FileState>()
  // Gives each edit that cannot be read a state of its own.
  let unseen = 0

  const stateOf = (file: FileState): number => file.changes.reduce((sum, change) => (sum + change.id) % MODULUS, file.base)
  const fresh = (): FileState => ({ base: ORIGINAL, changes: [], visits: [{ state: ORIGINAL, leftAt: Infinity, outcome: undefined }] })

  function change(file: FileState, edit: FileEdit): void {
    switch (edit.kind) {
      case 'content':
        file.base = edit.content % MODULUS
        file.changes = []
        return
      case 'restore':
        file.base = ORIGINAL
        file.changes = []
        return
      case 'replace': {
        const id = fingerprint(`r\u0000${edit.old}\u0000${edit.new}`) % MODULUS
        const undone = file.changes.findLastIndex(other => other.undo === id)
        if (undone === -1) file.changes.push({ id, undo: fingerprint(`r\u0000${edit.new}\u0000${edit.old}`) % MODULUS, text: undefined, line: undefined })
        else file.changes.splice(undone, 1)
        break
      }
      case 'insert':
        file.changes.push({ id: fingerprint(`i\u0000${edit.text}`) % MODULUS, undo: -1, text: edit.text, line: edit.line })
        break
      case 'delete': {
        const before = file.changes.length
        if (edit.pattern === undefined) {
          // A line number takes one line: the latest inserted there.
          const at = file.changes.findLastIndex(other => other.text !== undefined && other.line !== undefined && other.line === edit.line)
          if (at !== -1) file.changes.splice(at, 1)
        } else {
          const matches = lineMatcher(edit.pattern)
          file.changes = file.changes.filter(other => other.text === undefined || !matches(other.text))
        }
        // Deleting lines the agent did not insert (as far as the brake saw) changes the file in a way not known.
        if (file.changes.length === before) unknown(file)
        break
      }
      case 'other':
        unknown(file)
        return
    }
    if (file.changes.length > MAX_CHANGES) unknown(file)
  }

  function unknown(file: FileState): void {
    file.base = fingerprint(`\u0000unseen ${++unseen}`) % MODULUS
    file.changes = []
  }

  function move(name: string, file: FileState, at: number, edit: FileEdit): Move | undefined {
    const from = stateOf(file)
    change(file, edit)
    const to = stateOf(file)
    if (to === from) return undefined
    file.visits[file.visits.length - 1]!.leftAt = at
    const before = file.visits.findLast(visit => visit.state === to)
    const entered: Visit = { state: to, leftAt: Infinity, outcome: undefined }
    file.visits.push(entered)
    if (file.visits.length > MAX_VISITS) file.visits.shift()
    return { file: name, entered, before }
  }

  // `size` a field, not a getter (see `Mutable`).
  const states: Mutable<FileStates> = {
    apply(edit, at) {
      if (edit.file === ANY_FILE) {
        return [...files].flatMap(([name, file]) => move(name, file, at, { ...edit, file: name }) ?? [])
      }
      const moved = move(edit.file, touch(files, keyOf(edit.file), MAX_FILES, fresh), at, edit)
      states.size = files.size
      return moved === undefined ? [] : [moved]
    },
    current(file) {
      return files.get(keyOf(file))?.visits.at(-1)
    },
    clear() {
      files.clear()
      states.size = 0
    },
    size: 0,
  }
  return states
}

/** A file's name as a key: `./src/a.py` and `src/a.py` are one file (an absolute path is kept as written). */
function keyOf(file: string): string {
  return file.replace(/^(?:\.\/)+/, '')
}

/**
 * A test of a line against a sed address pattern (a basic regular expression): `.`, `*`, `^`, `$` and bracket
 * classes as sed reads them, every other character as itself; groups and intervals are left out, so no pattern can
 * nest repetitions (the text it is tried on is at most a few hundred characters). A pattern that still does not
 * compile is matched as plain text.
 */
function lineMatcher(pattern: string): (line: string) => boolean {
  let source = ''
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at]!
    if (char === '\\') {
      const next = pattern[++at] ?? ''
      if (!'(){}|+?'.includes(next)) source += escapeRegExp(next)
    } else if (char === '[') {
      const close = pattern.indexOf(']', at + 2)
      if (close === -1) {
        source += '\\['
      } else {
        source += `[${pattern.slice(at + 1, close).replace(/[\\\]]/g, '\\$&')}]`
        at = close
      }
    } else {
      source += char === '.' || char === '^' || char === '$' || (char === '*' && at > 0) ? char : escapeRegExp(char)
    }
  }
  try {
    const regex = new RegExp(source)
    return line => regex.test(line)
  } catch {
    return line => line.includes(pattern)
  }
}
