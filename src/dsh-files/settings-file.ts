/**
 * DSH's user-settings document, read as data: `settings.yaml` in the DSH home (what the stock profiles' settings
 * service keeps, and the web UI's Settings page writes), one section per namespace. Kept with the line of each value, so
 * that a problem can be reported as `file:line`.
 * @module dsh-brake/dsh-files/settings-file
 */
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml'
import { cannotBeRead } from '../errors/file-errors.js'

/** One namespace's section of the document. */
export interface SettingsSection {
  readonly file: string
  /** The section as written; undefined when the document has none. */
  readonly section: unknown
  /** The line of a key of the section (or of the section itself). */
  lineOf(key?: string): number
}

/**
 * Where the settings document is: the `path` a profile's `settings` row gives it (relative to the DSH home), or
 * `settings.yaml` in the home, as DSH's file provider decides.
 */
export function settingsFilePath(home: string, rowConfig: unknown): string {
  const path = typeof rowConfig === 'object' && rowConfig !== null ? (rowConfig as { path?: unknown }).path : undefined
  if (typeof path !== 'string' || path.trim() === '') return join(home, 'settings.yaml')
  return isAbsolute(path) ? path : join(home, path)
}

/** The `namespace` section of the document at `file`: nothing when there is no document, an error when it is unreadable. */
export function readSettingsSection(file: string, namespace: string): SettingsSection | { error: string } | undefined {
  if (!existsSync(file)) return undefined
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    return { error: `${file} ${cannotBeRead(error)}` }
  }
  const counter = new LineCounter()
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false })
  const [first] = doc.errors
  if (first !== undefined) return { error: `${file}:${counter.linePos(first.pos[0]).line}: not valid YAML: ${first.message.split('\n')[0] ?? ''}` }
  const root = doc.contents
  const keyed = (node: unknown, key: string) =>
    isMap(node) ? node.items.find(item => isScalar(item.key) && item.key.value === key) : undefined
  const pair = keyed(root, namespace)
  const lineAt = (node: unknown): number => counter.linePos((node as Node | undefined)?.range?.[0] ?? 0).line
  return {
    file,
    section: pair === undefined ? undefined : (pair.value as Node | null)?.toJSON() as unknown ?? null,
    lineOf(key) {
      if (pair === undefined) return 1
      const inner = key === undefined ? undefined : keyed(pair.value, key)
      return lineAt(inner?.key ?? pair.key)
    },
  }
}
