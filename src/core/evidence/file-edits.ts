/**
 * What an edit did to the files, as far as the call shows it (a file tool's text, the shell edits the command line
 * shows), for two questions: which file an edit aimed at, and what state a file is in. Nothing is run: a script or a
 * patch changes files the call does not name.
 * Design: docs/design.md#progress-that-was-not-real
 * @module dsh-brake/core/evidence/file-edits
 */
import { fingerprint } from '../tables/fingerprint.js'
import { commandWords, simpleCommands, type SimpleCommand } from '../identity/shell-command.js'

/** Stands for every file an edit may have changed without naming it (a patch, `git stash`). */
export const ANY_FILE = '*'

/**
 * What one edit did to one file. `probe`: the edit only adds, changes or removes a debug print (instrumentation to
 * watch what the code does, not an attempt to change it).
 */
export type FileEdit =
  /** Wrote the whole content (its fingerprint); an `rm` writes {@link ABSENT}. */
  | { readonly file: string; readonly kind: 'content'; readonly content: number }
  /** Replaced one text by another (fingerprints), as a file tool or a `sed s/old/new/` does. */
  | { readonly file: string; readonly kind: 'replace'; readonly old: number; readonly new: number; readonly probe?: true }
  /** Inserted a line or block (its beginning, at most {@link TEXT_CHARS}), at a line number when the edit gave one. */
  | { readonly file: string; readonly kind: 'insert'; readonly text: string; readonly line: number | undefined; readonly probe?: true }
  /** Deleted lines: at a line number, or those matching a pattern. */
  | { readonly file: string; readonly kind: 'delete'; readonly line: number | undefined; readonly pattern: string | undefined; readonly probe?: true }
  /** Went back to the committed version (`git checkout -- file`, `git stash`). */
  | { readonly file: string; readonly kind: 'restore' }
  /** Became what another file is now (`cp`, `mv`): a backup copied back is the file as it was when backed up. */
  | { readonly file: string; readonly kind: 'copy'; readonly from: string }
  /**
   * Changed it in a way the call does not show. `log`: a program's output captured into the file (`> run.log`,
   * `| tee run.log`): a record of a run, not a change to what runs.
   */
  | { readonly file: string; readonly kind: 'other'; readonly log?: true }

/** The content of a file that is not there. */
export const ABSENT = fingerprint('\u0000absent')
/** Characters of an inserted text kept (a deletion by pattern is matched against them). */
export const TEXT_CHARS = 400
/** Edits read from one call, at most: a command line editing more files than this is taken as editing any file. */
export const MAX_EDITS = 16

/** Where a file tool's arguments say what it changes (a tool policy's `edits`). */
export interface EditFields {
  /** The argument naming the file. */
  readonly file: string
  /** The argument holding the whole new content, when the tool writes files whole. */
  readonly content?: string
  /** The arguments holding the replaced text and its replacement; a replacement without the replaced text inserts. */
  readonly old?: string
  readonly new?: string
}

/** The edits of a file tool's call, read from its arguments as `fields` say; any other change of the file is `other`. */
export function toolEdits(fields: EditFields, args: unknown): FileEdit[] {
  if (typeof args !== 'object' || args === null) return [{ file: ANY_FILE, kind: 'other' }]
  const values = args as Readonly<Record<string, unknown>>
  const file = textField(values, fields.file)
  if (file === undefined) return [{ file: ANY_FILE, kind: 'other' }]
  const content = textField(values, fields.content)
  if (content !== undefined) return [{ file, kind: 'content', content: fingerprint(content) }]
  const old = textField(values, fields.old)
  const replacement = textField(values, fields.new)
  if (old !== undefined && replacement !== undefined) {
    return [{ file, kind: 'replace', old: fingerprint(old), new: fingerprint(replacement), ...probed(probeChange(old, replacement)) }]
  }
  if (replacement !== undefined) return [{ file, kind: 'insert', text: replacement.slice(0, TEXT_CHARS), line: undefined, ...probed(isProbe(replacement)) }]
  return [{ file, kind: 'other' }]
}

/**
 * The text argument `field` names, if it names one and it is text. A function of its own rather than a closure over the
 * arguments, which every file tool's call would make.
 */
function textField(values: Readonly<Record<string, unknown>>, field: string | undefined): string | undefined {
  const value = field === undefined ? undefined : values[field]
  return typeof value === 'string' ? value : undefined
}

/**
 * The edits a shell command line shows, in order. Only called for a command that changes files: one whose change
 * cannot be read (`python fix.py > out.txt` aside, which writes out.txt) is an `other` edit of {@link ANY_FILE}.
 */
export function shellEdits(command: string): FileEdit[] {
  return simpleCommandEdits(simpleCommands(command))
}

/** The edits a command line shows, from its simple commands as already read (see {@link shellEdits}). */
export function simpleCommandEdits(commands: readonly SimpleCommand[]): FileEdit[] {
  const edits: FileEdit[] = []
  let fed = false
  for (const simple of commands) {
    const words = commandWords(simple.words)
    if (simple.writes.length > 0) edits.push(...redirectEdits(simple, words))
    edits.push(...commandEdits(words, fed))
    // What the next command reads through a pipe: a program's output, or text a command gives as it is.
    fed = simple.bodies.length === 0 && !TEXT_TOOLS.has(words[0] ?? '')
    if (edits.length > MAX_EDITS) return [{ file: ANY_FILE, kind: 'other' }]
  }
  return edits
}

/**
 * The files a simple command's output goes into: written whole from a heredoc, `echo` or `printf` (the same words give
 * the same content, whatever they expand to), else changed unseen. `words` are its command words (its wrappers
 * stripped).
 */
function redirectEdits(simple: SimpleCommand, words: readonly string[]): FileEdit[] {
  const shown = simple.bodies[0] ?? printed(words)
  return simple.writes.map((file): FileEdit => {
    // A log is a record of runs, whatever writes into it (`echo "run 3" >> run.log`).
    if (isLogFile(file)) return { file, kind: 'other', log: true }
    if (words.length > 1 && words[0] === 'cat') return { file, kind: 'other' }
    // A program's output captured (`python train.py > out.txt`): a log of its run; a text tool's, a file written unseen.
    if (shown === undefined) return TEXT_TOOLS.has(words[0] ?? '') ? { file, kind: 'other' } : { file, kind: 'other', log: true }
    return simple.appends.includes(file)
      ? { file, kind: 'insert', text: shown.slice(0, TEXT_CHARS), line: undefined }
      : { file, kind: 'content', content: fingerprint(shown) }
  })
}

/**
 * What an `echo` or `printf` prints, as far as its words show it: a plain `echo`'s words and line break; else the
 * command's own words (escapes and formats unexpanded, so one command always gives one content).
 */
function printed(words: readonly string[]): string | undefined {
  if (words[0] === 'echo' && !words.slice(1).some(word => word.startsWith('-'))) return `${words.slice(1).join(' ')}\n`
  if (words[0] === 'echo' || words[0] === 'printf') return `\u0000${words.join('\u0000')}`
  return undefined
}

/**
 * The edits a simple command's words show (its wrappers stripped); `fed`: whether what comes through a pipe into it is
 * a program's output.
 */
function commandEdits(words: readonly string[], fed: boolean): readonly FileEdit[] {
  switch (words[0]) {
    case 'sed': return sedEdits(words.slice(1))
    case 'git': return gitEdits(words.slice(1))
    case 'rm': return operandsOf(words).map(file => ({ file, kind: 'content', content: ABSENT }))
    case 'mv': {
      const operands = operandsOf(words)
      if (operands.length < 2) return NO_EDITS
      const moved = operands.slice(0, -1).map((file): FileEdit => ({ file, kind: 'content', content: ABSENT }))
      // One file renamed is that file under another name; several go into a folder.
      return operands.length === 2 ? [{ file: operands[1]!, kind: 'copy', from: operands[0]! }, ...moved] : [...moved, { file: operands.at(-1)!, kind: 'other' }]
    }
    case 'cp': {
      const operands = operandsOf(words)
      if (operands.length === 0) return NO_EDITS
      // One file copied onto another is that file's content there; several go into a folder.
      return operands.length === 2 ? [{ file: operands[1]!, kind: 'copy', from: operands[0]! }] : [{ file: operands.at(-1)!, kind: 'other' }]
    }
    // What comes through the pipe, captured as well as shown: a program's output, a log of its run; text given as it
    // is (`cat <<'EOF' | tee x.py`, `echo x | tee -a setup.cfg`), a file written.
    case 'tee': return operandsOf(words).filter(file => !file.startsWith('/dev/'))
      .map((file): FileEdit => fed || isLogFile(file) ? { file, kind: 'other', log: true } : { file, kind: 'other' })
    case 'ln': case 'touch': case 'truncate': case 'dd': {
      const operands = operandsOf(words)
      return operands.length === 0 ? NO_EDITS : [{ file: operands.at(-1)!, kind: 'other' }]
    }
    case 'perl': return words.some(word => /^-\w*i/.test(word)) ? operandsOf(words).slice(1).map(file => ({ file, kind: 'other' })) : NO_EDITS
    case 'patch': case 'unzip': case 'tar': return [{ file: ANY_FILE, kind: 'other' }]
    // Most simple commands of a line that changes files (`cd`, `python`, `cat` into a file) show no edit of their own.
    default: return NO_EDITS
  }
}

/**
 * Commands that give text as they are given it or as it already is (a heredoc, a file, a filter of them): what they
 * write into a file is that file's content, no record of a run.
 */
const TEXT_TOOLS = new Set(['cat', 'echo', 'printf', 'sed', 'awk', 'head', 'tail', 'sort', 'uniq', 'cut', 'tr', 'jq', 'base64', 'envsubst'])

/** A file named as a run's log (`train.log`, `nohup.out`, `run.log.1`): what goes there is a record of runs. */
function isLogFile(file: string): boolean {
  return /\.(?:log|out)(?:\.\d+)?$/i.test(file)
}

/** No edit: shared by every call and command that shows none (never written to). */
export const NO_EDITS: readonly FileEdit[] = Object.freeze([])

/** A simple command's operands: the words after its program that are not options. */
function operandsOf(words: readonly string[]): string[] {
  return words.filter((word, index) => index > 0 && !word.startsWith('-'))
}

/** Git commands that put files back as committed, or change files they do not name. */
function gitEdits(args: readonly string[]): FileEdit[] {
  const [command, ...rest] = args
  const operands = rest.filter(word => !word.startsWith('-'))
  switch (command) {
    case 'checkout': case 'restore': {
      // After `--` every operand is a file; before it, `git checkout main` names a branch: anything may change.
      const dashes = rest.indexOf('--')
      const files = dashes === -1 ? operands : rest.slice(dashes + 1)
      if (files.includes('.') || files.length === 0 || (dashes === -1 && files.some(file => !/[./]/.test(file)))) return [{ file: ANY_FILE, kind: command === 'restore' ? 'restore' : 'other' }]
      return files.map(file => ({ file, kind: 'restore' }))
    }
    case 'stash': return operands.length === 0 || operands[0] === 'push' || operands[0] === 'save'
      ? [{ file: ANY_FILE, kind: 'restore' }] : [{ file: ANY_FILE, kind: 'other' }]
    case 'reset': return rest.includes('--hard') ? [{ file: ANY_FILE, kind: 'restore' }] : []
    case 'rm': return operands.map(file => ({ file, kind: 'content', content: ABSENT }))
    case 'mv': return operands.length === 2 ? [{ file: operands[0]!, kind: 'content', content: ABSENT }, { file: operands[1]!, kind: 'other' }] : []
    case 'add': case 'commit': return []
    default: return [{ file: ANY_FILE, kind: 'other' }]
  }
}

/** A sed substitution's parts: `s` and its delimiter, the pattern, the replacement, the flags. */
const SUBSTITUTION = /^(?:\d+(?:,\d+)?|\/(?:[^/\\]|\\.)*\/)?\s*s(.)((?:(?!\1)[^\\]|\\.)*)\1((?:(?!\1)[^\\]|\\.)*)\1(\w*)$/s
/** A sed insertion: an address (a line, `$`, a pattern), `a` (after) or `i` (before), and the text. */
const INSERTION = /^(?:(\d+)|\$|\/((?:[^/\\]|\\.)*)\/)\s*([ai])\s*\\?(.*)$/s
/** Sed deletions: `12d`, `12,14d`, `$d`, `/pattern/d`, several joined by `;`. */
const DELETIONS = /^(?:\s*(?:\d+(?:,(?:\d+|\$))?|\$|\/(?:[^/\\]|\\.)*\/)\s*d\s*;?)+$/
const DELETION = /(\d+)(,(?:\d+|\$))?\s*d|\$\s*d|\/((?:[^/\\]|\\.)*)\/\s*d/g

/** The edits of a `sed` command (its arguments), if it edits in place: each script applied to each file. */
function sedEdits(args: readonly string[]): FileEdit[] {
  if (!args.some(word => word === '--in-place' || /^-[^-]*i/.test(word))) return []
  const scripts: string[] = []
  const files: string[] = []
  let unread = false
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!
    if (word === '-e' || word === '--expression') scripts.push(args[++at] ?? '')
    else if (word === '-f' || word === '--file') unread = args[++at] !== undefined
    else if (word.startsWith('-')) continue
    else if (scripts.length === 0 && !unread) scripts.push(word)
    else files.push(word)
  }
  const edits: FileEdit[] = []
  for (const file of files) {
    if (unread) edits.push({ file, kind: 'other' })
    for (const script of scripts) edits.push(...sedScriptEdits(file, script.trim()))
  }
  return edits
}

/** What one sed script does to `file`: a substitution, an insertion, deletions, or something not read. */
function sedScriptEdits(file: string, script: string): FileEdit[] {
  const substitution = SUBSTITUTION.exec(script)
  if (substitution !== null) {
    return [{ file, kind: 'replace', old: fingerprint(substitution[2]!), new: fingerprint(substitution[3]!), ...probed(probeChange(substitution[2]!, substitution[3]!)) }]
  }
  if (DELETIONS.test(script)) {
    return [...script.matchAll(DELETION)].map(([, line, range, pattern]): FileEdit => ({
      file, kind: 'delete', line: line !== undefined && range === undefined ? Number(line) : undefined, pattern, ...probed(pattern !== undefined && isProbe(pattern)),
    }))
  }
  const insertion = INSERTION.exec(script)
  if (insertion !== null) {
    const [, line, , side, text] = insertion
    // `12i` puts the text on line 12, `12a` on line 13; a pattern's place is not known.
    const at = line === undefined ? undefined : Number(line) + (side === 'a' ? 1 : 0)
    return [{ file, kind: 'insert', text: text!.trim().slice(0, TEXT_CHARS), line: at, ...probed(isProbe(text!)) }]
  }
  return [{ file, kind: 'other' }]
}

/**
 * A debug print, in the languages agents debug in: `print(`, `printf(`, `println(`, a console log call, a `DEBUG` marker,
 * `breakpoint()`, `pdb`. Code that holds one is instrumentation, put in to watch what runs.
 */
const PROBE = /\bprint(?:f|ln)?\s*\(|\bconsole[.]log\b|\bDEBUG\b|\bbreakpoint\(\)|\bpdb\b/g

/** Whether `text` holds a debug print. */
export function isProbe(text: string): boolean {
  PROBE.lastIndex = 0
  return PROBE.test(text)
}

/** Characters of a replaced text within which a change to a debug print is taken as one (a line or two). */
const PROBE_LINE = 200

/**
 * Whether replacing `old` by `replacement` adds a debug print (the new text holds more of them) or changes one (both
 * short texts hold one).
 */
function probeChange(old: string, replacement: string): boolean {
  const added = replacement.match(PROBE)?.length ?? 0
  if (added === 0) return false
  const before = old.match(PROBE)?.length ?? 0
  return added > before || (before > 0 && old.length <= PROBE_LINE && replacement.length <= PROBE_LINE)
}

/** `probe: true` for an edit that is a debug print, nothing for any other (most edits carry no such field). */
function probed(probe: boolean): { readonly probe?: true } {
  return probe ? PROBED : NOT_PROBED
}
const PROBED = Object.freeze({ probe: true as const })
const NOT_PROBED = Object.freeze({})
