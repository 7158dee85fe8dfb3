/**
 * Whether a shell command changes files, so that a script rewritten by heredoc and re-run, or a `sed -i` fix, counts as
 * progress like a change made through a file tool. The command is read the way a shell splits it, no further: nothing
 * is run or expanded.
 * Design: docs/design.md#reading-a-shell-command
 * @module dsh-brake/core/identity/shell-command
 */
import { compilePatterns, escapeRegExp } from './patterns.js'

/**
 * One simple command: its words (quotes removed), the files its output is redirected into (those appended to among
 * them), and the bodies of the heredocs it reads, in order.
 */
export interface SimpleCommand {
  readonly words: readonly string[]
  readonly writes: readonly string[]
  readonly appends: readonly string[]
  readonly bodies: readonly string[]
}

/** Leading words that only wrap the command that follows them: how many words each takes, itself included. */
const WRAPPERS = new Map<string, (words: readonly string[]) => number>([
  ['sudo', words => 1 + options(words, 1, ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'])],
  ['env', (words) => {
    let at = 1 + options(words, 1, ['-u', '-C', '-S'])
    while (at < words.length && /^\w+=/.test(words[at]!)) at++
    return at
  }],
  // The duration follows the options.
  ['timeout', words => 2 + options(words, 1, ['-s', '-k', '--signal', '--kill-after'])],
  ['nohup', () => 1],
  ['time', () => 1],
  ['command', () => 1],
  ['exec', () => 1],
])

/** How many words from `from` are options (`-x`), counting the value after each of `valued`. */
function options(words: readonly string[], from: number, valued: readonly string[]): number {
  let at = from
  while (at < words.length && words[at]!.startsWith('-')) at += valued.includes(words[at]!) ? 2 : 1
  return at - from
}

/**
 * The words that name what a simple command does: its wrappers and leading `VAR=value` assignments left out. `words`
 * itself when there are none (most commands), so that each reader of a command line can ask for them again at no cost.
 */
export function commandWords(words: readonly string[]): readonly string[] {
  let start = 0
  for (;;) {
    if (start < words.length && /^\w+=/.test(words[start]!)) {
      start++
      continue
    }
    const wrapper = start < words.length ? WRAPPERS.get(words[start]!) : undefined
    if (wrapper === undefined) return start === 0 ? words : words.slice(start)
    start += wrapper(words.slice(start))
  }
}

/** The simple commands of a shell command line, heredoc bodies left out. */
export function simpleCommands(command: string): SimpleCommand[] {
  return new CommandLine(command).read()
}

/**
 * One reading of a command line, from start to end: the words and files of the simple command being read, what waits
 * for its word or its line's end, and the commands read so far. A class, so that its steps are methods made once rather
 * than closures made for every command read.
 */
class CommandLine {
  private readonly command: string
  private readonly commands: SimpleCommand[] = []
  // Each made only for a command that has any: most have no files or bodies, and the empty command after the last
  // separator needs none.
  private words: string[] = NONE
  private writes: string[] = NONE
  private appends: string[] = NONE
  // The heredoc bodies of the command being read: the heredoc's line ends later, and its body is filled in then.
  private bodies: string[] = NONE
  private word: string | undefined
  // Redirect operators waiting for their target word, and heredoc delimiters waiting for the line's end.
  private redirect: 'file' | 'append' | 'other' | undefined
  private heredocs: Heredoc[] = NO_HEREDOCS

  constructor(command: string) {
    this.command = command
  }

  read(): SimpleCommand[] {
    const command = this.command
    let i = 0
    while (i < command.length) {
      const char = command[i]!
      if (char === '\\' && i + 1 < command.length) {
        if (command[i + 1] !== '\n') this.word = `${this.word ?? ''}${command[i + 1]}`
        i += 2
      } else if (char === '\'' || char === '"') {
        i = this.quoted(char, i)
      } else if (char === '$' && command.startsWith('$((', i)) {
        i = this.arithmetic(i)
      } else if (char === '\n') {
        this.endCommand()
        // With no heredoc opened on the line that ended, the next line is commands.
        i = this.heredocs.length === 0 ? i + 1 : skipHeredocs(command, i + 1, this.heredocs)
      } else if (char === ' ' || char === '\t') {
        this.endWord()
        i++
      } else if (char === '#' && this.word === undefined) {
        const newline = command.indexOf('\n', i)
        i = newline === -1 ? command.length : newline
      } else if (char === ';' || char === '|' || char === '&' || char === '(' || char === ')') {
        i = this.separator(char, i)
      } else if (char === '<' || char === '>') {
        i = this.redirection(char, i)
      } else {
        i = this.plain(i)
      }
    }
    this.endCommand()
    return this.commands
  }

  /** A quoted string from `i`: its text belongs to the word, whatever it holds. */
  private quoted(quote: string, i: number): number {
    const close = this.command.indexOf(quote, i + 1)
    const end = close === -1 ? this.command.length : close
    this.word = `${this.word ?? ''}${this.command.slice(i + 1, end)}`
    return end + 1
  }

  /** Arithmetic (`$((1 << 2))`) is part of a word: its `<<` is a shift, not a heredoc. */
  private arithmetic(i: number): number {
    const close = this.command.indexOf('))', i + 3)
    const end = close === -1 ? this.command.length : close + 2
    this.word = `${this.word ?? ''}${this.command.slice(i, end)}`
    return end
  }

  /** `;`, `|`, `&`, `(` or `)` at `i`: the end of a simple command (or `&>`, a redirect of output and errors). */
  private separator(char: string, i: number): number {
    const command = this.command
    if (char === '&' && command[i + 1] === '>') {
      // `&>` and `&>>`: output and errors into a file.
      this.endWord()
      this.redirect = command[i + 2] === '>' ? 'append' : 'file'
      return i + (command[i + 2] === '>' ? 3 : 2)
    }
    this.endCommand()
    return i + ((char === '&' || char === '|') && command[i + 1] === char ? 2 : 1)
  }

  /** `<` or `>` at `i`: a here-string, a heredoc, or a redirect waiting for its target. */
  private redirection(char: string, i: number): number {
    const command = this.command
    if (char === '<' && command.startsWith('<<<', i)) {
      // A here-string: its word is input, not a heredoc delimiter.
      this.endWord()
      this.redirect = 'other'
      return i + 3
    }
    if (char === '<' && command[i + 1] === '<') {
      this.endWord()
      if (this.bodies === NONE) this.bodies = []
      if (this.heredocs === NO_HEREDOCS) this.heredocs = []
      return readHeredoc(command, i + 2, this.heredocs, this.bodies)
    }
    // A descriptor number right before the operator belongs to it (`2>`), not to the words.
    if (this.word !== undefined && /^\d+$/.test(this.word)) this.word = undefined
    this.endWord()
    const target = char === '<' ? 'other' : command[i + 1] === '>' ? 'append' : 'file'
    let at = i + (command[i + 1] === '>' || command[i + 1] === '|' ? 2 : 1)
    if (command[at] === '&') {
      // `>&2`, `2>&1`: into another descriptor, not a file.
      at++
      this.redirect = 'other'
    } else {
      this.redirect = target
    }
    return at
  }

  /** A run of plain characters at once: one slice rather than a string per character. */
  private plain(i: number): number {
    PLAIN.lastIndex = i
    // Anything else (a carriage return, a backslash at the very end) is taken as it is, one character.
    const end = PLAIN.test(this.command) ? PLAIN.lastIndex : i + 1
    this.word = `${this.word ?? ''}${this.command.slice(i, end)}`
    return end
  }

  private endWord(): void {
    const word = this.word
    if (word === undefined) return
    if (this.redirect === 'file' || this.redirect === 'append') {
      // Devices (`/dev/null`, `/dev/stderr`, a terminal) are not files the command changes.
      if (!word.startsWith('/dev/')) {
        if (this.writes === NONE) this.writes = []
        this.writes.push(word)
        if (this.redirect === 'append') {
          if (this.appends === NONE) this.appends = []
          this.appends.push(word)
        }
      }
    } else if (this.redirect === undefined) {
      if (this.words === NONE) this.words = []
      this.words.push(word)
    }
    this.redirect = undefined
    this.word = undefined
  }

  private endCommand(): void {
    this.endWord()
    if (this.words.length > 0 || this.writes.length > 0) {
      this.commands.push({ words: this.words, writes: this.writes, appends: this.appends, bodies: this.bodies })
    }
    this.words = NONE
    this.writes = NONE
    this.appends = NONE
    this.bodies = NONE
  }
}

/** No words, files or bodies: shared by the commands that have none (never written to). */
const NONE: string[] = Object.freeze([]) as unknown as string[]

/** No heredocs waiting: a line opens none, as a rule (never written to). */
const NO_HEREDOCS: Heredoc[] = Object.freeze([]) as unknown as Heredoc[]

/** Characters with no meaning to the shell's splitting, in a run (sticky: matched where a word goes on). */
const PLAIN = /[^\s'"\\;&|<>()$]+/y

/** A heredoc waiting for its line to end: its delimiter, whether tabs are stripped, and the bodies it goes to. */
interface Heredoc {
  readonly delimiter: string
  readonly strip: boolean
  readonly bodies: string[]
}

/**
 * Read a heredoc operator's delimiter from `at` (after `<<`); its body goes into `bodies` once read. Returns where
 * the command line goes on.
 */
function readHeredoc(command: string, at: number, heredocs: Heredoc[], bodies: string[]): number {
  let i = at
  const strip = command[i] === '-'
  if (strip) i++
  while (command[i] === ' ' || command[i] === '\t') i++
  let delimiter = ''
  while (i < command.length && !/[\s;&|<>()]/.test(command[i]!)) {
    const char = command[i]!
    if (char !== '\'' && char !== '"' && char !== '\\') delimiter += char
    i++
  }
  if (delimiter !== '') heredocs.push({ delimiter, strip, bodies })
  return i
}

/**
 * Skip the bodies of the heredocs opened on the line that just ended, handing each to the command that reads it;
 * returns where commands go on.
 */
function skipHeredocs(command: string, at: number, heredocs: Heredoc[]): number {
  let i = at
  for (const { delimiter, strip, bodies } of heredocs) {
    const start = i
    for (;;) {
      if (i >= command.length) {
        bodies.push(command.slice(start))
        heredocs.length = 0
        return command.length
      }
      const newline = command.indexOf('\n', i)
      const end = newline === -1 ? command.length : newline
      if (isDelimiterLine(command, i, end, delimiter, strip)) {
        bodies.push(command.slice(start, i))
        i = end + 1
        break
      }
      i = end + 1
    }
  }
  heredocs.length = 0
  return Math.min(i, command.length)
}

/**
 * Whether the line from `start` to `end` (its `\n`) closes a heredoc: it is the delimiter alone, after leading tabs
 * when they are stripped. A line ending `\r\n` closes it as one ending `\n` does. Read in place: a heredoc's body is
 * read line by line, and most of its lines are not the delimiter.
 */
function isDelimiterLine(command: string, start: number, end: number, delimiter: string, strip: boolean): boolean {
  const last = end > start && command.charCodeAt(end - 1) === CR ? end - 1 : end
  let first = start
  if (strip) while (first < last && command.charCodeAt(first) === TAB) first++
  return last - first === delimiter.length && command.startsWith(delimiter, first)
}

const TAB = 9
const CR = 13

/**
 * Where a command changes files, if anywhere: `none`; `last`, when only its last simple command does (its exit code
 * then says whether the change was made); or `earlier`, when a simple command before the last one does (the exit code
 * is a later command's, as in `sed -i … && pytest`, and says nothing about the change).
 */
export type ShellChange = 'none' | 'last' | 'earlier'

/**
 * Whether and where `command` changes files: a simple command redirects into a file, is `tee` with a file, or its
 * words match `changing` (the file-changing command patterns, tested on the words joined by single spaces).
 */
export function changeIn(command: string, changing: (words: string) => boolean): ShellChange {
  return changeOf(simpleCommands(command), changing)
}

/** Where the simple commands of a command line change files (see {@link changeIn}). */
function changeOf(commands: readonly SimpleCommand[], changing: (words: string) => boolean): ShellChange {
  let found: ShellChange = 'none'
  commands.forEach((simple, index) => {
    if (found === 'earlier' || !changes(simple, changing)) return
    found = index === commands.length - 1 ? 'last' : 'earlier'
  })
  return found
}

/** Whether `command` changes files anywhere. */
export function changesFiles(command: string, changing: (words: string) => boolean): boolean {
  return changeIn(command, changing) !== 'none'
}

function changes(simple: SimpleCommand, changing: (words: string) => boolean): boolean {
  if (simple.writes.length > 0) return true
  const words = commandWords(simple.words)
  if (words.length === 0) return false
  if (words[0] === 'tee' && words.some((arg, index) => index > 0 && !arg.startsWith('-') && arg !== '/dev/null')) return true
  return changing(words.join(' '))
}

/**
 * One call's shell command line, read once for everyone who asks (what it edits, what it looks up, the files it names):
 * where it changes files, and its simple commands (`read`), read word by word at most once (see {@link commandsOf}).
 */
export interface ShellLine {
  readonly command: string
  readonly change: ShellChange
  read: readonly SimpleCommand[] | undefined
}

/** The simple commands of `line`, read on first use. */
export function commandsOf(line: ShellLine): readonly SimpleCommand[] {
  return line.read ??= simpleCommands(line.command)
}

/**
 * A reader of shell command lines, given the file-changing command patterns (`*` wildcard). Most shell commands
 * (tests, builds, searches) mention none of those commands and no `>` or `tee` anywhere in their text: they are
 * answered from the raw text, and only the others are read word by word.
 */
export function createShellReader(patterns: readonly string[]): (command: string) => ShellLine {
  const changing = compilePatterns(patterns)
  const mentions = mentionsAny(patterns)
  return (command) => {
    if (!mentions(command)) return { command, change: 'none', read: undefined }
    const commands = simpleCommands(command)
    return { command, change: changeOf(commands, changing), read: commands }
  }
}

/**
 * Whether a command's raw text could change files: it holds a `>` or `tee`, or a pattern's first word followed by the
 * rest of that pattern's words (`npm` alone, as in `npm test`, is not enough). A superset of what reading the command
 * finds (but for a word spelled with quotes inside it, `s'ed'`). One regular expression, grouped by first word, so
 * that the engine tries each pattern only where its first word stands.
 */
function mentionsAny(patterns: readonly string[]): (command: string) => boolean {
  const byHead = new Map<string, string[]>()
  for (const pattern of patterns) {
    // A wildcard in or before the first word: the raw text cannot rule such a pattern out.
    if ((pattern.trimStart().split(/\s/)[0] ?? '*').includes('*')) return () => true
    const parts = pattern.split('*').map(part => part.trim().split(/\s+/).filter(word => word !== '')).filter(part => part.length > 0)
    const head = parts[0]?.[0]
    if (head === undefined) return () => true
    // The pattern after its first word: the first part's other words, then the later parts, anything in between.
    const rest = [parts[0]!.slice(1), ...parts.slice(1)]
      .map((part, index) => (index === 0 ? '' : '[\\s\\S]*') + part.map(word => `\\s+${escapeRegExp(word)}`).join(''))
      .join('')
    byHead.set(head, [...byHead.get(head) ?? [], rest])
  }
  // Word boundaries only where the first word has a word character to stand on (`./fix.sh`, `c++` have none). The
  // usual first words share one leading boundary, which keeps the engine's work per position small.
  const alternative = (head: string, rests: readonly string[]): string =>
    `${escapeRegExp(head)}${/\w$/.test(head) ? '\\b' : ''}(?:${rests.join('|')})`
  const heads = [...byHead]
  const words = heads.filter(([head]) => /^\w/.test(head)).map(([head, rests]) => alternative(head, rests))
  const others = heads.filter(([head]) => !/^\w/.test(head)).map(([head, rests]) => alternative(head, rests))
  const mentions = new RegExp([`>|\\b(?:tee\\b|${words.join('|')})`, ...others].join('|'))
  return command => mentions.test(command)
}
