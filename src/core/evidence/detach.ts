/**
 * Text kept from a tool's result, detached from the result. V8 makes a piece cut out of a long string (a slice, a
 * line of a split, a pattern's capture) a view into that string, so a 300-character line of a failure kept by a
 * detector would keep the whole output it was cut from alive, a megabyte or more, for as long as the agent lives.
 * Per-agent state must stay bounded however large results are: what it keeps of a result is copied out.
 * @module dsh-brake/core/evidence/detach
 */

/**
 * A copy of `text` that holds no reference to a larger string it may have been cut from. Joining it to another string
 * and cutting that back makes V8 write the joined string out whole (a new string, with none of the larger one's
 * memory) before cutting: the cut is then a view into the copy, one character longer than `text`.
 */
export function detached(text: string): string {
  return ` ${text}`.slice(1)
}
