/**
 * What a lookup asks, as a question: its terms (lower case, without a leading `def` or `class`, regular-expression
 * signs as spaces) in its places. Two questions are one asked again when one term contains the other and one place is
 * within the other: a search for `parse_date` in `src/` after `parse` found nothing there asks nothing new.
 * Design: docs/design.md#calls-that-bring-no-news
 * @module dsh-brake/core/evidence/questions
 */
import type { Lookup } from '../types.js'

/** A lookup's question: its terms and places, and the progress epoch it was asked in. */
export interface Question {
  readonly terms: readonly string[]
  readonly scope: readonly string[]
  readonly epoch: number
}

/** Characters kept of each term and scope of a question answered "nothing". */
const QUESTION_CHARS = 200

/** A question answered "nothing", as it is remembered: each term and scope cut to {@link QUESTION_CHARS}. */
export function kept(asked: Question): Question {
  return {
    terms: asked.terms.map(term => term.slice(0, QUESTION_CHARS)),
    scope: asked.scope.map(place => place.slice(0, QUESTION_CHARS)),
    epoch: asked.epoch,
  }
}

/** Whether `asked` asks what `earlier` asked, or a narrower thing: a related term in an overlapping place. */
export function asksAgain(asked: Question, earlier: Question): boolean {
  return related(asked.terms, earlier.terms) && overlaps(asked.scope, earlier.scope)
}

/** A search term as a question: lower case, without a leading `def`/`class`/`function`, regular-expression signs as spaces. */
export function termOf(term: string): string {
  return term.toLowerCase().replace(/^\s*(?:def|class|function|fn|func|interface|type|struct)\s+/, '').replace(/[\\^$.*+?()[\]{}|"'/]+/g, ' ').trim()
}

/** What a lookup asks, read once: its terms as questions (of three characters or more), its places as scopes. */
export function questionOf(lookup: Lookup, epoch: number): Question {
  return { terms: lookup.terms.map(termOf).filter(term => term.length >= 3), scope: lookup.scope.map(scopeOf), epoch }
}

/** A place as a question's scope: without `./` in front or `/` behind. */
function scopeOf(place: string): string {
  return place.replace(/^\.\//, '').replace(/\/+$/, '')
}

/** Whether one of `terms` contains one of `earlier`, or is contained in it. */
function related(terms: readonly string[], earlier: readonly string[]): boolean {
  return terms.some(term => earlier.some(other => term.includes(other) || other.includes(term)))
}

/** Whether two scopes share a place: one is within the other (no place given is everywhere). */
function overlaps(places: readonly string[], earlier: readonly string[]): boolean {
  if (places.length === 0 || earlier.length === 0) return true
  return places.some(place => earlier.some(other => place === '' || other === '' || place === '.' || other === '.'
    || place.startsWith(`${other}/`) || other.startsWith(`${place}/`) || place === other))
}
