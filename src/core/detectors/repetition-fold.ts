/**
 * What a response's repetition is compared on: its text with the differences that carry no content folded away. A run
 * of white space becomes one space, or one line break when it holds one (a table's padding, a model's drifting
 * indentation); a run of digits becomes one `0` (a counter going up, `attempt 7/120`). The numbers folded away are
 * kept as a small value beside each `0`, so the watch can still tell copies that repeat exactly from copies whose
 * numbers change.
 * Design: docs/design.md#responses
 * @module dsh-brake/core/detectors/repetition-fold
 */

/** The folded character every run of digits becomes. */
export const DIGITS = 0x30

const SPACE = 0x20
const LINE = 0x0a

/** A folder fed one character at a time: it writes folded characters, and rewrites the last one while a run goes on. */
export interface Folder {
  /**
   * Fold one more character. Returns `append` with a folded character and its number value (0 for anything but
   * digits), `rewrite` when the last folded character takes a new character or value (a run going on), or `skip`.
   */
  next(code: number): 'append' | 'rewrite' | 'skip'
  /** The folded character `next` appended or rewrote. */
  readonly code: number
  /** The number value beside it: a hash of the digits of its run, 0 for a character that is not a run of digits. */
  readonly value: number
}

/** A new folder, at the start of a text. */
export function createFolder(): Folder {
  let code = LINE
  let value = 0
  // What the last folded character was: white space, digits, or anything else (a text starts as after a line break).
  let last: 'space' | 'digits' | 'other' = 'space'
  return {
    next(input) {
      if (isSpace(input)) {
        if (last === 'space') {
          if (input !== LINE || code === LINE) return 'skip'
          code = LINE
          return 'rewrite'
        }
        last = 'space'
        code = input === LINE ? LINE : SPACE
        value = 0
        return 'append'
      }
      if (input >= 0x30 && input <= 0x39) {
        // The run's digits as a number modulo a 16-bit prime, offset so that no run values 0.
        if (last === 'digits') {
          value = (value * 10 + input - 0x2f) % 65_521 + 1
          return 'rewrite'
        }
        last = 'digits'
        code = DIGITS
        value = input - 0x2f
        return 'append'
      }
      last = 'other'
      code = input
      value = 0
      return 'append'
    },
    get code() {
      return code
    },
    get value() {
      return value
    },
  }
}

/** `text` folded whole, as a watch folds it (for a text to compare with, such as the request a response quotes). */
export function foldText(text: string): string {
  const folder = createFolder()
  const folded = new Uint16Array(text.length)
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const step = folder.next(text.charCodeAt(i))
    if (step === 'append') folded[length++] = folder.code
    else if (step === 'rewrite') folded[length - 1] = folder.code
  }
  let out = ''
  // In slices: one call with a megabyte of arguments would overflow the stack.
  for (let at = 0; at < length; at += 8192) out += String.fromCharCode(...folded.subarray(at, Math.min(length, at + 8192)))
  return out
}

function isSpace(code: number): boolean {
  return code === SPACE || code === LINE || code === 0x09 || code === 0x0d || code === 0x0c || code === 0x0b || code === 0xa0
}
