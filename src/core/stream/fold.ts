/**
 * What a response's repetition is compared on: its text with the differences that carry no content folded away. A run
 * of white space becomes one space, or one line break when it holds one (a table's padding, a model's drifting
 * indentation); a run of digits becomes one `0` (a counter going up, `attempt 7/120`). The numbers folded away are
 * kept as a small value beside each `0`, so the watch can still tell copies that repeat exactly from copies whose
 * numbers change.
 * Design: docs/design.md#responses
 * @module dsh-brake/core/stream/fold
 */

/** The folded character every run of digits becomes. */
export const DIGITS = 0x30

const SPACE = 0x20
const LINE = 0x0a

/** What the last folded character was: white space, digits, or anything else. */
const AFTER_SPACE = 0
const AFTER_DIGITS = 1
const AFTER_OTHER = 2

/** What {@link Folder.next} did with a character: appended a folded one, rewrote the last one, or skipped it. */
export const APPEND = 0
export const REWRITE = 1
export const SKIP = 2

/**
 * A folder fed one character at a time: it appends folded characters, and rewrites the last one while a run goes on.
 * A class with plain fields: the watch calls it for every streamed character.
 */
export class Folder {
  /** The folded character `next` appended or rewrote. */
  code = LINE
  /** The number value beside it: a hash of the digits of its run, 0 for a character that is not a run of digits. */
  value = 0
  // A text starts as after a line break: white space at its start folds away.
  private last = AFTER_SPACE

  /** Fold one more character: {@link APPEND}, {@link REWRITE} (a run going on) or {@link SKIP}. */
  next(input: number): number {
    if (input === SPACE || input === LINE || input === 0x09 || input === 0x0d || input === 0x0c || input === 0x0b || input === 0xa0) {
      if (this.last === AFTER_SPACE) {
        if (input !== LINE || this.code === LINE) return SKIP
        this.code = LINE
        return REWRITE
      }
      this.last = AFTER_SPACE
      this.code = input === LINE ? LINE : SPACE
      this.value = 0
      return APPEND
    }
    if (input >= 0x30 && input <= 0x39) {
      // The run's digits as a number modulo a 16-bit prime, offset so that no run values 0.
      if (this.last === AFTER_DIGITS) {
        this.value = (this.value * 10 + input - 0x2f) % 65_521 + 1
        return REWRITE
      }
      this.last = AFTER_DIGITS
      this.code = DIGITS
      this.value = input - 0x2f
      return APPEND
    }
    this.last = AFTER_OTHER
    this.code = input
    this.value = 0
    return APPEND
  }
}

/** `text` folded whole, as a watch folds it (for a text to compare with, such as the request a response quotes). */
export function foldText(text: string): string {
  const folder = new Folder()
  const folded = new Uint16Array(text.length)
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const step = folder.next(text.charCodeAt(i))
    if (step === APPEND) folded[length++] = folder.code
    else if (step === REWRITE) folded[length - 1] = folder.code
  }
  let out = ''
  // In slices: one call with a megabyte of arguments would overflow the stack.
  for (let at = 0; at < length; at += 8192) out += String.fromCharCode(...folded.subarray(at, Math.min(length, at + 8192)))
  return out
}
