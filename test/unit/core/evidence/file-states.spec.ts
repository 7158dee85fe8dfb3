import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ANY_FILE, shellEdits, toolEdits, type FileEdit } from '../../../../src/core/evidence/file-edits.ts'
import { createFileStates, MAX_CHANGES, MAX_FILES, ORIGINAL, type FileStates, type Visit } from '../../../../src/core/evidence/file-states.ts'

const EDIT = { file: 'file_path', old: 'old_string', new: 'new_string' }
const WRITE = { file: 'file_path', content: 'content' }

const ignore = (): void => {}

/** Apply `edit` to `files`; the files it moved, as they were heard. */
function moves(files: FileStates, edit: FileEdit, at: number): { file: string; entered: Visit; before: Visit | undefined }[] {
  const heard: { file: string; entered: Visit; before: Visit | undefined }[] = []
  files.apply(edit, at, (file, entered, before) => heard.push({ file, entered, before }))
  return heard
}

/** Apply every edit of each command line in order; the state `file` ends in after each one. */
function statesAfter(commands: readonly (string | FileEdit[])[], file = 'app.py', files: FileStates = createFileStates()): number[] {
  return commands.map((command, at) => {
    for (const edit of typeof command === 'string' ? shellEdits(command) : command) files.apply(edit, at + 1, ignore)
    return files.current(file)?.state ?? ORIGINAL
  })
}

describe('the state of a file', () => {
  it('comes back when a debug print is inserted, deleted by its line, and inserted at the same spot again', () => {
    const [inserted, deleted, again] = statesAfter([
      "sed -i '32i\\        print(f\"DEBUG: code={code}\")' app.py", "sed -i '32d' app.py", "sed -i '31a\\        print(f\"DEBUG: code={code}\")' app.py",
    ])
    expect(inserted).not.toBe(ORIGINAL)
    expect(deleted).toBe(ORIGINAL)
    expect(again).toBe(inserted)
  })

  it('comes back when inserted lines are deleted by a pattern that matches them', () => {
    const states = statesAfter([
      "sed -i '/def run/a \\    print(\"DEBUG: a\")' app.py", "sed -i '/DEBUG: a/a \\    print(\"DEBUG: b\")' app.py", "sed -i '/DEBUG:/d' app.py",
    ])
    expect(states.at(-1)).toBe(ORIGINAL)
    // A pattern as sed reads it: `.` and `*` match, a parenthesis is itself.
    expect(statesAfter(["sed -i '/x/a \\    print(\"DEBUG: a\")' app.py", "sed -i '/print(.*DEBUG/d' app.py"]).at(-1)).toBe(ORIGINAL)
  })

  it('comes back when a replacement is undone, and by a write of the same content, or a checkout', () => {
    const forth = toolEdits(EDIT, { file_path: 'app.py', old_string: 'return a / b', new_string: 'return None if b == 0 else a / b' })
    const back = toolEdits(EDIT, { file_path: 'app.py', old_string: 'return None if b == 0 else a / b', new_string: 'return a / b' })
    const [there, undone, redone] = statesAfter([forth, back, forth])
    expect(undone).toBe(ORIGINAL)
    expect(redone).toBe(there)
    const written = statesAfter([toolEdits(WRITE, { file_path: 'app.py', content: 'v1' }), toolEdits(WRITE, { file_path: 'app.py', content: 'v2' }),
      toolEdits(WRITE, { file_path: 'app.py', content: 'v1' }), 'git checkout app.py'])
    expect(written[2]).toBe(written[0])
    expect(written[1]).not.toBe(written[0])
    expect(written[3]).toBe(ORIGINAL)
  })

  it('comes back when printf writes one content, then another, then the first again', () => {
    const [one, two, again] = statesAfter(["printf 'if x:\\n    y = 1\\n' > app.py", "printf 'y = 0\\n' > app.py", "printf 'if x:\\n    y = 1\\n' > app.py"])
    expect(two).not.toBe(one)
    expect(again).toBe(one)
  })

  it('comes back when a backup is copied back, or a file moved away and back', () => {
    const backup = statesAfter(['cp app.py app.py.bak', "sed -i 's/a/b/' app.py", 'cp app.py.bak app.py'])
    expect(backup[1]).not.toBe(ORIGINAL)
    expect(backup[2]).toBe(ORIGINAL)
    const kept = statesAfter(["sed -i 's/a/b/' app.py", 'cp app.py /tmp/v2.py', 'git checkout app.py', 'cp /tmp/v2.py app.py'])
    expect(kept[3]).toBe(kept[0])
    expect(statesAfter(['mv app.py app.old', 'mv app.old app.py']).at(-1)).toBe(ORIGINAL)
    // Another file's content is not this file's.
    expect(statesAfter(['cp other.py app.py']).at(-1)).not.toBe(ORIGINAL)
  })

  it('does not keep, after a write of the whole file, the changes made before it', () => {
    const states = statesAfter([toolEdits(WRITE, { file_path: 'app.py', content: 'v1' }),
      toolEdits(EDIT, { file_path: 'app.py', old_string: 'a', new_string: 'b' }), toolEdits(WRITE, { file_path: 'app.py', content: 'v1' })])
    expect(states[2]).toBe(states[0])
  })

  it(`starts afresh past ${MAX_CHANGES} changes, and comes back there when an edit made after is undone`, () => {
    const insertions = Array.from({ length: MAX_CHANGES + 1 }, (_, n): FileEdit[] => [{ file: 'app.py', kind: 'insert', text: `print(${n})`, line: undefined }])
    const states = statesAfter([...insertions, toolEdits(EDIT, { file_path: 'app.py', old_string: 'x', new_string: 'y' }),
      toolEdits(EDIT, { file_path: 'app.py', old_string: 'y', new_string: 'x' })])
    expect(states.at(-1)).toBe(states[MAX_CHANGES])
  })

  it(`forgets the changes past ${MAX_CHANGES}: deleting the latest inserted line then brings no state back`, () => {
    const insertions = Array.from({ length: MAX_CHANGES + 1 }, (_, n): FileEdit[] => [{ file: 'app.py', kind: 'insert', text: `print(${n})`, line: undefined }])
    const latest: FileEdit[] = [{ file: 'app.py', kind: 'delete', pattern: `print(${MAX_CHANGES})`, line: undefined }]
    const states = statesAfter([...insertions, latest])
    expect(new Set(states).size).toBe(states.length)
  })

  it('does not come back from an edit it cannot read, nor from deleting a line it did not see inserted', () => {
    const states = statesAfter(["sed -i 's/a/b/' app.py", "sed -i '3c\\x' app.py", "sed -i 's/b/a/' app.py"])
    expect(new Set([ORIGINAL, ...states]).size).toBe(4)
    const deletions = statesAfter(["sed -i '12d' app.py", "sed -i '12d' app.py"])
    expect(new Set([ORIGINAL, ...deletions]).size).toBe(3)
    // A second insertion of the same line is another line: the file is not where it was after the first.
    const twice = statesAfter(["sed -i '/x/a \\    print(1)' app.py", "sed -i '/x/a \\    print(1)' app.py"])
    expect(twice[1]).not.toBe(twice[0])
  })

  it('tells where a file had been: the earlier stay in the state it comes back to', () => {
    const files = createFileStates()
    expect(moves(files, shellEdits("sed -i 's/a/b/' app.py")[0]!, 1)).toEqual([{ file: 'app.py', entered: expect.objectContaining({ leftAt: Infinity }) as unknown, before: undefined }])
    files.apply(shellEdits("sed -i 's/b/a/' app.py")[0]!, 2, ignore)
    const [moved] = moves(files, shellEdits("sed -i 's/a/b/' app.py")[0]!, 3)
    expect(moved!.before).toMatchObject({ leftAt: 2 })
    // The same file named another way is the same file; a change to any file moves every file known.
    expect(files.current('./app.py')).toBe(moved!.entered)
    expect(moves(files, { file: ANY_FILE, kind: 'restore' }, 4)).toEqual([expect.objectContaining({ file: 'app.py' })])
    expect(files.current('app.py')!.state).toBe(ORIGINAL)
  })

  it('tells each file an edit of any file moves, and none an edit that leaves its file where it was', () => {
    const files = createFileStates()
    files.apply(shellEdits("sed -i 's/a/b/' a.py")[0]!, 1, ignore)
    files.apply(shellEdits("sed -i 's/a/b/' ././b.py")[0]!, 2, ignore)
    files.apply(shellEdits('git checkout c.py')[0]!, 3, ignore)
    // c.py is in its original state already: only a.py and b.py move, in the order they were last edited.
    expect(moves(files, { file: ANY_FILE, kind: 'restore' }, 4).map(move => [move.file, move.entered.state, move.before?.leftAt])).toEqual([
      ['a.py', ORIGINAL, 1], ['b.py', ORIGINAL, 2],
    ])
    expect(files.current('b.py')).toMatchObject({ state: ORIGINAL, leftAt: Infinity })
    expect(moves(files, { file: ANY_FILE, kind: 'restore' }, 5)).toEqual([])
    const written = toolEdits(WRITE, { file_path: 'a.py', content: 'v1' })[0]!
    expect(moves(files, written, 6)).toHaveLength(1)
    expect(moves(files, written, 7)).toEqual([])
    // Every file that can move does, one state each, even a file the edit names no other way.
    expect(moves(files, { file: ANY_FILE, kind: 'other' }, 8).map(move => move.file)).toEqual(['b.py', 'c.py', 'a.py'])
    expect(new Set(['a.py', 'b.py', 'c.py'].map(file => files.current(file)!.state)).size).toBe(3)
  })

  it('stays within its bounds, whatever the edits', () => {
    const edit = fc.oneof(
      fc.nat(100).map(n => `sed -i 's/a${n % 7}/b${n % 5}/' f${n % 90}.py`),
      fc.nat(100).map(n => `sed -i '${n % 40}i\\ line ${n % 3}' f${n % 90}.py`),
      fc.nat(100).map(n => `sed -i '${n % 40}d' f${n % 90}.py`),
      fc.nat(100).map(n => `git checkout f${n % 90}.py`),
      fc.constant('git stash'),
    )
    fc.assert(fc.property(fc.array(edit, { maxLength: 300 }), (commands) => {
      const files = createFileStates()
      commands.forEach((command, at) => {
        for (const change of shellEdits(command)) files.apply(change, at, ignore)
        expect(files.size).toBeLessThanOrEqual(MAX_FILES)
      })
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 100) })
  })
})
