/**
 * The labelling rule's facts of a call: which shell commands write files, and which parts of a result are volatile.
 * The evaluation's figures and `dsh-brake analyze`'s "loops found" both stand on them.
 */
import { describe, expect, it } from 'vitest'
import { normalizeOutcome, shellWrites } from '../../../../src/replay/label/facts.ts'

describe('edits and outcomes', () => {
  it.each([
    ['a redirect', 'cd /testbed && python x.py > out.txt', true],
    ['/dev/null and 2>&1 are not', 'cd /testbed && timeout 30 python x.py > /dev/null 2>&1', false],
    ['a quoted > is not', 'grep -n "a > b" f.py', false],
    ['sed -i behind prefixes', 'cd /x && env A=1 sudo sed -i "s/a/b/" f.py', true],
    ['sed -n is not', "sed -n '1,20p' f.py", false],
    ['a heredoc into a file', "cat <<'EOF' > t.py\nprint(1 > 0)\nEOF", true],
    ['a python heredoc that writes', "python - <<'PY'\nopen('f.py', 'w').write(s)\nPY", true],
    ['a python heredoc that reads', "python - <<'PY'\nprint(open('f.py').read())\nPY", false],
    ['git apply', 'git apply p.diff', true],
    ['pip install', 'pip install -e .', true],
    ['tee', 'echo x | tee f', true],
    ['git diff is not', 'git diff && git status', false],
  ])('shell edit: %s', (_name, command, writes) => {
    expect(shellWrites(command)).toBe(writes)
  })

  it('blanks the volatile parts of an outcome', () => {
    expect(normalizeOutcome('at 0x7f3a2b 12:01:02 2024-05-01 took 3.2s 45% /tmp/pytest-12/x')).toBe('at <hex> <time> <date> took <dur> <pct> <tmp>')
  })
})
