/**
 * docs/install.md's "Get dsh" under pnpm 11 and pnpm 12 (what `npm install -g pnpm` gives today): the recipe's files
 * installed with each (.e2e/cli-pnpm11 and .e2e/cli-pnpm12, by scripts/e2e-setup.ts; the other suites drive the
 * pnpm 10 install) give the Cordis family the release needs, a dsh that adds dsh-brake to a profile with that same
 * pnpm and boots it, and a doctor, run as a user runs it from the profile's own bin, that says the pins took. The
 * doctor's word on an install off the pins is tested on a home laid out as such a dsh leaves it
 * (test/unit/cli/doctor.spec.ts).
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, it } from 'vitest'
import { repeat } from '../../scripts/dsh-loop.ts'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { CORDIS_PINS } from '../../src/dsh-files/dsh-release.ts'
import { CLI_PNPM11, CLI_PNPM12, cleanUp, dsh, freshHome, sessionEvents, storedNotices, workspace } from './dsh-cli.ts'
import { startModelServer, type Answer } from './model-server.ts'

afterAll(() => {
  cleanUp()
})

/** Each pnpm major with its install of the CLI and the folder that puts it on the CLI's PATH. */
const PNPMS = [
  { major: 11, folder: '.e2e/cli-pnpm11', cli: CLI_PNPM11, pnpmBin: join(PACKAGE_ROOT, '.e2e/bin') },
  { major: 12, folder: '.e2e/cli-pnpm12', cli: CLI_PNPM12, pnpmBin: join(PACKAGE_ROOT, '.e2e/bin-pnpm12') },
] as const

/** The versions of each package pnpm installed, from its virtual store's folder names (`@scope+name@1.2.3_peers`). */
function installedVersions(folder: string): (name: string) => string[] {
  const entries = readdirSync(join(PACKAGE_ROOT, folder, 'node_modules/.pnpm'))
  return name => entries.filter(dir => dir.startsWith(`${name.replace('/', '+')}@`)).map(dir => dir.slice(name.length + 1).split('_')[0]!)
}

describe.each(PNPMS)('the recipe under pnpm $major', ({ major, folder, cli, pnpmBin }) => {
  it('installs with that pnpm, and pins the Cordis family: the install holds the versions the release needs and no other', () => {
    const pnpm = spawnSync(join(pnpmBin, 'pnpm'), ['--version'], { encoding: 'utf8', env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` } })
    expect(pnpm.stdout.trim().split('.')[0]).toBe(String(major))
    const versions = installedVersions(folder)
    for (const [name, pin] of Object.entries(CORDIS_PINS)) expect(versions(name), name).toEqual([pin])
  })

  it('gives a dsh that adds dsh-brake with that pnpm, boots the profile and brakes; the profile\'s own bin runs the doctor, which says the pins took', async () => {
    const home = freshHome()
    const added = await dsh(['plugin', '--profile', 'headless', 'add', PACKAGE_ROOT], { home, cwd: home, cli, pnpmBin })
    expect(added.code, added.stderr).toBe(0)
    const version = await dsh(['--version'], { home, cwd: home, cli, pnpmBin })
    expect(version.stdout.trim()).toBe('0.1.0-rc.8')
    const cwd = workspace({ 'notes.txt': 'the answer is 42\n' })
    const read: Answer = { calls: [{ name: 'read', args: { file_path: 'notes.txt' } }] }
    const server = await startModelServer([...repeat(14, read), { text: 'done' }])
    const run = await dsh(['--profile', 'headless', 'Read the notes.'], { home, cwd, baseUrl: server.url, cli, pnpmBin })
    await server.close()
    expect(run.code, run.stderr).toBe(0)
    expect(storedNotices(sessionEvents(home, cwd)).map(notice => notice.summary)).toContain('read × 14, same result')
    // docs/install.md's command for where a user stands before the package is on the registry.
    const bin = join(home, 'profiles/headless/node_modules/.bin/dsh-brake')
    const env = { ...process.env, DSH_HOME: home, PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` }
    const doctor = spawnSync(bin, ['doctor', '--profile', 'headless'], { encoding: 'utf8', env, cwd })
    expect(doctor.stdout, doctor.stderr).toContain('ok       the dsh that runs this home has the Cordis packages DSH 0.1.0-rc.8 needs')
    expect(doctor.status, doctor.stdout).toBe(0)
  })
})
