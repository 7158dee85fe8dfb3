/**
 * Copies of the built `dist/` with one edit to its entry, for the benchmarks that time what a part of the brake costs
 * by leaving it out (bench/layers.ts, bench/detectors.ts). Each edit names the line of the build it applies to, by its
 * text: a build whose code has moved on fails here by name, rather than measuring the wrong thing.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const dist = fileURLToPath(new URL('../dist/', import.meta.url))

/** The build's entry, as built. */
export const builtEntry = (): string => readFileSync(join(dist, 'index.js'), 'utf8')

/** Where `line` is in `source`, checked to be there once; `what` names the edit in the error. */
export function onceIn(source: string, line: string, what: string): number {
  const at = source.indexOf(line)
  if (at === -1 || source.indexOf(line, at + 1) !== -1) {
    throw new Error(`bench: the build has ${at === -1 ? 'no' : 'more than one'} line "${line.split('\n').at(-1)!.trim()}" for "${what}"`)
  }
  return at
}

/** A copy of dist/ under `dir/<name>` (`dir` in {@link cacheDir}) whose entry is `entry`, an edited {@link builtEntry}; loaded. */
export async function editedBuild(dir: string, name: string, entry: string): Promise<{ module: object; path: string }> {
  const copy = join(dir, name.replace(/\W+/g, '-'))
  rmSync(copy, { recursive: true, force: true })
  cpSync(dist, copy, { recursive: true })
  const path = join(copy, 'index.js')
  writeFileSync(path, entry)
  return { module: await import(pathToFileURL(path).href) as object, path }
}

/** The project's cache folder (made if need be), where such copies go: inside the project, their imports resolve. */
export function cacheDir(): string {
  const dir = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url))
  mkdirSync(dir, { recursive: true })
  return dir
}
