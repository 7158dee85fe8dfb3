/**
 * The package as it ships: the built module's shape, the bundle declaration, and the layering rules the code relies
 * on (pure core, one adapter that knows DSH, one module for model-facing text).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from './support/dsh.ts'

const read = (path: string): string => readFileSync(join(PACKAGE_ROOT, path), 'utf8')
const manifest = JSON.parse(read('package.json')) as {
  exports: Record<string, Record<string, string>>
  files: string[]
  dsh: { bundle: { patch: string } }
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
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
    expect(imports.sort()).toEqual(['@deepseek-ai/schemastery'])
  })

  it('ships declarations that mention only Cordis and schemastery', () => {
    const specifiers = [...read('dist/index.d.ts').matchAll(/from ['"]([^'"]+)['"]/g)].map(m => m[1])
    expect([...new Set(specifiers)].sort()).toEqual(['@deepseek-ai/cordis', '@deepseek-ai/schemastery'])
  })
})

describe('the manifest', () => {
  it('declares the DSH bundle with a patch that ships and inserts the dsh-brake row without config', () => {
    expect(manifest.dsh.bundle.patch).toBe('./cordis.patch.yml')
    expect(manifest.files).toContain('cordis.patch.yml')
    const patch = read('cordis.patch.yml')
    expect(patch).toMatch(/- insert:\n\s+- id: dsh-brake\n\s+name: dsh-brake\s*$/)
  })

  it('lists types first in exports, Cordis as a peer and the runtime dependencies the build keeps external', () => {
    expect(Object.keys(manifest.exports['.']!)).toEqual(['types', 'default'])
    expect(Object.keys(manifest.peerDependencies)).toEqual(['@deepseek-ai/cordis'])
    expect(Object.keys(manifest.dependencies)).toEqual(['@deepseek-ai/schemastery'])
  })
})

describe('layering', () => {
  const core = readdirSync(join(PACKAGE_ROOT, 'src/core')).filter(file => file.endsWith('.ts'))
  const specifiersOf = (source: string): string[] => [...source.matchAll(/from ['"]([^'"]+)['"]/g)].map(m => m[1]!)

  it.each(core)('src/core/%s is pure: no DSH, no clock, no I/O', (file) => {
    const source = read(`src/core/${file}`)
    for (const specifier of specifiersOf(source)) {
      expect(specifier.startsWith('./'), specifier).toBe(true)
    }
    expect(source).not.toMatch(/Date\.now|new Date|performance\.|setTimeout|setInterval|process\.|console\./)
  })

  it('only src/index.ts knows DSH', () => {
    for (const file of readdirSync(join(PACKAGE_ROOT, 'src')).filter(f => f.endsWith('.ts') && f !== 'index.ts')) {
      expect(specifiersOf(read(`src/${file}`)).filter(s => s.startsWith('@deepseek-ai/dsh')), file).toEqual([])
    }
  })

  it('keeps model-facing text out of the adapter and the core', () => {
    for (const file of ['src/index.ts', ...core.map(f => `src/core/${f}`)]) {
      expect(read(file), file).not.toMatch(/\[dsh-brake\]|refused this call|tell the user/)
    }
  })
})
