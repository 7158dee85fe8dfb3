/**
 * The `dsh-brake` command's own flags, as a user runs the built command (`dist/cli/main.js`, built by `npm test`).
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../../scripts/paths.ts'

const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version

function command(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js'), ...args], (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr })
    })
  })
}

describe('dsh-brake --version', () => {
  it.each(['--version', '-v'])('%s prints the package\'s version and exits 0', async (flag) => {
    expect(await command(flag)).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
  })

  it('is in the usage', async () => {
    const { code, stdout } = await command('--help')
    expect(code).toBe(0)
    expect(stdout.split('\n').slice(0, 2)).toEqual(['usage: dsh-brake <command> [options]', '       dsh-brake --version'])
  })
})

describe('dsh-brake with a bad command line', () => {
  it('without a command: one line saying a command is missing, then the usage, exit code 2', async () => {
    const { code, stdout, stderr } = await command()
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr.split('\n')[0]).toBe('dsh-brake: no command given: name one of analyze, doctor (dsh-brake --help shows them)')
    expect(stderr).toContain('usage: dsh-brake <command> [options]')
  })

  it('an unknown command: one line naming it, exit code 2', async () => {
    expect(await command('analyse')).toEqual({ code: 2, stdout: '', stderr: 'dsh-brake: unknown command `analyse` (commands: analyze, doctor; see --help)\n' })
  })
})
