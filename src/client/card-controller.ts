/**
 * The card's form connected to DSH: the section's view from the client's settings scope (which follows the Host),
 * and the save as one `settings.mutate` on the wire, fenced by the revision the card read. The card calls the wire
 * itself, not the scope's own writes, because those recover from a refusal silently, and the card must say why.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/client/card-controller
 */
import { CardForm, type CardState, type Field, type SectionOp, type SectionView } from './card-form.js'
import type { Connection, NamespaceView, Scope } from './host.js'

/** The card's state for a renderer, and what a person does on it. */
export class CardController {
  private readonly form = new CardForm()
  private readonly listeners = new Set<() => void>()
  private snapshot: CardState

  constructor(
    private readonly namespace: string,
    private readonly scope: Scope,
    private readonly connection: () => Connection | undefined,
    private readonly accept: (view: NamespaceView) => void,
  ) {
    this.snapshot = this.form.state(this.view())
    scope.subscribe(() => this.changed())
  }

  /** The card as it stands (the same object until something changes, as a React store must give). */
  readonly getSnapshot = (): CardState => this.snapshot

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  readonly edit = (field: Field, text: string): void => {
    this.form.edit(field, text)
    this.changed()
  }

  readonly reset = (field: Field): void => {
    const view = this.view()
    if (view === undefined) return
    this.form.reset(field, view)
    this.changed()
  }

  readonly discard = (): void => {
    this.form.discard()
    this.changed()
  }

  /** Save every change at once; resolves when the Host answered. */
  readonly save = async (): Promise<void> => {
    const view = this.view()
    if (view === undefined) return
    await this.form.save(view, (ops, revision) => this.write(ops, revision), () => this.changed())
  }

  /** What the row's value of `field` is (what a reset returns to), as text. */
  base(field: Field): unknown {
    const base = this.scope.getSnapshot().base
    return typeof base === 'object' && base !== null ? (base as Record<string, unknown>)[field] : undefined
  }

  private async write(ops: SectionOp[], revision: number | undefined): Promise<string | undefined> {
    const connection = this.connection()
    if (connection === undefined) return 'the web UI has no connection to dsh'
    try {
      const fence = revision === undefined ? {} : { expectedRevision: revision }
      const { result } = await connection.api.settings.mutate({ ns: this.namespace, ops, ...fence })
      // The card already names the brake: its message follows without the name it opens with.
      if (!result.ok) return result.error.message.replace(/^dsh-brake: /, '')
      this.accept(result.value)
      return undefined
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }

  private view(): SectionView | undefined {
    const snapshot = this.scope.getSnapshot()
    if (snapshot.status !== 'ready') return undefined
    const value = snapshot.value
    return {
      value: typeof value === 'object' && value !== null ? value as Record<string, unknown> : undefined,
      base: snapshot.base,
      user: snapshot.user,
      revision: snapshot.revision,
      writable: snapshot.writable,
    }
  }

  private changed(): void {
    this.snapshot = this.form.state(this.view())
    for (const listener of this.listeners) listener()
  }
}
