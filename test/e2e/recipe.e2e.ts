/**
 * docs/install.md's "Get dsh" under pnpm 11, what `npm install -g pnpm` gives many users: the recipe's files installed
 * with pnpm 11 (.e2e/cli-pnpm11, by scripts/e2e-setup.ts; the other suites drive the pnpm 10 install) give the
 * Cordis family the release needs, a dsh that boots a profile with dsh-brake in it, and a doctor that says the pins
 * took. The doctor's word on an install off the pins is tested on a home laid out as such a dsh leaves it
 * (test/unit/cli/doctor.spec.ts).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repeat } from '../../scripts/dsh-loop.ts'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { CORDIS_PINS } from '../../src/dsh-files/dsh-release.ts'
import { CLI_PNPM11, cleanUp, dsh, freshHome, sessionEvents, storedNotices, workspace } from './dsh-cli.ts'
import { startModelServer, type Answer } from './model-server.ts'

let home: string

beforeAll(async () => {
  home = freshHome()
  const added = await dsh(['plugin', '--profile', 'headless', 'add', PACKAGE_ROOT], { home, cwd: home, cli: CLI_PNPM11 })
  expect(added.code, added.stderr).toBe(0)
})

afterAll(() => {
  cleanUp()
})

describe('the recipe under pnpm 11', () => {
  it('pins the Cordis family: the install holds the versions the release needs and no other', () => {
    const store = readdirSync(join(PACKAGE_ROOT, '.e2e/cli-pnpm11/node_modules/.pnpm'))
    for (const [name, pin] of Object.entries(CORDIS_PINS)) {
      const versions = store.filter(dir => dir.startsWith(`${name.replace('/', '+')}@`)).map(dir => dir.slice(name.length + 1).split('_')[0])
      expect(versions, name).toEqual([pin])
    }
  })

  it('gives a dsh that boots a profile with dsh-brake and brakes, and a doctor that says the pins took', async () => {
    const version = await dsh(['--version'], { home, cwd: home, cli: CLI_PNPM11 })
    expect(version.stdout.trim()).toBe('0.1.0-rc.8')
    const cwd = workspace({ 'notes.txt': 'the answer is 42\n' })
    const read: Answer = { calls: [{ name: 'read', args: { file_path: 'notes.txt' } }] }
    const server = await startModelServer([...repeat(14, read), { text: 'done' }])
    const run = await dsh(['--profile', 'headless', 'Read the notes.'], { home, cwd, baseUrl: server.url, cli: CLI_PNPM11 })
    await server.close()
    expect(run.code, run.stderr).toBe(0)
    expect(storedNotices(sessionEvents(home, cwd)).map(notice => notice.summary)).toContain('read × 14, same result')
    const doctor = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js'), 'doctor', '--profile', 'headless'], { encoding: 'utf8', env: { ...process.env, DSH_HOME: home } })
    expect(doctor.stdout).toContain('ok       the dsh that runs this home has the Cordis packages DSH 0.1.0-rc.8 needs')
    expect(doctor.status, doctor.stdout).toBe(0)
  })
})
