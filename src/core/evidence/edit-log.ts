/**
 * The latest edits of one agent, in a ring: the call each was made in, the file it named, and a mark its reader gives
 * it (what the edit was to that reader). Two detectors ask which files changed between two runs of a check; each keeps
 * a log of its own, as each forgets at its own resets.
 * Design: docs/design.md#bounds
 * @module dsh-brake/core/evidence/edit-log
 */

/** The latest edits, as columns that grow until `bound` long, then are written over, oldest slot first. */
export class EditLog {
  /** The call each edit was made in, the file it named, its reader's mark; by slot. */
  readonly ats: number[] = []
  readonly files: string[] = []
  readonly marks: number[] = []
  /** Edits made in all (the latest is in slot `(made - 1) % bound`). */
  made = 0
  readonly bound: number

  constructor(bound: number) {
    this.bound = bound
  }

  /** Remember an edit of `file` made at call `at`, the oldest falling off. */
  add(at: number, file: string, mark = 0): void {
    const slot = this.made++ % this.bound
    this.ats[slot] = at
    this.files[slot] = file
    this.marks[slot] = mark
  }

  /** Edits kept now. */
  get size(): number {
    return Math.min(this.made, this.bound)
  }

  /** The slot of the edit `back` edits before the latest (1: the latest), for reading oldest first. */
  slotBack(back: number): number {
    return (this.made - back) % this.bound
  }

  clear(): void {
    this.made = 0
    this.ats.length = 0
    this.files.length = 0
    this.marks.length = 0
  }
}
