/**
 * What the card's plugin uses of DSH's web client, as DSH 0.1.0-rc.8 provides it to a browser plugin: the services it
 * injects (`slots`, `locale`, `settingsScope`, `connection`) and the settings wire's answer. Types only, written from
 * the published contracts; a plugin's browser half may import no other plugin's code at run time.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/client/host
 */
import type { ReactNode } from 'react'
import type { SectionOp } from './card-form.js'

/** One namespace's view, as the settings wire serves it. */
export interface NamespaceView {
  readonly ns: string
  readonly value: unknown
  readonly base?: unknown
  readonly user?: unknown
  readonly revision: number
}

/** The answer of a settings write: the namespace's new view, or why the Host refused it. */
export type WriteResult =
  | { readonly ok: true; readonly value: NamespaceView }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } }

/** The web client's connection to its Host: the settings methods the card calls. */
export interface Connection {
  readonly api: {
    readonly settings: {
      mutate(payload: { ns: string; ops: SectionOp[]; expectedRevision?: number }): Promise<{ readonly result: WriteResult }>
    }
  }
}

/** One namespace as the client's settings scope mirrors it. */
export interface ScopeSnapshot {
  readonly status: 'loading' | 'ready' | 'unavailable'
  readonly value: unknown
  readonly base: unknown
  readonly user: unknown
  readonly revision: number | undefined
  readonly writable: boolean
}

export interface Scope {
  getSnapshot(): ScopeSnapshot
  subscribe(listener: () => void): () => void
}

/** The browser plugin's context, as far as the card's plugin uses it. */
export interface ClientContext {
  effect(execute: () => () => void, label?: string): void
  get(name: 'connection'): Connection | undefined
  readonly locale: {
    register(ns: string, dictionaries: { en: Record<string, string>; zh: Record<string, string> }): () => void
  }
  readonly settingsScope: {
    bind(spec: { namespace: string; decode?: (section: unknown) => unknown }): Scope
    describe(): { acceptView(view: NamespaceView): void }
  }
  readonly slots: {
    inject(name: string, register: () => () => void): void
    register<P>(
      options: { name: string; key: string; locale: string; inject: () => P }, component: (props: P & CardProps) => ReactNode,
    ): () => void
  }
}

/** What the slot gives a card besides its own injected face: the words of its locale namespace. */
export interface CardProps {
  readonly t: (key: string, params?: Record<string, unknown>) => string
}
