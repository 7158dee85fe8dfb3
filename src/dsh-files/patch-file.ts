/**
 * Reading a DSH patch file (`cordis.patch.yml`) for the rows that name a plugin, keeping where each value was written
 * so that a problem can be reported as `file:line`.
 *
 * A patch file is a YAML list of entries; a row is any mapping with an `id`, at the top level or inside an `insert`
 * list. Values written as `!!js` expressions are computed by DSH at load, so they are set aside here, not judged.
 * @module dsh-brake/dsh-files/patch-file
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml'

/** One row of a patch file. */
export interface PatchRow {
  readonly id: string
  /** The row's `name` (the module it loads) when it writes one: a row that inserts an entry names it. */
  readonly name: string | undefined
  /** The line of the row's `id`. */
  readonly line: number
  /** The row's `disabled`: true only when written `true`; undefined when the row does not write the key. */
  readonly disabled: boolean | undefined
  /** Whether the row has a `config` key (a row without one changes nothing of the config). */
  readonly hasConfig: boolean
  /** The row's `config` as written, without the keys whose values are `!!js` expressions. */
  readonly config: unknown
  /** Top-level config keys written as `!!js` expressions. */
  readonly expressions: readonly string[]
  /** The line of the value at `path` inside `config`, or of the nearest key above it that exists. */
  lineOf(path: readonly (string | number)[]): number
}

export interface PatchFile {
  readonly rows: readonly PatchRow[]
  /** YAML syntax errors, by line. */
  readonly errors: readonly { line: number; message: string }[]
  /** The whole file as plain data (a `!!js` value as its text), for a file that may not be a patch list at all. */
  readonly value: unknown
}

/** What a plugin's rows come to once DSH has applied them, in order. */
export interface EffectiveRow {
  /** The last row that writes `config`: DSH replaces a row's config wholesale, so its config is the one that runs. */
  readonly config: PatchRow | undefined
  /** The last row that writes `disabled`, when it turns the plugin off. */
  readonly disabledBy: PatchRow | undefined
}

/**
 * The effective row of plugin `id` among `rows` (in the order DSH applies them: file after file, each top to bottom).
 * Each patch row overwrites the keys it writes, so for each key the last row that writes it wins.
 */
export function effectiveRow(rows: readonly PatchRow[], id: string): EffectiveRow {
  const own = rows.filter(row => row.id === id)
  const disabled = own.findLast(row => row.disabled !== undefined)
  return { config: own.findLast(row => row.hasConfig), disabledBy: disabled?.disabled === true ? disabled : undefined }
}

/** Whether a node is written as a `!!js` expression. */
function isExpression(node: unknown): boolean {
  return typeof node === 'object' && node !== null && /(^|:|!)js$/.test((node as { tag?: string }).tag ?? '')
}

/** Every row in the text of a patch file. */
export function readPatchFile(text: string): PatchFile {
  const counter = new LineCounter()
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false })
  const lineAt = (offset: number): number => counter.linePos(offset).line
  const errors = doc.errors.map(error => ({ line: lineAt(error.pos[0]), message: error.message.split('\n')[0] ?? error.message }))
  const rows: PatchRow[] = []
  const visit = (node: unknown): void => {
    if (isSeq(node)) {
      node.items.forEach(visit)
      return
    }
    if (!isMap(node)) return
    const id = node.get('id', true)
    if (isScalar(id) && typeof id.value === 'string') rows.push(row(node, id.value, lineAt))
    visit(node.get('insert', true))
  }
  visit(doc.contents)
  return { rows, errors, value: doc.toJS() as unknown }
}

/**
 * A top-level `[]` with rows written after it: a fresh patch file ends in `[]` (DSH writes the empty list), and a row
 * pasted under it makes the file invalid YAML. The `[]`'s line, and the text without it (its line left blank, so every
 * other line keeps its number), from which the rows can still be read.
 */
export function strayEmptyList(text: string): { line: number; without: string } | undefined {
  const lines = text.split('\n')
  const at = lines.findIndex(line => /^\[\]\s*(#.*)?$/.test(line))
  if (at === -1 || !lines.slice(at + 1).some(line => /^-(\s|$)/.test(line))) return undefined
  return { line: at + 1, without: [...lines.slice(0, at), '', ...lines.slice(at + 1)].join('\n') }
}

function row(node: YAMLMap, id: string, lineAt: (offset: number) => number): PatchRow {
  const idNode = node.get('id', true) as Node
  const configNode = node.get('config', true)
  const disabledNode = node.get('disabled', true)
  const nameNode = node.get('name', true)
  const expressions: string[] = []
  let config: unknown = isMap(configNode) || isSeq(configNode) || isScalar(configNode) ? configNode.toJSON() : undefined
  if (isMap(configNode)) {
    for (const pair of configNode.items) {
      if (isScalar(pair.key) && isExpression(pair.value)) expressions.push(String(pair.key.value))
    }
    if (expressions.length > 0) {
      config = Object.fromEntries(Object.entries(config as Record<string, unknown>).filter(([key]) => !expressions.includes(key)))
    }
  }
  const start = (target: unknown): number => lineAt((target as Node).range?.[0] ?? idNode.range?.[0] ?? 0)
  return {
    id,
    name: isScalar(nameNode) && typeof nameNode.value === 'string' ? nameNode.value : undefined,
    line: start(idNode),
    disabled: disabledNode === undefined ? undefined : isScalar(disabledNode) && disabledNode.value === true,
    hasConfig: configNode !== undefined,
    config,
    expressions,
    lineOf(path) {
      // Walk down as far as the path exists; a key's line is where the key is written.
      let at: unknown = configNode
      let line = configNode === undefined ? start(idNode) : start(configNode)
      for (const part of path) {
        if (isMap(at)) {
          const pair = at.items.find(item => isScalar(item.key) && item.key.value === part)
          if (pair === undefined) break
          line = start(pair.key)
          at = pair.value
        } else if (isSeq(at) && typeof part === 'number' && at.items[part] !== undefined) {
          at = at.items[part]
          line = start(at)
        } else {
          break
        }
      }
      return line
    },
  }
}
