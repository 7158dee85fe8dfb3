/**
 * What a run keeps of every log it read, in as little memory as it can be kept: one row per log (its calls and tokens
 * in typed-array columns), and only for the few that have them, its parent session, where its analysis is spilled and
 * what its loops wasted, its file. A run over a year of sessions keeps tens of bytes per session, beside the session id.
 * @module dsh-brake/analyze/log-table
 */
import type { Tokens } from './analysis.js'
import type { Place } from './spill.js'
import { tokensOf } from './tokens.js'

/** A log's figures, as the table gives them back. */
export interface LogFigures {
  readonly calls: number
  readonly tokens: Tokens
}

/** What only some logs have: a subagent's parent, a shown log's spilled analysis and waste, a file to list. */
export interface LogExtra {
  readonly parent?: string | undefined
  readonly shown?: { readonly place: Place; readonly wasted: Tokens } | undefined
  readonly file?: string | undefined
}

export class LogTable {
  private readonly rows = new Map<string, number>()
  private calls = new Int32Array(256)
  private input = new Float64Array(256)
  private output = new Float64Array(256)
  private estimated = new Uint8Array(256)
  private readonly parents = new Map<number, string>()
  private readonly shown = new Map<number, { readonly place: Place; readonly wasted: Tokens }>()
  private readonly files = new Map<number, string>()

  /** Keep a log; `parent` for a subagent's, `shown` for one with something to show, `file` when the quiet list is asked for. */
  add(session: string, figures: LogFigures, extra: LogExtra): void {
    const row = this.rows.size
    this.rows.set(session, row)
    if (row === this.calls.length) this.grow()
    this.calls[row] = figures.calls
    this.input[row] = figures.tokens.input
    this.output[row] = figures.tokens.output
    this.estimated[row] = figures.tokens.estimated ? 1 : 0
    if (extra.parent !== undefined) this.parents.set(row, extra.parent)
    if (extra.shown !== undefined) this.shown.set(row, extra.shown)
    if (extra.file !== undefined) this.files.set(row, extra.file)
  }

  has(session: string): boolean {
    return this.rows.has(session)
  }

  /** The logs kept, in the order they came. */
  sessions(): Iterable<string> {
    return this.rows.keys()
  }

  parent(session: string): string | undefined {
    return this.parents.get(this.row(session))
  }

  figures(session: string): LogFigures {
    const row = this.row(session)
    return { calls: this.calls[row]!, tokens: tokensOf(this.input[row]!, this.output[row]!, this.estimated[row] === 1) }
  }

  shownOf(session: string): { readonly place: Place; readonly wasted: Tokens } | undefined {
    return this.shown.get(this.row(session))
  }

  file(session: string): string | undefined {
    return this.files.get(this.row(session))
  }

  private row(session: string): number {
    const row = this.rows.get(session)
    if (row === undefined) throw new Error(`no log kept for session ${session}`)
    return row
  }

  private grow(): void {
    const grown = <T extends Float64Array | Int32Array | Uint8Array>(column: T, make: (length: number) => T): T => {
      const next = make(column.length * 2)
      next.set(column)
      return next
    }
    this.calls = grown(this.calls, length => new Int32Array(length))
    this.input = grown(this.input, length => new Float64Array(length))
    this.output = grown(this.output, length => new Float64Array(length))
    this.estimated = grown(this.estimated, length => new Uint8Array(length))
  }
}
