import { describe, expect, it } from 'vitest'
import { createSameFailureDetector, MAX_GAP } from '../../../../src/core/detectors/same-failure.ts'
import type { CallObservation } from '../../../../src/core/types.ts'
import type { SameFailureFinding } from '../../../../src/core/kinds.ts'
import { callOf, checkOf, editOf, observeAll, shellEditOf } from '../../../support/observations.ts'

const detector = (first = 3, every = 5, maxTracked = 16) => createSameFailureDetector({ schedule: { first, every }, maxTracked })

const RUN = 'cd /repo && python reproduce.py'
/** The reproduction script's output: the NameError raised in the module the agent edited before, whatever the script. */
const nameError = (line: number, call = 'connection.check_constraints(table_names=["order"])'): string =>
  `Attempting to check constraints...\nTraceback (most recent call last):\n  File "reproduce.py", line ${line}, in <module>\n    ${call}\n` +
  '  File "/repo/django/db/backends/sqlite3/base.py", line 331, in <genexpr>\n    for table_name in table_names\nNameError: name \'connection\' is not defined\n'
const rewrite = (n: number): CallObservation => editOf('reproduce.py', `# attempt ${n}`, `# attempt ${n + 1}`)
const run = (output: string, failed = false): CallObservation => checkOf(RUN, output, failed)
const read = callOf('read', { file_path: 'reproduce.py' }, { kind: 'read' })

/** The finding at each call, or `-` for none. */
const found = (calls: readonly CallObservation[], options?: Parameters<typeof detector>): (SameFailureFinding | '-')[] =>
  observeAll(detector(...options ?? []), calls).map(finding => finding ?? '-')

describe('the same failure after every fix', () => {
  it('is told at the third run failing identically, each after a rewrite that left the failure\'s file alone', () => {
    expect(found([run(nameError(15)), rewrite(1), run(nameError(24)), rewrite(2), read, run(nameError(26, 'db.check_constraints()'))])).toEqual([
      '-', '-', '-', '-', '-',
      {
        kind: 'same-failure', tool: 'bash', args: JSON.stringify({ command: RUN }), count: 3, failure: "NameError: name 'connection' is not defined",
        origin: '/repo/django/db/backends/sqlite3/base.py', edited: ['reproduce.py'],
      },
    ])
  })

  it('is told again every `every` further runs, naming the files edited latest first', () => {
    const calls = [run(nameError(15))]
    for (let n = 1; n <= 8; n++) calls.push(n === 7 ? editOf('notes.md', 'a', 'b') : rewrite(n), run(nameError(15)))
    const told = found(calls).map((finding, at) => finding === '-' ? '-' : `${at}: ${finding.count} ${finding.edited.join(' ')}`).filter(said => said !== '-')
    expect(told).toEqual(['4: 3 reproduce.py', '14: 8 notes.md reproduce.py'])
  })

  it('counts a plain re-run neither as a round nor as a break', () => {
    const calls = [run(nameError(15)), rewrite(1), run(nameError(15)), run(nameError(15)), rewrite(2), run(nameError(15))]
    expect(found(calls).at(-1)).toMatchObject({ count: 3 })
  })

  it('lets an edit at the failure\'s file break only the round it was made in, not the rounds after', () => {
    const calls = [run(nameError(15)), editOf('/repo/django/db/backends/sqlite3/base.py', 'x', 'y'), run(nameError(15)),
      rewrite(1), run(nameError(15)), rewrite(2), run(nameError(15))]
    expect(found(calls).map(finding => finding === '-' ? '-' : finding.count)).toEqual(['-', '-', '-', '-', '-', '-', 3])
  })

  it('takes a failed edit at the failure\'s file for an edit only when its change stands (a shell change before the part that failed)', () => {
    const failedEdit = (changeStands: boolean): CallObservation => editOf('/repo/django/db/backends/sqlite3/base.py', 'x', 'y', { failed: true, changeStands })
    const rounds = (edit: CallObservation): CallObservation[] => [
      run(nameError(15)), rewrite(1), run(nameError(15)), rewrite(2), edit, run(nameError(15)),
    ]
    expect(found(rounds(failedEdit(false))).at(-1)).toMatchObject({ count: 3 })
    expect(found(rounds(failedEdit(true))).at(-1)).toBe('-')
  })

  // ── traps: real work ──
  it.each<[string, CallObservation[]]>([
    ['fix → test → fix where the failure changes', [
      checkOf('pytest -x', 'E   assert divide(1, 0) is None\nE   ZeroDivisionError: division by zero\n1 failed, 7 passed in 0.31s\n', true),
      editOf('src/calc.py', 'return a / b', 'return None if b == 0 else a / b'),
      checkOf('pytest -x', 'E   AssertionError: assert divide(4, 2) == 2.0\n1 failed, 7 passed in 0.29s\n', true),
      editOf('src/calc.py', 'return None if b == 0 else a / b', 'return None if b == 0 else a / b * 1.0'),
      checkOf('pytest -x', 'E   TypeError: unsupported operand type(s)\n1 failed, 7 passed in 0.30s\n', true),
      editOf('src/calc.py', 'a / b * 1.0', 'float(a) / b'),
      checkOf('pytest -x', '8 passed in 0.30s\n'),
    ]],
    ['edits to the file the failure is raised in: working at its cause', [
      run(nameError(15)), editOf('/repo/django/db/backends/sqlite3/base.py', 'x', 'y'), run(nameError(15)),
      editOf('django/db/backends/sqlite3/base.py', 'y', 'z'), run(nameError(15)),
    ]],
    ['edits the brake cannot place (a patch) may be aimed at the cause', [
      run(nameError(15)), shellEditOf('git apply /tmp/fix-1.patch'), run(nameError(15)), shellEditOf('git apply /tmp/fix-2.patch'), run(nameError(15)),
    ]],
    ['another check between the runs: another problem worked on', [
      run(nameError(15)), rewrite(1), checkOf('python -c "import django"', ''), run(nameError(15)), rewrite(2), run(nameError(15)),
    ]],
    ['a run that passes in between', [run(nameError(15)), rewrite(1), run('ok\n'), rewrite(2), run(nameError(15)), rewrite(3), run(nameError(15))]],
    ['a failed edit is no change', [run(nameError(15)), editOf('reproduce.py', 'a', 'b', { failed: true }), run(nameError(15)), rewrite(2), run(nameError(15))]],
    ['a failure told only by an exception the output went on after', [
      run(`${nameError(15)}PASS: done\n`), rewrite(1), run(`${nameError(15)}PASS: done\n`), rewrite(2), run(`${nameError(15)}PASS: done\n`),
    ]],
    ['runs too far apart', [run(nameError(15)), rewrite(1), ...Array.from({ length: MAX_GAP }, () => read), run(nameError(15)), rewrite(2), run(nameError(15))]],
  ])('stays quiet: %s', (_, calls) => {
    expect(found(calls).filter(finding => finding !== '-')).toEqual([])
  })

  it('keeps at most `maxTracked` checks, and forgets everything on reset', () => {
    const sameFailures = detector(3, 5, 2)
    const checks = ['a', 'b', 'c'].map(name => checkOf(`python ${name}.py`, 'ValueError: bad\n', true))
    observeAll(sameFailures, checks)
    expect(sameFailures.size()).toEqual({ failingChecks: 2, editsSinceCheck: 0 })
    observeAll(sameFailures, [rewrite(1)])
    expect(sameFailures.size()).toEqual({ failingChecks: 2, editsSinceCheck: 1 })
    sameFailures.reset()
    expect(sameFailures.size()).toEqual({ failingChecks: 0, editsSinceCheck: 0 })
  })
})
