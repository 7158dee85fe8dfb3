/**
 * The package as it ships: the built module's shape, the bundle declaration, and the layering rules the code relies
 * on (pure core, one adapter that knows DSH, one module for model-facing text).
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { absoluteLinks, isRelative, linkTargets, publishedUrl, SHIPPED_READMES } from '../../scripts/pack-readmes.ts'

const read = (path: string): string => readFileSync(join(PACKAGE_ROOT, path), 'utf8')
const manifest = JSON.parse(read('package.json')) as {
  exports: Record<string, Record<string, string> | string>
  files: string[]
  dsh: { bundle: { patch: string }; client: unknown }
  bin: Record<string, string>
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}

describe('the built module', () => {
  it('is a namespace plugin: name, Config and apply, and no default export', async () => {
    expect(existsSync(join(PACKAGE_ROOT, 'dist/index.js')), 'run `npm run build` first').toBe(true)
    const mod = await import(join(PACKAGE_ROOT, 'dist/index.js')) as Record<string, unknown>
    expect('default' in mod).toBe(false)
    expect(mod.name).toBe('dsh-brake')
    expect(typeof mod.apply).toBe('function')
    expect(typeof (mod.Config as { '~standard'?: unknown })['~standard']).toBe('object')
    expect(Object.keys(mod).sort()).toEqual(['Config', 'apply', 'name'])
  })

  it('imports nothing from DSH or Cordis at run time', () => {
    const imports = [...read('dist/index.js').matchAll(/^import .* from ["']([^"']+)["']/gm)].map(m => m[1])
    expect(imports.sort()).toEqual(['@deepseek-ai/schemastery', 'fast-json-stable-stringify'])
  })

  it('ships declarations that mention only Cordis, schemastery and (for the events\' agent) DSH\'s agent, a peer', () => {
    const specifiers = [...read('dist/index.d.ts').matchAll(/from ['"]([^'"]+)['"]/g)].map(m => m[1])
    expect([...new Set(specifiers)].sort()).toEqual(['@deepseek-ai/cordis', '@deepseek-ai/dsh-agent', '@deepseek-ai/schemastery'])
    expect(manifest.peerDependenciesMeta).toEqual({ '@deepseek-ai/dsh-agent': { optional: true } })
  })
})

describe('the built command', () => {
  it('is the package\'s `dsh-brake` bin, an executable script that Node runs', () => {
    expect(manifest.bin).toEqual({ 'dsh-brake': './dist/cli/main.js' })
    expect(read('dist/cli/main.js').split('\n')[0]).toBe('#!/usr/bin/env node')
    expect(statSync(join(PACKAGE_ROOT, 'dist/cli/main.js')).mode & 0o111).not.toBe(0)
  })
})

describe('the tarball', () => {
  /** The files `npm pack` ships, as npm lists them (asked once; npm takes seconds, hence the tests' longer limits). */
  let listed: { filename: string; paths: string[] } | undefined
  const packed = (): { filename: string; paths: string[] } => {
    if (listed !== undefined) return listed
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE_ROOT, encoding: 'utf8' })) as [{ filename: string; files: { path: string }[] }]
    listed = { filename: pack.filename, paths: pack.files.map(file => file.path).sort() }
    return listed
  }
  const { version } = JSON.parse(read('package.json')) as { version: string }

  // What `npm pack` ships, and nothing else: the plugin, its declarations, the command and its worker, the bundle's
  // patch, the READMEs and the pages they link to, the changelog and the licence. No tests, no sources, no maps.
  it('holds exactly what a user installs, under the version\'s name', () => {
    const pack = packed()
    expect(pack.filename).toBe(`dsh-brake-${version}.tgz`)
    expect(pack.paths).toEqual([
      'CHANGELOG.md', 'LICENSE', 'README.md', 'README.zh.md', 'bench/README.md', 'cordis.patch.yml',
      'dist/cli/analyze-worker.js', 'dist/cli/main.js', 'dist/client.cjs', 'dist/index.d.ts', 'dist/index.js',
      'docs/analyze.md', 'docs/configuration.md', 'docs/configuration.zh.md', 'docs/design.md', 'docs/evaluation.md', 'docs/install.md', 'docs/notices.md', 'docs/telemetry.md', 'docs/testing.md', 'docs/web-ui.png',
      'package.json',
    ])
  }, 60_000)

  // The registry's page shows the README without the package's files around it, and the project names no public
  // repository to resolve relative links against: a shipped README links to each file as published, at this version.
  it.each(SHIPPED_READMES)('%s, as shipped, links to no file the tarball lacks, and to every one of its files as published', (readme) => {
    const { paths } = packed()
    const source = read(readme)
    for (const { target } of linkTargets(source).filter(link => isRelative(link.target))) {
      expect(paths, `${readme} links to ${target}, which the tarball does not hold`).toContain(target.split('#')[0])
    }
    const shipped = absoluteLinks(source, 'dsh-brake', version, paths)
    expect(linkTargets(shipped).filter(link => isRelative(link.target))).toEqual([])
    expect(shipped).toContain(`](${publishedUrl('dsh-brake', version, 'docs/install.md')})`)
    expect(() => absoluteLinks('[the bench](bench/run.ts)', 'dsh-brake', version, paths)).toThrow('links to files the package does not ship: bench/run.ts')
  }, 60_000)

  // A reader who looks for a built file the docs name must find it: the build's names, not an older layout's.
  it('names in its READMEs and docs only built files the package ships', () => {
    const { paths } = packed()
    const pages = ['README.md', 'README.zh.md', 'bench/README.md', ...readdirSync(join(PACKAGE_ROOT, 'docs')).filter(file => file.endsWith('.md')).map(file => `docs/${file}`)]
    const named = pages.flatMap(page => [...read(page).matchAll(/\bdist\/[\w./-]*\.(?:c?js|d\.ts)\b/g)].map(match => ({ page, file: match[0] })))
    expect(named.length).toBeGreaterThan(3)
    for (const { page, file } of named) expect(paths, `${page} names ${file}`).toContain(file)
  }, 60_000)

  it('packs the READMEs with those links and leaves the repository\'s as they were (prepack, postpack)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'dsh-brake-pack-'))
    try {
      const manifest = JSON.parse(read('package.json')) as Record<string, unknown>
      // The package's manifest and READMEs with the files they link to, and no build: what the hooks need.
      const { prepack, postpack } = manifest['scripts'] as Record<string, string>
      writeFileSync(join(folder, 'package.json'), JSON.stringify({ ...manifest, scripts: { prepack: prepack!.replace('npm run build && ', ''), postpack } }))
      for (const path of packed().paths.filter(path => !path.startsWith('dist/') && path !== 'package.json')) {
        mkdirSync(join(folder, path, '..'), { recursive: true })
        copyFileSync(join(PACKAGE_ROOT, path), join(folder, path))
      }
      mkdirSync(join(folder, 'scripts'))
      for (const script of ['node.mjs', 'pack-readmes.ts']) copyFileSync(join(PACKAGE_ROOT, 'scripts', script), join(folder, 'scripts', script))
      execFileSync('npm', ['pack', '--pack-destination', folder, '--silent'], { cwd: folder, encoding: 'utf8' })
      execFileSync('tar', ['-xzf', `dsh-brake-${version}.tgz`, 'package/README.md', 'package/README.zh.md'], { cwd: folder })
      for (const readme of SHIPPED_READMES) {
        expect(readFileSync(join(folder, 'package', readme), 'utf8')).toBe(absoluteLinks(read(readme), 'dsh-brake', version, packed().paths))
        expect(readFileSync(join(folder, readme), 'utf8'), `${readme} restored`).toBe(read(readme))
      }
      expect(existsSync(join(folder, '.pack-readmes'))).toBe(false)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 120_000)

  it('is the one the README\'s install lines name', () => {
    for (const readme of ['README.md', 'README.zh.md']) expect(read(readme), readme).toContain(`dsh plugin --profile headless add ./dsh-brake-${version}.tgz`)
    // Every tarball the docs name is this version's: a recipe naming another is one a user cannot follow.
    for (const page of ['README.md', 'README.zh.md', 'docs/install.md']) {
      expect([...read(page).matchAll(/dsh-brake-(\d+\.\d+\.\d+[\w.-]*)\.tgz/g)].map(match => match[1]).filter(named => named !== version), page).toEqual([])
    }
  })

  // A build says the version whose changes it holds: the changelog's newest section is this version, dated, and nothing
  // waits under Unreleased (changes listed there ship in a build that still says the version before them).
  it('is the changelog\'s newest release, with nothing left unreleased', () => {
    const changelog = read('CHANGELOG.md')
    const sections = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)]
    expect(sections[0]?.[1]).toBe('Unreleased')
    const unreleased = changelog.slice(sections[0]!.index, sections[1]?.index).split('\n').slice(1).filter(line => line.trim() !== '')
    expect(unreleased, 'entries under Unreleased').toEqual([])
    expect(sections[1]?.[1]).toBe(version)
    expect(sections[1]?.[2]).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })
})

describe('the manifest', () => {
  it('describes the package as the config schema does, in the words of the README\'s first paragraph', async () => {
    const { description } = JSON.parse(read('package.json')) as { description: string }
    const { Config } = await import('../../src/config/schema.ts')
    expect((Config as unknown as { meta: { description: Record<string, string> } }).meta.description['']).toBe(description)
    const opening = read('README.md').split('\n\n').find(paragraph => paragraph.startsWith('dsh-brake is '))!.replace(/\s+/g, ' ')
    for (const words of ['DeepSeek Harness (DSH) plugin that notices an agent going round in a loop', 'tells the model what it saw and what to do instead']) {
      expect(description).toContain(words)
      expect(opening).toContain(words)
    }
    // What it does to a response is named too: the cut is the one action that takes text from the model.
    expect(description).toContain('cuts a response that falls into repeating itself')
  })

  it('declares the DSH bundle with a patch that ships and inserts the dsh-brake row without config', () => {
    expect(manifest.dsh.bundle.patch).toBe('./cordis.patch.yml')
    expect(manifest.files).toContain('cordis.patch.yml')
    const patch = read('cordis.patch.yml')
    expect(patch).toMatch(/- insert:\n\s+- id: dsh-brake\n\s+name: dsh-brake\s*$/)
  })

  // DSH's client module system serves `exports["./client"]` of a package that declares `dsh.client` for the web, and
  // the page runs it as a factory handed to its module loader, whose `require` answers only the shared modules.
  it('ships the web UI card in the format DSH\'s client module system loads, requiring only what the web UI shares', () => {
    expect(manifest.exports['./client']).toBe('./dist/client.cjs')
    expect(manifest.files).toContain('dist/client.cjs')
    expect(manifest.dsh.client).toEqual({ platform: 'web', inject: expect.arrayContaining(['@deepseek-ai/dsh-client-ui-settings-plugins']) as unknown })
    const registered: { id: string; factory: (require: (id: string) => unknown) => Record<string, unknown> }[] = []
    const window = { __ModuleLoader__: { load: (entry: (typeof registered)[number]) => void registered.push(entry) } }
    // The bundle is a script for a page, run here as the page runs it: with a `window` holding the module loader.
    runInNewContext(read('dist/client.cjs'), { window })
    expect(registered.map(entry => entry.id)).toEqual(['dsh-brake'])
    const required: string[] = []
    const face = registered[0]!.factory((id) => {
      required.push(id)
      return { createElement: () => null, useState: () => [false, () => undefined], useSyncExternalStore: () => undefined }
    })
    expect(required).toEqual(['react'])
    expect(face['inject']).toEqual(['slots', 'locale', 'connection', 'settingsScope'])
    // Applied to a context as the web UI's, it registers its words in both languages and one card keyed on its section.
    const words: Record<string, Record<string, string>>[] = []
    const cards: { name: string; key: string }[] = []
    const ctx = {
      effect: (execute: () => unknown) => void execute(),
      get: () => undefined,
      locale: {
        register: (_ns: string, dictionaries: Record<string, Record<string, string>>) => {
          words.push(dictionaries)
          return () => undefined
        },
      },
      settingsScope: {
        bind: () => ({ getSnapshot: () => ({ status: 'loading' }), subscribe: () => () => undefined }),
        describe: () => ({ acceptView: () => undefined }),
      },
      slots: {
        inject: (_name: string, register: () => unknown) => void register(),
        register: (options: { name: string; key: string }) => {
          cards.push({ name: options.name, key: options.key })
          return () => undefined
        },
      },
    }
    ;(face['apply'] as (ctx: unknown) => void)(ctx)
    expect(cards).toEqual([{ name: 'settings.plugin.item', key: 'dsh-brake' }])
    expect(Object.keys(words[0]!).sort()).toEqual(['en', 'zh'])
    expect(Object.keys(words[0]!['zh']!)).toEqual(Object.keys(words[0]!['en']!))
  })

  it('lists types first in exports, Cordis (and, for types only, DSH\'s agent) as peers and the runtime dependencies the build keeps external', () => {
    expect(Object.keys(manifest.exports['.']!)).toEqual(['types', 'default'])
    expect(Object.keys(manifest.peerDependencies)).toEqual(['@deepseek-ai/cordis', '@deepseek-ai/dsh-agent'])
    // yaml is the command's, for reading patch files with their line numbers; the plugin never imports it.
    expect(Object.keys(manifest.dependencies)).toEqual(['@deepseek-ai/schemastery', 'fast-json-stable-stringify', 'yaml'])
  })
})

describe('layering', () => {
  /** Every TypeScript file under `folder` of src/, as a path relative to src/. */
  const sources = (folder = ''): string[] => readdirSync(join(PACKAGE_ROOT, 'src', folder), { recursive: true, encoding: 'utf8' })
    .filter(file => file.endsWith('.ts')).map(file => join(folder, file))
  const core = sources('core')
  /** What a source imports or re-exports: `import … from`, `import type`, `export … from`, `import('…')`. */
  const specifiersOf = (source: string): string[] => [...source.matchAll(/(?:\bfrom |\bimport\()['"]([^'"]+)['"]/g)].map(m => m[1]!)
  /** The files of src/ that `file` imports, as paths relative to src/. */
  const importsOf = (file: string): string[] => specifiersOf(read(`src/${file}`)).filter(s => s.startsWith('.'))
    .map(specifier => relative('.', join(file, '..', specifier)).replace(/\.js$/, '.ts'))

  it.each(core)('src/%s is pure: no DSH, no clock, no I/O', (file) => {
    const source = read(`src/${file}`)
    for (const specifier of specifiersOf(source)) {
      // Relative imports must stay inside the core; the one library it uses is pure.
      const inside = specifier.startsWith('.') && !relative('core', join(file, '..', specifier)).startsWith('..')
      expect(inside || specifier === 'fast-json-stable-stringify', `${file} imports ${specifier}`).toBe(true)
    }
    expect(source).not.toMatch(/Date\.now|new Date|performance\.|setTimeout|setInterval|process\.|console\./)
  })

  it.each(core)('src/%s names no DSH tool and no DSH output convention', async (file) => {
    const { STOCK_TOOL_POLICIES } = await import('../../src/dsh/stock-tools.ts')
    const { TOOL_CLASSES } = await import('../../src/config/keys.ts')
    // A class name such as `read` is the core's own word, even where a stock tool shares it.
    const tools = Object.keys(STOCK_TOOL_POLICIES).filter(tool => !(TOOL_CLASSES as readonly string[]).includes(tool))
    const source = read(`src/${file}`)
    for (const tool of tools) expect(source, `${file} names ${tool}`).not.toMatch(new RegExp(`['"\`]${tool}['"\`]`))
    expect(source).not.toMatch(/exit code:/)
  })

  /**
   * src/ from the top down: the face and the command line, analyze, the replay, the live plugin, what the plugin is
   * configured and speaks with and the files DSH keeps (its home, its session logs), and the pure core with the leaves
   * everything shares. A file imports from its own layer and the layers below it, never from one above.
   */
  const LAYERS: readonly (readonly string[])[] = [
    ['index.ts', 'cli/'],
    ['analyze/'],
    ['replay/'],
    ['dsh/', 'client/'],
    ['config/', 'messages/', 'dsh-files/', 'session-logs/'],
    ['core/', 'words/', 'errors/'],
  ]
  const layerOf = (file: string): number => LAYERS.findIndex(layer => layer.some(place => place.endsWith('/') ? file.startsWith(place) : file === place))

  it.each(sources())('src/%s has a place among the layers', (file) => {
    expect(layerOf(file), `${file} belongs to no layer: add its folder to LAYERS`).not.toBe(-1)
  })

  it.each(sources())('src/%s imports only from its own layer and those below', (file) => {
    for (const target of importsOf(file)) {
      expect(layerOf(target), `${file} imports ${target}, which is above it`).toBeGreaterThanOrEqual(layerOf(file))
    }
  })

  // Layers keep the direction between folders; within one, files could still import each other round a circle. Type
  // imports count: a circle of types is a circle of meaning, each file needing the other to be read.
  it('has no import circle in src/, type imports included', () => {
    const files = new Set(sources())
    const circles: string[] = []
    const done = new Set<string>()
    const path: string[] = []
    const visit = (file: string): void => {
      if (done.has(file)) return
      const open = path.indexOf(file)
      if (open !== -1) {
        circles.push([...path.slice(open), file].join(' → '))
        return
      }
      path.push(file)
      for (const target of importsOf(file)) if (files.has(target)) visit(target)
      path.pop()
      done.add(file)
    }
    for (const file of files) visit(file)
    expect(circles).toEqual([])
  })

  it('only the live plugin (src/dsh/), and for types the readers of DSH\'s session logs (src/session-logs/, src/replay/), import DSH', () => {
    for (const file of sources().filter(file => !file.startsWith('dsh/'))) {
      const imports = [...read(`src/${file}`).matchAll(/^import (type )?.*from ['"](@deepseek-ai\/dsh[^'"]*)['"]/gm)]
      const readsLogs = file.startsWith('replay/') || file.startsWith('session-logs/')
      const allowed = readsLogs ? imports.filter(match => match[1] === undefined) : imports
      expect(allowed.map(match => match[2]), file).toEqual([])
    }
  })

  it('keeps model-facing text in the templates module, out of the adapter, the core and the rest of messages/', () => {
    for (const file of sources().filter(file => file !== 'messages/templates.ts')) {
      expect(read(`src/${file}`), file).not.toMatch(/\[dsh-brake\]|refused this call|tell the user/)
    }
  })
})
