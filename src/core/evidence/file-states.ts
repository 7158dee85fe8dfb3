/**
 * The state of each file an agent edits, as far as its edits show it: a fingerprint that comes back when the file does,
 * so a debug print inserted, deleted and inserted again at the same place is known without seeing the file. An edit the
 * brake cannot read gives a state never met again.
 * Design: docs/design.md#progress-that-was-not-real
 * @module dsh-brake/core/evidence/file-states
 */
import { touch } from '../tables/bounded-map.js'
import { ANY_FILE, type FileEdit } from './file-edits.js'
import { fingerprint } from '../tables/fingerprint.js'
import { escapeRegExp } from '../identity/patterns.js'
import type { Mutable } from '../types.js'

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
  /** The edit that brought the file into the state, as a fingerprint: the same edit made again gives the same one. */
  readonly by: number
  /** The state the file was in before: an edit made again leaves the state it left then. */
  readonly from: number
}

/** Hears a file that moved to another state: its new visit, and the visit of an earlier stay in that same state, if any. */
export type OnMove = (file: string, entered: Visit, before: Visit | undefined) => void

interface Change {
  /** Fingerprint of the change. */
  readonly id: number
  /** A replacement's text before and after (fingerprints), so that the replacement back can find it. */
  readonly old: number | undefined
  readonly new: number | undefined
  /** An inserted line's text and line number, so that a deletion can find it. */
  readonly text: string | undefined
  readonly line: number | undefined
}

interface FileState {
  base: number
  /** Emptied in place (a write, a restore, an edit whose effect is not known): nothing else holds it. */
  changes: Change[]
  /** The latest last: its state is the file's now. */
  visits: Visit[]
}

/** The states of an agent's files. */
export interface FileStates {
  /** Apply an edit made at call `at`; `onMove` hears each file that moved to another state. */
  apply(edit: FileEdit, at: number, onMove: OnMove): void
  /** The state `file` is in now (its latest visit), if it is remembered. */
  current(file: string): Visit | undefined
  clear(): void
  /** Files remembered now. */
  readonly size: number
  /** The most visits and changes any one file holds now (for the bound checks in the tests). */
  largest(): { readonly visits: number; readonly changes: number }
}

/** Create the file states of one agent. */
export function createFileStates(): FileStates {
  const files = new Map<string, FileState>()
  // Gives each edit that cannot be read a state, and a key, of its own.
  let unseen = 0

  function move(name: string, file: FileState, at: number, edit: FileEdit, onMove: OnMove): void {
    const { visits } = file
    const latest = visits[visits.length - 1]!
    if (applyEdit(file, edit)) {
      // Changed in a way not known: a state never met again.
      file.base = fingerprint(`\u0000unseen ${++unseen}`) % MODULUS
      file.changes.length = 0
    }
    const to = stateOf(file)
    if (to === latest.state) return
    latest.leftAt = at
    const before = earlierVisit(visits, to)
    const entered: Visit = new FileVisit(to, editKey(edit, ++unseen), latest.state)
    visits.push(entered)
    if (visits.length > MAX_VISITS) visits.shift()
    onMove(name, entered, before)
  }

  // `size` a field, not a getter (see `Mutable`).
  const states: Mutable<FileStates> = {
    apply(edit, at, onMove) {
      if (edit.file === ANY_FILE) {
        // An edit's file is its key here: `change` reads what was done, not where.
        for (const [name, file] of files) move(name, file, at, edit, onMove)
        return
      }
      // A copy is the content its source has now: a backup copied back is the file as it was backed up.
      const applied = edit.kind === 'copy' ? copied(edit.from, edit.file, files.get(keyOf(edit.from))) : edit
      move(edit.file, touch(files, keyOf(edit.file), MAX_FILES, fresh), at, applied, onMove)
      states.size = files.size
    },
    current(file) {
      return files.get(keyOf(file))?.visits.at(-1)
    },
    clear() {
      files.clear()
      states.size = 0
    },
    largest() {
      let visits = 0
      let changes = 0
      for (const file of files.values()) {
        visits = Math.max(visits, file.visits.length)
        changes = Math.max(changes, file.changes.length)
      }
      return { visits, changes }
    },
    size: 0,
  }
  return states
}

/**
 * A copy of `from` (in `source`'s state, if remembered) onto `file`, as the content it writes. A source never edited is
 * in its own original state, which is `file`'s original state when it is a backup of `file` copied back.
 */
function copied(from: string, file: string, source: FileState | undefined): FileEdit {
  const state = source === undefined || stateOf(source) === ORIGINAL ? originalOf(from) : stateOf(source)
  return { file, kind: 'content', content: state === originalOf(file) ? ORIGINAL : state }
}

/** The original state of the file `name`, as another file holds it once copied there. */
function originalOf(name: string): number {
  return fingerprint(`\u0000original ${keyOf(name)}`) % MODULUS
}

/**
 * A visit, as a class: its objects keep one shape when a field first holds a fingerprint rather than a small number,
 * where each object of a literal was reshaped on its first use after that.
 */
class FileVisit implements Visit {
  readonly state: number
  leftAt = Infinity
  outcome: number | undefined = undefined
  readonly by: number
  readonly from: number

  constructor(state: number, by: number, from: number) {
    this.state = state
    this.by = by
    this.from = from
  }
}

/** A file's state, a class for the same reason as {@link FileVisit}. */
class FileEntry implements FileState {
  base = ORIGINAL
  changes: Change[] = []
  visits: Visit[] = [new FileVisit(ORIGINAL, ORIGINAL, ORIGINAL)]
}

/** A file not yet edited, as far as the brake saw. */
function fresh(): FileState {
  return new FileEntry()
}

/**
 * Apply `fileEdit` to `file`'s changes; true when it leaves the file in a state the brake cannot know (the caller then
 * gives the file a state of its own). A function of the module, not a closure: it is made once, not for every agent.
 */
function applyEdit(file: FileState, fileEdit: FileEdit): boolean {
  switch (fileEdit.kind) {
    case 'content':
      file.base = fileEdit.content % MODULUS
      file.changes.length = 0
      return false
    case 'restore':
      file.base = ORIGINAL
      file.changes.length = 0
      return false
    case 'replace': {
      const undone = file.changes.findLastIndex(other => other.old === fileEdit.new && other.new === fileEdit.old)
      if (undone !== -1) file.changes.splice(undone, 1)
      else file.changes.push({ id: fingerprint(`r\u0000${fileEdit.old}\u0000${fileEdit.new}`) % MODULUS, old: fileEdit.old, new: fileEdit.new, text: undefined, line: undefined })
      break
    }
    case 'insert':
      file.changes.push({ id: fingerprint(`i\u0000${fileEdit.text}`) % MODULUS, old: undefined, new: undefined, text: fileEdit.text, line: fileEdit.line })
      break
    case 'delete': {
      const before = file.changes.length
      if (fileEdit.pattern === undefined) {
        // A line number takes one line: the latest inserted there.
        const at = file.changes.findLastIndex(other => other.text !== undefined && other.line !== undefined && other.line === fileEdit.line)
        if (at !== -1) file.changes.splice(at, 1)
      } else {
        const matches = lineMatcher(fileEdit.pattern)
        file.changes = file.changes.filter(other => other.text === undefined || !matches(other.text))
      }
      // Deleting lines the agent did not insert (as far as the brake saw) changes the file in a way not known.
      if (file.changes.length === before) return true
      break
    }
    case 'other':
    // Made a content by `apply` before it comes here; one that does not is a change not known.
    case 'copy':
      return true
  }
  return file.changes.length > MAX_CHANGES
}

/**
 * An edit as a fingerprint: the same edit of the same file, made again, gives the same one; one not read, a new one
 * (`unread`, a number the agent's file states never gave before).
 */
function editKey(edit: FileEdit, unread: number): number {
  switch (edit.kind) {
    case 'content': return fingerprint(`c\u0000${edit.content}`)
    case 'replace': return fingerprint(`r\u0000${edit.old}\u0000${edit.new}`)
    case 'insert': return fingerprint(`i\u0000${edit.line}\u0000${edit.text}`)
    case 'delete': return fingerprint(`d\u0000${edit.line}\u0000${edit.pattern}`)
    case 'restore': return ORIGINAL
    case 'copy': case 'other': return fingerprint(`\u0000unread ${unread}`)
  }
}

/** The state a file's changes bring it to: its base, plus each change, modulo {@link MODULUS}. */
function stateOf(file: FileState): number {
  let state = file.base
  for (const change of file.changes) state = (state + change.id) % MODULUS
  return state
}

/** The latest of `visits` in `state`, if any. */
function earlierVisit(visits: readonly Visit[], state: number): Visit | undefined {
  for (let at = visits.length - 1; at >= 0; at--) if (visits[at]!.state === state) return visits[at]
  return undefined
}

/** A file's name as a key: `./src/a.py` and `src/a.py` are one file (an absolute path is kept as written). */
function keyOf(file: string): string {
  return file.startsWith('./') ? file.replace(/^(?:\.\/)+/, '') : file
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
