/**
 * A config file `dsh-brake analyze` (and the evaluation) cannot use is a file error like any other (a session log, a
 * path that names nothing): it names the file as the flag gave it and says what is wrong; what that means for the
 * command (bad input, exit 2) is the command's business, not the reader's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readConfigFile } from '../../../src/analyze/config-file.ts'
import { FileError } from '../../../src/errors/file-errors.ts'
import { UsageError } from '../../../src/errors/usage-error.ts'
import { decodeSessionLog } from '../../../src/session-logs/decode.ts'
import { sessionFiles } from '../../../src/session-logs/find.ts'

const dir = mkdtempSync(join(tmpdir(), 'dsh-brake-config-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('nothing thrown')
}

describe('a config file that cannot be used', () => {
  it.each([
    ['missing.yml', undefined, 'cannot be read (ENOENT)'],
    ['bad.yml', 'callWarnCount: [', /^not valid YAML \(line \d+: /],
    ['list.yml', '- a\n- b\n', 'expected a map of dsh-brake config keys, or a profile patch with a `dsh-brake` row'],
    ['strict.yml', 'callWarnCount: 12\ncallDenyCount: 10\n', '`callDenyCount` must be greater than `callWarnCount` (12), got 10'],
  ] as const)('%s: a file error naming the file as the flag gave it', (name, text, problem) => {
    const file = join(dir, name)
    if (text !== undefined) writeFileSync(file, text)
    const error = thrown(() => readConfigFile(file, '--compare', 'dsh-brake'))
    expect(error).toBeInstanceOf(FileError)
    expect(error).not.toBeInstanceOf(UsageError)
    expect((error as FileError).file).toBe(file)
    expect((error as FileError).problem).toMatch(problem)
    expect((error as FileError).message).toBe(`\`--compare\` file ${file}: ${(error as FileError).problem}`)
  })

  it('is the same error as a session log that cannot be read and a path that names nothing', () => {
    expect(thrown(() => decodeSessionLog('empty.zstd', Buffer.alloc(0)))).toMatchObject({ file: 'empty.zstd', problem: 'is empty, not a session log' })
    expect(thrown(() => decodeSessionLog('empty.zstd', Buffer.alloc(0)))).toBeInstanceOf(FileError)
    const nowhere = join(dir, 'nowhere')
    const error = thrown(() => sessionFiles(nowhere))
    expect(error).toBeInstanceOf(FileError)
    expect(error).toMatchObject({ file: nowhere, message: `\`${nowhere}\`: no such file or folder` })
  })
})
