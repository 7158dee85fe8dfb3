/**
 * What a stock tool's call looked for, and which lines of a file it showed: the facts the core needs to tell calls
 * that bring no news (a search that found nothing, under one spelling after another) and windows of a file read again.
 * The stock search and file tools name these in their arguments (`grep`, `glob`, `read`, `str_replace_editor view`);
 * a `bash` command says them in its words, read the way the core reads a command line (`shell-command.ts`): searches
 * (`grep`, `rg`, `find`, `ls`, … through filters such as `head` or `wc`) and windows (`sed -n 'A,Bp' F`, `head -n N F`,
 * `awk 'NR>=A && NR<=B' F`, `head | tail`, `cat -n F | sed -n 'A,Bp'`). A command that does anything else is neither.
 * @module dsh-brake/dsh/lookups
 */
import { commandsOf, commandWords, simpleCommands, type ShellLine } from '../core/identity/shell-command.js'
import type { FileWindow, Lookup } from '../core/types.js'

/** What one call looked for and showed, when it is a lookup. */
export interface Facets {
  readonly lookup?: Lookup
  readonly window?: FileWindow
}

const NONE: Facets = Object.freeze({})

/** Characters of a command line read at most: a longer one is a script, not a lookup. */
const COMMAND_CHARS = 2000
/** Terms and places of one lookup kept at most, and characters of each. */
const PARTS = 4
const PART_CHARS = 200

/** Commands that search, and what they are followed by in a search (filters that only narrow or count its output). */
const SEARCHES = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'find', 'fd', 'ls', 'locate'])
const FILTERS = new Set(['head', 'tail', 'sort', 'uniq', 'wc', 'cut', 'tr', 'column', 'nl', 'cat', 'awk', 'sed', 'xargs', 'less', 'more'])
/** Options of grep-like searches that take a value (the pattern's `-e` aside). */
const VALUED = new Set(['-A', '-B', '-C', '-m', '-f', '-g', '-t', '-T', '--include', '--exclude', '--exclude-dir', '--glob', '--type', '--max-count', '--context', '--after-context', '--before-context'])
/** `find` tests whose value is a name or path looked for. */
const FIND_TESTS = new Set(['-name', '-iname', '-path', '-ipath', '-regex', '-iregex', '-wholename'])
/** Options of `xargs` that take a value. */
const XARGS_VALUED = new Set(['-I', '-n', '-P', '-d', '-L', '-s', '-E'])
/** A command line that could be a lookup, by its first words (after a `cd`). */
const MAY_LOOK = /^\s*(?:cd\s+[^;&|]+(?:&&|;)\s*)?(?:grep|egrep|fgrep|rg|ag|ack|find|fd|ls|locate|git\s+grep|sed\s+-n|head|tail|awk|cat|nl)\b/

/**
 * The facets of a stock tool's call, from its name and arguments; none for anything else. `line` is the call's command
 * line as already read, if it was (a shell tool's): its words are then not read again.
 */
export function facetsOf(tool: string, args: unknown, line?: ShellLine): Facets {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return NONE
  const fields = args as Record<string, unknown>
  switch (tool) {
    case 'grep':
    case 'glob':
      return typeof fields['pattern'] === 'string' ? { lookup: { terms: [clip(fields['pattern'])], scope: typeof fields['path'] === 'string' ? [clip(fields['path'])] : [] } } : NONE
    case 'read':
      return typeof fields['file_path'] === 'string' ? fileFacets(fields['file_path'], readWindow(fields['file_path'], fields['offset'], fields['limit'])) : NONE
    case 'str_replace_editor':
      return fields['command'] === 'view' && typeof fields['path'] === 'string' ? fileFacets(fields['path'], viewWindow(fields['path'], fields['view_range'])) : NONE
    case 'bash':
      return typeof fields['command'] === 'string' ? commandFacets(fields['command'], line) : NONE
    default:
      return NONE
  }
}

/**
 * Whether a lookup's result says there was nothing: no match (`No matches found`, `No files found`, no output, a count
 * of 0, a search's exit code 1), or a path that does not exist.
 */
export function foundNothing(text: string, isError: boolean): boolean {
  const body = withoutSearchExit(text.trimEnd()).trim()
  if (!isError && (body === '' || body === '(no output)' || body === 'No matches found' || body === 'No files found' || body === '0')) return true
  if (body.length > 600 || /command not found/i.test(body)) return false
  // Every line says a path is not there (`grep: x.py: No such file or directory`, `ls: cannot access …`), and one at
  // least does (a bare exit status, or an error with no words, says nothing of what is there); a match line of a search
  // (`src/app.py:12: raise NotFound(…)`) is something found, whatever its words: the first line that finds something
  // (nearly always the first) ends it.
  let said = false
  for (const line of body.split('\n')) {
    if (line.trim() === '' || SHELL_END.test(line)) continue
    if (!MISSING.test(line) || MATCH_LINE.test(line)) return false
    said = true
  }
  return said
}

/** What a tool says of a path that is not there. */
const MISSING = /no such file or directory|does not exist|cannot access|cannot find|not found|ENOENT/i
/** The shell's closing line. */
const SHELL_END = /^\[exit code: \d+\]$/
/** A search's match line: a path, a line number and a separator (`src/app.py:12:`, `src/app.py-12-`). */
const MATCH_LINE = /^[^\s:]+[:-]\d+[:-]/

/** The closing line of a search that found nothing, as DSH's shell adds it. */
const SEARCH_EXIT = '[exit code: 1]'

/** `text` without its closing {@link SEARCH_EXIT} line, if it ends in one: only its end is read, however long it is. */
function withoutSearchExit(text: string): string {
  if (!text.endsWith(SEARCH_EXIT)) return text
  const end = text.length - SEARCH_EXIT.length
  return text.slice(0, text[end - 1] === '\n' ? end - 1 : end)
}

/** A look at `file`, and the window of it the call showed, if any (made by {@link windowOf}). */
function fileFacets(file: string, window: FileWindow | undefined): Facets {
  const lookup: Lookup = { terms: [clip(baseName(file))], scope: [clip(file)] }
  return window === undefined ? { lookup } : { lookup, window }
}

/** The window from `first` to `last` of `file`, made where the lines are read: a call's window is made once. */
function windowOf(file: string, first: number, last: number): FileWindow {
  return { file: clip(file), first, last }
}

/** A lookup of `terms` in `scope`, arrays its caller made for it: taken as they are when within bounds. */
function lookupOf(terms: string[], scope: string[]): Lookup {
  return { terms: bounded(terms), scope: bounded(scope) }
}

/** At most {@link PARTS} parts of at most {@link PART_CHARS} characters: `parts` itself when it is within both. */
function bounded(parts: string[]): string[] {
  if (parts.length <= PARTS && parts.every(part => part.length <= PART_CHARS)) return parts
  return parts.slice(0, PARTS).map(clip)
}

/** `read`'s window: from `offset` (1 when absent), `limit` lines; none without a limit (the whole file, or its first page). */
function readWindow(file: string, offset: unknown, limit: unknown): FileWindow | undefined {
  if (!isCount(limit)) return undefined
  const first = isCount(offset) ? offset : 1
  return windowOf(file, first, first + limit - 1)
}

/** `str_replace_editor view`'s window: `view_range` [first, last]; none for `-1` (to the end) or no range. */
function viewWindow(file: string, range: unknown): FileWindow | undefined {
  if (!Array.isArray(range) || range.length !== 2) return undefined
  const first: unknown = range[0]
  const last: unknown = range[1]
  return isCount(first) && isCount(last) && last >= first ? windowOf(file, first, last) : undefined
}

/** The facets of a shell command line (`line`, when that is its reading): a search, or a window of one file, or neither. */
function commandFacets(command: string, line: ShellLine | undefined): Facets {
  if (command.length > COMMAND_CHARS || !MAY_LOOK.test(command)) return NONE
  const words: (readonly string[])[] = []
  for (const simple of line?.command === command ? commandsOf(line) : simpleCommands(command)) {
    if (simple.writes.length > 0) return NONE
    const named = commandWords(simple.words)
    if (named.length > 0) words.push(named)
  }
  while (words.length > 1 && words[0]![0] === 'cd') words.shift()
  return shellWindow(words) ?? shellSearch(words) ?? NONE
}

/**
 * A window of one file, printed the ways a shell prints one: `sed -n 'A,Bp' F` (or `'Ap'`, `'A,+Np'`), `head -n N F`,
 * `awk 'NR>=A && NR<=B' F` (or `'NR==A,NR==B'`), `head -n B F | tail -n K` (its last K lines), `tail -n +A F | head -n
 * K`; each with `cat -n F` or `nl -ba F` piped into it in place of the file.
 */
function shellWindow(commands: readonly (readonly string[])[]): Facets | undefined {
  if (commands.length === 0 || commands.length > 3) return undefined
  let window: { first: number; last: number; files: string[] } | undefined
  let rest = commands
  const last = commands.at(-1)!
  const before = commands.at(-2)
  const tail = last[0] === 'tail' ? countOf(last.slice(1)) : undefined
  const head = before?.[0] === 'head' ? linesOf(before) : undefined
  const from = before?.[0] === 'tail' ? startOf(before.slice(1)) : undefined
  const tailFrom = last[0] === 'tail' ? startOf(last.slice(1)) : undefined
  if (tail !== undefined && tail.count !== undefined && head !== undefined) {
    // The last K lines of the first B: lines B-K+1 to B.
    window = { first: Math.max(1, head.last - tail.count + 1), last: head.last, files: head.files }
    rest = commands.slice(0, -1)
  } else if (tailFrom !== undefined && tailFrom.files.length === 0 && head !== undefined && tailFrom.first <= head.last) {
    // The first B lines from line K on: lines K to B.
    window = { first: tailFrom.first, last: head.last, files: head.files }
    rest = commands.slice(0, -1)
  } else if (last[0] === 'head' && from !== undefined) {
    const lines = linesOf(last)
    if (lines === undefined || lines.files.length > 0) return undefined
    window = { first: from.first, last: from.first + lines.last - 1, files: from.files }
    rest = commands.slice(0, -1)
  } else {
    window = linesOf(last)
  }
  if (window === undefined) return undefined
  // The file printed: named by the print itself, or by a `cat -n` / `nl` piped into it.
  let files = window.files
  if (rest.length === 2 && files.length === 0 && (rest[0]![0] === 'cat' || rest[0]![0] === 'nl')) files = operands(rest[0]!.slice(1))
  else if (rest.length !== 1) return undefined
  return files.length === 1 ? fileFacets(files[0]!, windowOf(files[0]!, window.first, window.last)) : undefined
}

/** An `awk` program that prints a range of lines: `NR>=A && NR<=B`, `NR>A&&NR<B`, `NR==A,NR==B`. */
const AWK_RANGE = /^\s*NR\s*(>=|>|==)\s*(\d+)\s*(?:&&|,)\s*NR\s*(<=|<|==)\s*(\d+)\s*(?:\{\s*print\s*\})?\s*$/

/** The lines a `sed -n` print, a `head` or an `awk` range shows, and the files it reads. */
function linesOf(words: readonly string[]): { first: number; last: number; files: string[] } | undefined {
  if (words[0] === 'sed' && words[1] === '-n') {
    const range = /^(\d+)(?:,(\+?)(\d+))?p$/.exec(words[2] ?? '')
    if (range === null) return undefined
    const first = Number(range[1])
    const last = range[3] === undefined ? first : range[2] === '+' ? first + Number(range[3]) : Number(range[3])
    return first >= 1 && last >= first ? { first, last, files: operands(words.slice(3)) } : undefined
  }
  if (words[0] === 'head') {
    const count = countOf(words.slice(1))
    return count?.count === undefined ? undefined : { first: 1, last: count.count, files: operands(words.slice(1 + count.words)) }
  }
  if (words[0] === 'awk') {
    const range = AWK_RANGE.exec(words[1] ?? '')
    if (range === null) return undefined
    const first = Number(range[2]) + (range[1] === '>' ? 1 : 0)
    const last = Number(range[4]) - (range[3] === '<' ? 1 : 0)
    return first >= 1 && last >= first ? { first, last, files: operands(words.slice(2)) } : undefined
  }
  return undefined
}

/** A `head` or `tail` line count (`-n N`, `-N`, `-nN`, `--lines=N`) and the words it took; undefined for none. */
function countOf(args: readonly string[]): { count: number | undefined; words: number } | undefined {
  const valued = args[0] === '-n'
  // Digits only: `-n +K` is a first line to print from, not a count.
  const text = valued ? /^\d+$/.exec(args[1] ?? '')?.[0] : /^-n?(\d+)$/.exec(args[0] ?? '')?.[1] ?? /^--lines=(\d+)$/.exec(args[0] ?? '')?.[1]
  if (text === undefined) return undefined
  const count = Number(text)
  return Number.isInteger(count) && count >= 1 ? { count, words: valued ? 2 : 1 } : undefined
}

/** `tail -n +A F`: the line it starts printing from, and the files it reads. */
function startOf(args: readonly string[]): { first: number; files: string[] } | undefined {
  const valued = args[0] === '-n'
  const from = /^\+(\d+)$/.exec((valued ? args[1] : /^-n(\+\d+)$/.exec(args[0] ?? '')?.[1]) ?? '')?.[1]
  const first = Number(from)
  return Number.isInteger(first) && first >= 1 ? { first, files: operands(args.slice(valued ? 2 : 1)) } : undefined
}

/** A search through filters: what it looked for (patterns, names) and where (paths); undefined for anything else. */
function shellSearch(commands: readonly (readonly string[])[]): Facets | undefined {
  if (commands.length === 0) return undefined
  const terms: string[] = []
  const scope: string[] = []
  let searched = false
  for (let index = 0; index < commands.length; index++) {
    const raw = commands[index]!
    let simple = raw
    if (simple[0] === 'xargs') simple = simple.slice(1 + operandsStart(simple.slice(1)))
    if (simple[0] === 'git' && simple[1] === 'grep') simple = ['grep', ...simple.slice(2)]
    const head = simple[0]
    if (head === undefined) return undefined
    if (SEARCHES.has(head)) {
      searched = true
      // A filter's own operands are the pipe's text, not places; only the first command (or a search fed file names) looks somewhere.
      searchWords(head, simple.slice(1), terms, index === 0 || raw[0] === 'xargs' ? scope : undefined)
    } else if (FILTERS.has(head) && !(head === 'sed' && simple.some(word => word.startsWith('-i')))) {
      if (index === 0) scope.push(...operands(simple.slice(1)))
    } else {
      return undefined
    }
  }
  return searched ? { lookup: lookupOf(terms, scope) } : undefined
}

/**
 * What one search command asked, added to the pipe's: its patterns or names to `terms`, its paths to `scope` (unless
 * its places do not count). Excluding patterns (`grep -v`) ask nothing. Added in place: a pipe holds one search, as a
 * rule, and a list of its own for each would be made to be copied.
 */
function searchWords(head: string, args: readonly string[], terms: string[], scope: string[] | undefined): void {
  if (head === 'find') {
    // Places come before the first test.
    let tested = false
    for (let i = 0; i < args.length; i++) {
      const word = args[i]!
      if (FIND_TESTS.has(word)) {
        terms.push(args[++i] ?? '')
        tested = true
      } else if (word.startsWith('-') || word === '(' || word === ')' || word === '!') {
        // A test's value (`-type f`, `-maxdepth 2`, `-exec … ;`) is not a place.
        if (word === '-exec' || word === '-execdir') while (i < args.length && args[i] !== ';' && args[i] !== '+') i++
        else if (i + 1 < args.length && !args[i + 1]!.startsWith('-')) i++
      } else if (!tested) scope?.push(word)
    }
    return
  }
  if (head === 'ls' || head === 'locate' || head === 'fd') {
    const places = operands(args)
    if (head === 'ls') {
      for (const place of places) terms.push(baseName(place))
      scope?.push(...places)
    } else {
      terms.push(...places.slice(0, 1))
      scope?.push(...places.slice(1))
    }
    return
  }
  // grep, rg, ag, ack: `-e` patterns, or the first operand; the rest are paths.
  const patterns: string[] = []
  const rest: string[] = []
  let inverted = false
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!
    if (word === '-e' || word === '--regexp') patterns.push(args[++i] ?? '')
    else if (word.startsWith('--regexp=')) patterns.push(word.slice('--regexp='.length))
    else if (VALUED.has(word)) i++
    else if (word.startsWith('-') && word.length > 1) {
      if (/^-[a-zA-Z]*v/.test(word) || word === '--invert-match') inverted = true
    } else rest.push(word)
  }
  if (patterns.length === 0 && rest.length > 0) patterns.push(rest.shift()!)
  if (!inverted) terms.push(...patterns)
  scope?.push(...rest)
}

/** The operands among `args`: the words that are not options (`-n`, `--x`). */
function operands(args: readonly string[]): string[] {
  return args.filter(word => !word.startsWith('-') || word === '-')
}

/** Where the command `xargs` runs begins among its own words (after its options). */
function operandsStart(args: readonly string[]): number {
  let i = 0
  while (i < args.length && args[i]!.startsWith('-')) i += XARGS_VALUED.has(args[i]!) ? 2 : 1
  return i
}

function baseName(path: string): string {
  const trimmed = path.endsWith('/') ? path.replace(/\/+$/, '') : path
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || trimmed
}

function clip(text: string): string {
  return text.length > PART_CHARS ? text.slice(0, PART_CHARS) : text
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1
}
