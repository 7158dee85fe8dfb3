/**
 * How a file the command could not read or write is named in a message: by the system's error code (`ENOENT`,
 * `EACCES`, `EISDIR`), which says what was wrong in one word, or by the error's message where there is no code.
 * @module dsh-brake/file-errors
 */

/** The code of a failed file operation's error, or its message. */
export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))
}

/** `cannot be read (ENOENT)`: the words after a file's name when reading it failed. */
export function cannotBeRead(error: unknown): string {
  return `cannot be read (${errorCode(error)})`
}
