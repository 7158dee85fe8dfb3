/**
 * The brake's settings card as data: what each control shows, what a person has changed and not yet saved, and the
 * one write a save makes. Nothing here judges a value: the brake does, on the Host, at the write, and its refusal is
 * what the card shows (a number field typed "abc" is sent as written, to be refused in the brake's words).
 * Pure: no browser, no DSH; the card (card.ts) renders it and the plugin (index.ts) connects it to DSH's settings.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/client/card-form
 */
import { KEYS } from '../config/keys.js'
import { SETTINGS_KEYS, type SettingsKey } from '../config/settings.js'

/** The fields of the card: the section's keys, in its order. */
export const FIELDS = SETTINGS_KEYS

export type Field = SettingsKey

/** The modes, in the order the card offers them. */
export const MODES = KEYS.mode.rule.values

/** What the Host serves of the section: the value in force, the row's values (`base`), the user's own, a revision. */
export interface SectionView {
  readonly value: Readonly<Record<string, unknown>> | undefined
  readonly base: unknown
  readonly user: unknown
  readonly revision: number | undefined
  readonly writable: boolean
}

/** One path edit of the section, as DSH's settings wire takes it. */
export type SectionOp = { op: 'set'; path: [Field]; value: unknown } | { op: 'unset'; path: [Field] }

/** A control as the card renders it: its text (a mode, `true`/`false`, a number, a comma-separated list). */
export interface FieldState {
  readonly text: string
  /**
   * The user's layer holds the field (a save put it there): it no longer follows cordis.patch.yml. An edit not yet
   * saved is no override, and a reset staged on a stored field shows none either: the header says what is unsaved.
   */
  readonly overridden: boolean
  /** Changed on the card and not saved. */
  readonly changed: boolean
}

/** One write of the section's edits, fenced by a revision; resolves to why the Host refused it, if it did. */
export type SectionWrite = (ops: SectionOp[], revision: number | undefined) => Promise<string | undefined>

/** The card's whole state. */
export interface CardState {
  /** The Host serves the section (the brake is loaded with a settings service). */
  readonly available: boolean
  readonly writable: boolean
  readonly fields: Readonly<Record<Field, FieldState>>
  readonly dirty: boolean
  readonly saving: boolean
  /** Why the last save was refused, in the brake's words; the settings in force did not change. */
  readonly refusal: string | undefined
  /** The last save landed, and nothing was changed since. */
  readonly saved: boolean
}

/** A staged edit: new text, or a reset to the row's value. */
type Staged = { readonly text: string; readonly reset: boolean }

/** The text a control shows for a value of `field`. */
export function textOf(field: Field, value: unknown): string {
  if (value === undefined || value === null) return ''
  if ((field === 'include' || field === 'exclude') && Array.isArray(value)) return value.map(item => textOf('mode', item)).join(', ')
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * The value a control's text stands for. A text that is not what the field takes is sent as written: the brake says
 * what is wrong with it (the key, the rule, the value), which is more than a control could.
 */
export function valueOf(field: Field, text: string): unknown {
  const trimmed = text.trim()
  switch (field) {
    case 'mode': return trimmed
    case 'streamCut': return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed
    case 'callWarnCount':
    case 'callDenyCount': return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed
    case 'include':
    case 'exclude': return trimmed === '' ? [] : trimmed.split(',').map(item => item.trim())
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The card's form over one view of the section at a time. */
export class CardForm {
  private readonly staged = new Map<Field, Staged>()
  private saving = false
  private refusal: string | undefined
  private saved = false

  /** Stage new text for `field`. */
  edit(field: Field, text: string): void {
    this.staged.set(field, { text, reset: false })
    this.settle()
  }

  /** Stage a reset: after the save, the field follows the row of cordis.patch.yml (or the default) again. */
  reset(field: Field, view: SectionView): void {
    this.staged.set(field, { text: textOf(field, isRecord(view.base) ? view.base[field] : undefined), reset: true })
    this.settle()
  }

  /** Drop every staged edit and the last refusal. */
  discard(): void {
    this.staged.clear()
    this.settle()
  }

  /** A change on the card: what the last save said no longer stands. */
  private settle(): void {
    this.refusal = undefined
    this.saved = false
  }

  /** The card as it stands over `view`. */
  state(view: SectionView | undefined): CardState {
    const fields = Object.fromEntries(FIELDS.map(field => [field, this.field(field, view)])) as Record<Field, FieldState>
    return {
      available: view !== undefined,
      writable: view?.writable ?? false,
      fields,
      dirty: view !== undefined && this.ops(view).length > 0,
      saving: this.saving,
      refusal: this.refusal,
      saved: this.saved,
    }
  }

  /** The edits a save writes, in the card's order of fields: a field set, or a field the user's layer lets go. */
  ops(view: SectionView): SectionOp[] {
    const ops: SectionOp[] = []
    for (const field of FIELDS) {
      const staged = this.staged.get(field)
      if (staged === undefined) continue
      if (staged.reset) {
        if (stored(view, field)) ops.push({ op: 'unset', path: [field] })
      } else if (staged.text !== textOf(field, view.value?.[field])) {
        ops.push({ op: 'set', path: [field], value: valueOf(field, staged.text) })
      }
    }
    return ops
  }

  /**
   * Save through `write` (one write of every edit, fenced by the revision the card read). Resolves to nothing when it
   * landed (the staged edits are gone, the Host's view shows them), or to why it was refused (the edits stay).
   */
  async save(view: SectionView, write: SectionWrite, changed: () => void): Promise<void> {
    const ops = this.ops(view)
    if (ops.length === 0 || this.saving) return
    this.saving = true
    this.settle()
    changed()
    try {
      const refusal = await write(ops, view.revision)
      if (refusal === undefined) this.staged.clear()
      this.refusal = refusal
      this.saved = refusal === undefined
    } finally {
      this.saving = false
      changed()
    }
  }

  private field(field: Field, view: SectionView | undefined): FieldState {
    const staged = this.staged.get(field)
    const inForce = textOf(field, view?.value?.[field])
    const held = view !== undefined && stored(view, field)
    if (staged === undefined) return { text: inForce, overridden: held, changed: false }
    const changed = staged.reset ? held : staged.text !== inForce
    return { text: staged.text, overridden: held && !staged.reset, changed }
  }
}

/** One piece of a message as the card shows it: plain text, or a name the message quotes in backticks (code). */
export interface MessagePart {
  readonly text: string
  readonly code: boolean
}

/**
 * The brake's message in pieces, its backtick-quoted names as code (`` `callDenyCount` `` shown as a name, not with
 * the backticks around it). A backtick without its pair stays text as written.
 */
export function messageParts(message: string): MessagePart[] {
  const parts: MessagePart[] = []
  const quoted = /`([^`\n]+)`/g
  let from = 0
  for (const match of message.matchAll(quoted)) {
    if (match.index > from) parts.push({ text: message.slice(from, match.index), code: false })
    parts.push({ text: match[1]!, code: true })
    from = match.index + match[0].length
  }
  if (from < message.length || parts.length === 0) parts.push({ text: message.slice(from), code: false })
  return parts
}

/** Whether the user's layer holds `field`: its presence, not its value, is what an override is. */
function stored(view: SectionView, field: Field): boolean {
  return isRecord(view.user) && Object.hasOwn(view.user, field)
}
