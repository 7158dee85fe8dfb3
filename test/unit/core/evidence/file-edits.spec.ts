import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ABSENT, ANY_FILE, MAX_EDITS, shellEdits, simpleCommandEdits, TEXT_CHARS, toolEdits, type FileEdit } from '../../../../src/core/evidence/file-edits.ts'
import { simpleCommands } from '../../../../src/core/identity/shell-command.ts'
import { fingerprint } from '../../../../src/core/tables/fingerprint.ts'

const replace = (file: string, old: string, by: string): FileEdit => ({ file, kind: 'replace', old: fingerprint(old), new: fingerprint(by) })
const write = (file: string, content: string): FileEdit => ({ file, kind: 'content', content: fingerprint(content) })
const insert = (file: string, text: string, line?: number): FileEdit => ({ file, kind: 'insert', text, line })
/** An edit that only puts in or takes out a debug print. */
const probe = (edit: FileEdit): FileEdit => ({ ...edit, probe: true } as FileEdit)
const other = (file: string): FileEdit => ({ file, kind: 'other' })

describe('the edits of a file tool', () => {
  const editFields = { file: 'file_path', old: 'old_string', new: 'new_string' }
  const editorFields = { file: 'path', content: 'file_text', old: 'old_str', new: 'new_str' }

  it('reads the file and the text written or replaced, as the policy names them', () => {
    expect(toolEdits({ file: 'file_path', content: 'content' }, { file_path: 'a.py', content: 'x = 1\n' })).toEqual([write('a.py', 'x = 1\n')])
    expect(toolEdits(editFields, { file_path: 'a.py', old_string: 'x', new_string: 'y' })).toEqual([replace('a.py', 'x', 'y')])
    expect(toolEdits(editorFields, { command: 'create', path: '/r/a.py', file_text: 'x' })).toEqual([write('/r/a.py', 'x')])
    expect(toolEdits(editorFields, { command: 'insert', path: '/r/a.py', insert_line: 3, new_str: 'print(x)' })).toEqual([probe(insert('/r/a.py', 'print(x)'))])
  })

  it('takes an edit it cannot read as a change to the file, or to any file when the file is not named', () => {
    expect(toolEdits(editorFields, { command: 'undo_edit', path: '/r/a.py' })).toEqual([other('/r/a.py')])
    expect(toolEdits(editFields, { old_string: 'x', new_string: 'y' })).toEqual([other(ANY_FILE)])
    expect(toolEdits(editFields, 'not an object')).toEqual([other(ANY_FILE)])
  })

  it('takes a text argument that is no text (a number, say) as an edit it cannot read', () => {
    expect(toolEdits({ file: 'file_path', content: 'content' }, { file_path: 'a.py', content: 42 })).toEqual([other('a.py')])
    expect(toolEdits(editFields, { file_path: 'a.py', old_string: 1, new_string: 2 })).toEqual([other('a.py')])
  })
})

describe('the edits of a shell command', () => {
  it.each<[string, FileEdit[]]>([
    // sed: substitutions, insertions (a line number says where), deletions by line or pattern, each on each file.
    ["sed -i 's/timeout=5/timeout=30/' src/client.py", [replace('src/client.py', 'timeout=5', 'timeout=30')]],
    ["sed -i -e 's|a/b|c|g' -e '12d' x.py y.py", [
      replace('x.py', 'a/b', 'c'), { file: 'x.py', kind: 'delete', line: 12, pattern: undefined },
      replace('y.py', 'a/b', 'c'), { file: 'y.py', kind: 'delete', line: 12, pattern: undefined },
    ]],
    // Debug prints put in or taken out are told apart: instrumentation, not an attempt at a fix.
    ["sed -i '32i\\        print(f\"DEBUG: {x}\")' app.py", [probe(insert('app.py', 'print(f"DEBUG: {x}")', 32))]],
    ["sed -i '31a\\        print(f\"DEBUG: {x}\")' app.py", [probe(insert('app.py', 'print(f"DEBUG: {x}")', 32))]],
    ["sed -i '/def run/a \\    print(1)' app.py", [probe(insert('app.py', 'print(1)', undefined))]],
    ["sed -i '/DEBUG:/d' app.py", [probe({ file: 'app.py', kind: 'delete', line: undefined, pattern: 'DEBUG:' })]],
    ["sed -i 's/x = 1/x = 1; print(x)/' app.py", [probe(replace('app.py', 'x = 1', 'x = 1; print(x)'))]],
    ["sed -i '32d;34,35d' app.py", [{ file: 'app.py', kind: 'delete', line: 32, pattern: undefined }, { file: 'app.py', kind: 'delete', line: undefined, pattern: undefined }]],
    ["sed -i '3c\\new line' app.py", [other('app.py')]],
    ["sed -n '1,5p' app.py", []],
    ['sed -i -f fix.sed app.py', [other('app.py')]],
    // Heredocs and echo written into a file are its whole content; appended, an insertion; anything else unseen.
    ["cat <<'EOF' > repro.py\nprint(1)\nEOF\npython repro.py", [write('repro.py', 'print(1)\n')]],
    ['cat >> notes.txt <<EOF\nmore\nEOF', [insert('notes.txt', 'more\n')]],
    ['echo "x = 1" > a.py', [write('a.py', 'x = 1\n')]],
    // printf, and echo with options, are their words: the same command, the same content, unexpanded.
    ["printf 'x = %d\\n' 1 > a.py", [write('a.py', '\u0000printf\u0000x = %d\\n\u00001')]],
    ['echo -e "a\\tb" > a.py', [write('a.py', '\u0000echo\u0000-e\u0000a\\tb')]],
    // A program's output captured into a file, or through tee, and anything written into a log: a log of the run. Text
    // given as it is (a heredoc, echo, a filter), written through tee or a redirect: a file written.
    ['python gen.py > out.txt', [{ file: 'out.txt', kind: 'other', log: true }]],
    ['nohup python serve.py > nohup.out 2>&1 &', [{ file: 'nohup.out', kind: 'other', log: true }]],
    ['python x.py 2>&1 | tee out.txt', [{ file: 'out.txt', kind: 'other', log: true }]],
    ['echo "run 3" >> runs.log && python x.py', [{ file: 'runs.log', kind: 'other', log: true }]],
    ['echo "[tool]" | sudo tee -a setup.cfg', [{ file: 'setup.cfg', kind: 'other' }]],
    ["cat <<'EOF' | tee scripts/x.py\nprint(1)\nEOF", [{ file: 'scripts/x.py', kind: 'other' }]],
    ["sed 's/a/b/' app.py > new.py", [{ file: 'new.py', kind: 'other' }]],
    ['timeout 60 python train.py > train.log 2>&1', [{ file: 'train.log', kind: 'other', log: true }]],
    ['python x.py | tee -a run.log /dev/stderr', [{ file: 'run.log', kind: 'other', log: true }]],
    ['cat a.py b.py > c.py', [other('c.py')]],
    // git: back to the committed version, or anything changed.
    ['git checkout django/db/base.py && python3 apply_fix.py', [{ file: 'django/db/base.py', kind: 'restore' }]],
    ['git checkout -- a.py b.py', [{ file: 'a.py', kind: 'restore' }, { file: 'b.py', kind: 'restore' }]],
    ['git checkout .', [other(ANY_FILE)]],
    ['git restore .', [{ file: ANY_FILE, kind: 'restore' }]],
    ['git checkout main', [other(ANY_FILE)]],
    ['git stash', [{ file: ANY_FILE, kind: 'restore' }]],
    ['git stash pop', [other(ANY_FILE)]],
    ['git reset --hard HEAD', [{ file: ANY_FILE, kind: 'restore' }]],
    ['git apply /tmp/fix.patch', [other(ANY_FILE)]],
    ['git add -A && git commit -m wip', []],
    // Files removed, moved, copied.
    ['rm -f a.py b.py', [{ file: 'a.py', kind: 'content', content: ABSENT }, { file: 'b.py', kind: 'content', content: ABSENT }]],
    ['mv a.py.tmp a.py', [{ file: 'a.py', kind: 'copy', from: 'a.py.tmp' }, { file: 'a.py.tmp', kind: 'content', content: ABSENT }]],
    ['mv a.py b.py src/', [{ file: 'a.py', kind: 'content', content: ABSENT }, { file: 'b.py', kind: 'content', content: ABSENT }, other('src/')]],
    ['cp a.py b.py', [{ file: 'b.py', kind: 'copy', from: 'a.py' }]],
    ['cp -r a.py b.py lib/', [other('lib/')]],
    ['patch -p1 < fix.diff', [other(ANY_FILE)]],
    ['pip install -e .', []],
    // The other programs read, and a program no edit is read from, alone or among others.
    ['ln -sf target link && touch a.py && truncate -s 0 b.log && dd if=/dev/zero of=c.bin', [other('link'), other('a.py'), other('b.log'), other('of=c.bin')]],
    ['perl -pi -e s/a/b/ x.pl y.pl', [other('x.pl'), other('y.pl')]],
    ['perl script.pl x.pl', []],
    ['unzip pkg.zip', [other(ANY_FILE)]],
    ['tar -xzf pkg.tgz', [other(ANY_FILE)]],
    ['mv a.py', []],
    ['touch', []],
    ['cd /repo && python fix.py && rm -f out.txt', [{ file: 'out.txt', kind: 'content', content: ABSENT }]],
  ])('%j', (command, expected) => {
    expect(shellEdits(command)).toEqual(expected)
    // The same edits from the command line as already read.
    expect(simpleCommandEdits(simpleCommands(command))).toEqual(expected)
  })

  it('keeps an inserted text to TEXT_CHARS, and takes too many edits as any file changed', () => {
    const [edit] = shellEdits(`sed -i '3i\\${'x'.repeat(1000)}' a.py`)
    expect(edit).toMatchObject({ kind: 'insert', text: 'x'.repeat(TEXT_CHARS) })
    const many = Array.from({ length: MAX_EDITS + 1 }, (_, i) => `rm f${i}.py`).join(' && ')
    expect(shellEdits(many)).toEqual([other(ANY_FILE)])
  })

  it('never throws, whatever the command', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (command) => {
      expect(Array.isArray(shellEdits(`sed -i ${command}`))).toBe(true)
      expect(Array.isArray(shellEdits(command))).toBe(true)
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 500) })
  })
})
