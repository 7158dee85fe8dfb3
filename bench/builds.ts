/**
 * Other builds of the brake, for the benchmarks that time what a part of it costs by leaving it out (bench/layers.ts,
 * bench/detectors.ts): a build of the plugin with only some of the call detectors of its list (built as `dist/` is,
 * the list module given in place of the real one), and a copy of the built `dist/` with one edit to its entry, where a
 * stop is put in that no list describes. Each edit names the line of the build it applies to, by its text: a build
 * whose code has moved on fails here by name, rather than measuring the wrong thing.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'tsup'
import type { CallKind } from '../src/core/detectors/call-detectors.ts'

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

/** The list module of the call detectors, which a list build gives in place of. */
const LIST = fileURLToPath(new URL('../src/core/detectors/call-detectors.ts', import.meta.url))

/**
 * A build of the plugin under `dir/<name>` whose agents run only the call detectors of the list that `keep` keeps, in
 * the list's order (the first, identical calls, always: the state makes it first); loaded. Built with the options
 * `dist/` is built with, so that it differs from `dist/` in the list alone.
 */
export async function listBuild(dir: string, name: string, keep: (kind: CallKind) => boolean): Promise<{ module: object; path: string }> {
  const outDir = join(dir, name.replace(/\W+/g, '-'))
  const kept = (await import(pathToFileURL(LIST).href) as typeof import('../src/core/detectors/call-detectors.ts')).CALL_DETECTORS
    .filter((entry, index) => index === 0 || keep(entry.kind)).map(entry => entry.kind)
  await build({
    config: false, entry: { index: 'src/index.ts' }, format: ['esm'], target: 'node22', platform: 'node', splitting: false, dts: false,
    sourcemap: false, clean: true, silent: true, outDir,
    esbuildPlugins: [{
      name: 'call-detector-list',
      setup(esbuild) {
        // The state's import of the list gets a module that keeps some of it; that module's own import, the real one.
        esbuild.onResolve({ filter: /\/call-detectors\.js$/ }, () => ({ path: 'call-detectors', namespace: 'kept-list' }))
        esbuild.onLoad({ filter: /.*/, namespace: 'kept-list' }, () => ({
          resolveDir: dirname(LIST),
          loader: 'ts',
          contents: [
            `import { CALL_DETECTORS as ALL } from ${JSON.stringify(LIST)}`,
            `export * from ${JSON.stringify(LIST)}`,
            `const KEPT = ${JSON.stringify(kept)}`,
            'export const CALL_DETECTORS = Object.freeze(ALL.filter(entry => KEPT.includes(entry.kind)))',
          ].join('\n'),
        }))
      },
    }],
  })
  const path = join(outDir, 'index.js')
  return { module: await import(pathToFileURL(path).href) as object, path }
}
