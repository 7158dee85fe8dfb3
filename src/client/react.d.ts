/**
 * The part of React the card uses, as DSH's web UI shares it with plugins (`require('react')` from its module table;
 * React 18). Declared here rather than installed: the browser half never bundles React, and only these calls are made.
 */
declare module 'react' {
  export type ReactNode = ReactElement | string | number | boolean | null | undefined | readonly ReactNode[]
  export interface ReactElement {
    readonly type: unknown
    readonly props: unknown
  }
  export type Props = Readonly<Record<string, unknown>> | null
  export function createElement(type: string | ((props: never) => ReactNode), props?: Props, ...children: ReactNode[]): ReactElement
  export function useState<S>(initial: S): [S, (next: S) => void]
  export function useSyncExternalStore<S>(subscribe: (listener: () => void) => () => void, getSnapshot: () => S): S
}
