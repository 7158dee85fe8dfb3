/**
 * Finding session logs under a path: a log itself, every log under a folder in path order, a DSH home's `sessions/`
 * folder; a path that names nothing is the finder's own error, which the command turns into bad input.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { NoSuchPathError, SESSION_LOG_NAME, sessionFiles, walkSessionFiles } from '../../../src/session-logs/find.ts'

const root = mkdtempSync(join(tmpdir(), 'dsh-brake-find-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Empty files at `paths` under `dir` (the finder goes by name, not content); returns their full paths. */
function touch(dir: string, ...paths: string[]): string[] {
  return paths.map((path) => {
    const file = join(dir, path)
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, '')
    return file
  })
}

describe('finding session logs', () => {
  it('finds every log under a folder, in path order, and nothing else', () => {
    const dir = join(root, 'folder')
    const [b, a, nested] = touch(dir, `b/${SESSION_LOG_NAME}`, `a/${SESSION_LOG_NAME}`, `a/sub/${SESSION_LOG_NAME}`)
    touch(dir, 'a/notes.txt', `c/${SESSION_LOG_NAME}.bak`)
    expect(sessionFiles(dir)).toEqual([a, nested, b])
  })

  it('reads a DSH home\'s sessions/ folder only, leaving its profiles alone', () => {
    const home = join(root, 'home')
    const [log] = touch(home, `sessions/--work--/s1/${SESSION_LOG_NAME}`, `profiles/default/${SESSION_LOG_NAME}`)
    expect(sessionFiles(home)).toEqual([log])
  })

  it('takes a file for a log, whatever its name', () => {
    const [file] = touch(root, 'single/exported.zstd')
    expect(sessionFiles(file!)).toEqual([file])
  })

  it('finds none in a folder without logs, without an error', () => {
    mkdirSync(join(root, 'empty'))
    expect(sessionFiles(join(root, 'empty'))).toEqual([])
  })

  it('walks folder by folder, as the logs are read', () => {
    const dir = join(root, 'walked')
    const [first] = touch(dir, `1/${SESSION_LOG_NAME}`)
    mkdirSync(join(dir, '2'))
    const walk = walkSessionFiles(dir)[Symbol.iterator]()
    expect(walk.next().value).toBe(first)
    // A log written into a folder the walk has not entered yet is found: that folder was not listed ahead of time.
    const [second] = touch(dir, `2/${SESSION_LOG_NAME}`)
    expect([walk.next().value, walk.next().done]).toEqual([second, true])
  })

  it('says at once that a path names nothing, with an error of its own naming the path', () => {
    const missing = join(root, 'nowhere')
    let thrown: unknown
    try {
      walkSessionFiles(missing)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(NoSuchPathError)
    expect(thrown).toMatchObject({ file: missing, message: `\`${missing}\`: no such file or folder` })
  })
})
