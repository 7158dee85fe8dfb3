/**
 * How much of a payload a notice quotes: each bound keeps a notice short however long the arguments, paths or text it
 * names, and the one-line summary within DSH's convention.
 * @module dsh-brake/messages/limits
 */
import { fit } from '../words/text.js'

/** Characters of canonical arguments quoted in a notice. */
export const ARGS_PREVIEW_CHARS = 200
/** Characters of each call's canonical arguments quoted where a notice lists several calls. */
export const LISTED_ARGS_CHARS = 100
/** Characters of a repeated text block quoted in a notice. */
export const TEXT_PREVIEW_CHARS = 120
/** Characters of a tool name, or of a source label, quoted anywhere. */
export const NAME_CHARS = 64
/** Characters of a file's path quoted in a notice. */
export const PATH_CHARS = 100
/** Line ranges a rereading notice names at most. */
export const LISTED_RANGES = 4
/** Longest notice summary (DSH's context-summary convention). */
export const SUMMARY_CHARS = 120
/** Characters of a repeated unit a cut notice's summary quotes. */
export const UNIT_SUMMARY_CHARS = 40
/** Repeated blocks listed in one duplicate-text notice; the rest are counted. */
export const LISTED_BLOCKS = 3


/** A one-line summary within {@link SUMMARY_CHARS}, the ellipsis included. */
export function summary(text: string): string {
  return fit(text, SUMMARY_CHARS)
}
