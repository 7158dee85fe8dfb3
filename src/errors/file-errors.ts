/**
 * A file the command was given that it cannot use, in one shape wherever it is found out (a session log, a config
 * file, a path that names nothing): the message names the file and says what is wrong with it. What that means for a
 * command (bad input, exit 2; or one log named and the others reported) is the command's business. And how a file the
 * command could not read or write is named in such a message: by the system's error code (`ENOENT`, `EACCES`,
 * `EISDIR`), which says what was wrong in one word, or by the error's message where there is no code.
 * @module dsh-brake/errors/file-errors
 */

/** A file that cannot be used: `<named>: <problem>`, where `named` is the file, or how the command names it. */
export class FileError extends Error {
  readonly file: string
  readonly problem: string

  constructor(file: string, problem: string, named = file) {
    super(`${named}: ${problem}`)
    this.file = file
    this.problem = problem
  }
}

/** The code of a failed file operation's error, or its message. */
export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))
}

/** `cannot be read (ENOENT)`: the words after a file's name when reading it failed. */
export function cannotBeRead(error: unknown): string {
  return `cannot be read (${errorCode(error)})`
}
