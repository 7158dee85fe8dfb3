import { describe, expect, it } from 'vitest'
import { createEditRevertDetector, EDITS_KEPT, SPAN } from '../../../../src/core/detectors/edit-revert.ts'
import type { CallObservation } from '../../../../src/core/types.ts'
import type { EditRevertFinding } from '../../../../src/core/kinds.ts'
import { callOf, checkOf, editOf, observeAll, shellEditOf } from '../../../support/observations.ts'

const detector = (maxTracked = 16) => createEditRevertDetector({ schedule: { first: 3, every: 5 }, maxTracked })
const found = (calls: readonly CallObservation[]): (EditRevertFinding | '-')[] => observeAll(detector(), calls).map(finding => finding ?? '-')
const told = (calls: readonly CallObservation[]): string[] =>
  found(calls).flatMap((finding, at) => finding === '-' ? [] : [`${at}: ${finding.evidence} ${finding.count} ${finding.file}`])

const RUN = 'python reproduce.py'
const DEBUG = '        print(f"DEBUG: init code={code}")'
/** The module no longer compiles: the debug print landed inside a multi-line raise. */
const syntaxError = 'Traceback (most recent call last):\n  File "/repo/reproduce.py", line 4, in <module>\n    from app import models\n' +
  '  File "/repo/app/models.py", line 30\n    f"{self.__class__.__name__}.__init__() missing 1 required keyword-only "\n    ^^^^^^^^^^^^^^\n' +
  'SyntaxError: invalid syntax. Perhaps you forgot a comma?\n'
const wrongCode = 'Caught ValidationError\nCode: None\nFAILURE: Did not find expected error code.\n'
const read = callOf('read', { file_path: 'app/models.py', offset: 25, limit: 11 }, { kind: 'read' })

describe('edits that undo each other', () => {
  it('are told when an edit undone is made again, nothing tried between, and the check fails as it did then', () => {
    const calls = [
      checkOf(RUN, wrongCode), shellEditOf(`sed -i '32i\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true), read,
      shellEditOf("sed -i '32d' app/models.py"), shellEditOf(`sed -i '31a\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true), read,
    ]
    expect(found(calls)).toEqual(['-', '-', '-', '-', '-', '-', {
      kind: 'edit-revert', evidence: 'redo', tool: 'bash', args: JSON.stringify({ command: RUN }), file: 'app/models.py', count: 2,
      failure: 'SyntaxError: invalid syntax. Perhaps you forgot a comma?',
    }, '-'])
  })

  it('are told when one version is written again by the same edit, by turns with another, each failing as it did', () => {
    const write = (body: string): CallObservation => shellEditOf(`printf '${body}' > app.py`)
    const unbound = checkOf('python3 app.py', 'Traceback (most recent call last):\n  File "/w/app.py", line 3, in add\n    total += n\nUnboundLocalError: local variable \'total\' referenced before assignment\n', true)
    const undefinedName = checkOf('python3 app.py', 'Traceback (most recent call last):\n  File "/w/app.py", line 2, in add\n    return total + n\nNameError: name \'total\' is not defined\n', true)
    const lap = [write('A'), unbound, write('B'), undefinedName]
    // Told at the first version made again; the laps after it are the same loop, told again `every` runs on.
    expect(told([...lap, ...lap])).toEqual(['5: redo 2 app.py'])
    expect(told([...lap, ...lap, ...lap, ...lap])).toEqual(['5: redo 2 app.py', '15: redo 2 app.py'])
  })

  it.each<[string, (write: (body: string) => CallObservation) => CallObservation[]]>([
    ['a revert to the committed version came between: the version tried again is a fresh start', write => [
      write('A'), checkOf(RUN, syntaxError, true), shellEditOf('git checkout app.py'), checkOf(RUN, wrongCode), write('A'), checkOf(RUN, syntaxError, true),
    ]],
    ['the version made again fails otherwise this time', write => [
      write('A'), checkOf(RUN, syntaxError, true), write('B'), checkOf(RUN, wrongCode), write('A'), checkOf(RUN, wrongCode),
    ]],
    ['another edit moved the file on before the check', write => [
      write('A'), checkOf(RUN, syntaxError, true), write('B'), checkOf(RUN, wrongCode), write('A'), write('C'), checkOf(RUN, syntaxError, true),
    ]],
  ])('stay quiet on a version written again when %s', (_, calls) => {
    expect(told(calls(body => shellEditOf(`printf '${body}' > app.py`)))).toEqual([])
  })

  it('count an edit whose call failed only when its change stands (a later command failed after it)', () => {
    const redoing = (over: { failed: boolean; changeStands: boolean }): CallObservation[] => [
      checkOf(RUN, wrongCode), shellEditOf(`sed -i '32i\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true),
      shellEditOf("sed -i '32d' app/models.py"), shellEditOf(`sed -i '31a\\${DEBUG}' app/models.py`, over), checkOf(RUN, syntaxError, true),
    ]
    expect(told(redoing({ failed: true, changeStands: true }))).toEqual(['5: redo 2 app/models.py'])
    // Not made: the file stays as the undo left it, so the failure that follows is not the edit made again.
    expect(told(redoing({ failed: true, changeStands: false }))).toEqual([])
  })

  it('are told the same after many earlier edits, each checked, at another file', () => {
    // More edits than a check waits on at once: each check lets go of the states it settled, or the latest go unheard.
    const earlier = Array.from({ length: 20 }, (_, n) => [editOf('app/other.py', `v${n}`, `v${n + 1}`), checkOf('python -c pass', `ok ${n}\n`)]).flat()
    const calls = [
      ...earlier, checkOf(RUN, wrongCode), shellEditOf(`sed -i '32i\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true),
      shellEditOf("sed -i '32d' app/models.py"), shellEditOf(`sed -i '31a\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true),
    ]
    expect(found(calls).at(-1)).toMatchObject({ evidence: 'redo', file: 'app/models.py' })
  })

  it.each<[string, CallObservation[]]>([
    ['something was tried between the undo and the redo', [
      shellEditOf(`sed -i '32i\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true), shellEditOf("sed -i '32d' app/models.py"),
      checkOf(RUN, wrongCode), shellEditOf(`sed -i '31a\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true),
    ]],
    ['the file comes back to how the agent found it: a clean-up', [
      editOf('app/models.py', 'x = 1', 'x = 2'), checkOf(RUN, syntaxError, true), editOf('app/models.py', 'x = 2', 'x = 1'), checkOf(RUN, syntaxError, true),
    ]],
    ['the edit made again fails otherwise', [
      shellEditOf(`sed -i '32i\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true), shellEditOf("sed -i '32d' app/models.py"),
      shellEditOf(`sed -i '31a\\${DEBUG}' app/models.py`), checkOf(RUN, 'NameError: name \'code\' is not defined\n', true),
    ]],
    ['an untested edit is taken back, and the check run again', [
      editOf('app/models.py', 'x = 1', 'x = 2'), checkOf(RUN, syntaxError, true), editOf('app/models.py', 'x = 2', 'x = 3'),
      editOf('app/models.py', 'x = 3', 'x = 2'), checkOf(RUN, syntaxError, true),
    ]],
    ['an edit the brake cannot read between', [
      shellEditOf(`sed -i '32i\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true), shellEditOf("sed -i '3c\\pass' app/models.py"),
      shellEditOf(`sed -i '31a\\${DEBUG}' app/models.py`), checkOf(RUN, syntaxError, true),
    ]],
  ])('stay quiet when %s', (_, calls) => {
    expect(told(calls)).toEqual([])
  })

  /** The linter run by the reproduction: it breaks the same way when the debug lines are in, and fails otherwise when not. */
  const indentation = (line: string): string => 'Running: pylint --recursive=y .\nSTDERR: Traceback (most recent call last):\n' +
    '  File "/repo/pylint/lint/__init__.py", line 22, in <module>\n    from pylint.lint.pylinter import PyLinter\n' +
    `  File "/repo/pylint/lint/pylinter.py", line 569\n    ${line}\nIndentationError: unexpected indent\n\nPASS: .a/foo.py was ignored\n`
  const lint = (rating: string): string => `************* Module reproduce\nreproduce.py:1:0: C0114: Missing module docstring\nYour code has been rated at ${rating}/10\n`
  const PROBE = 'cd reproduction && python3 reproduce.py'
  const insert = (text: string): CallObservation => shellEditOf(`sed -i '/def _discover_files/a \\        print(f"DEBUG: ${text}")' pylint/lint/pylinter.py`)
  const clean = shellEditOf("sed -i '/DEBUG:/d' pylint/lint/pylinter.py")

  it('are told when a failure the edits made go away comes back a second time, the edits at its file', () => {
    const calls = [
      checkOf(PROBE, indentation('print(f"DEBUG: root={root}")')), clean, checkOf(PROBE, lint('6.17'), true), insert('ignore={ignore}'),
      checkOf(PROBE, lint('6.17'), true), insert('visiting root={root}'), checkOf(PROBE, indentation('print(f"DEBUG: visiting root={root}")')), clean,
      insert('ignore: {ignore}'), checkOf(PROBE, lint('6.17'), true), insert('checking d={d!r}'), checkOf(PROBE, indentation('for d in dirs: print(d)')),
    ]
    expect(found(calls).at(-1)).toEqual({
      kind: 'edit-revert', evidence: 'back', tool: 'bash', args: JSON.stringify({ command: PROBE }), file: '', count: 3,
      failure: 'IndentationError: unexpected indent',
    })
    expect(told(calls)).toEqual(['11: back 3 '])
  })

  it(`count only edits among the latest ${EDITS_KEPT} as made between two runs`, () => {
    // One call editing `count` other files, after the latest edits at the failure's file.
    const elsewhere = (count: number): CallObservation => callOf('bash', { command: 'python3 rewrite.py' }, {
      kind: 'mutating', result: '', edits: Array.from({ length: count }, (_, i) => ({ file: `other${i}.py`, kind: 'replace' as const, old: i, new: i + 1 })),
    })
    const calls = (count: number): CallObservation[] => [
      checkOf(PROBE, indentation('print(f"DEBUG: root={root}")')), clean, checkOf(PROBE, lint('6.17'), true), insert('ignore={ignore}'),
      checkOf(PROBE, lint('6.17'), true), insert('visiting root={root}'), checkOf(PROBE, indentation('print(f"DEBUG: visiting root={root}")')), clean,
      insert('ignore: {ignore}'), checkOf(PROBE, lint('6.17'), true), insert('checking d={d!r}'), elsewhere(count), checkOf(PROBE, indentation('for d in dirs: print(d)')),
    ]
    // Six edits at the file before, the third the latest between the first two failing runs: the third forgotten.
    expect(told(calls(EDITS_KEPT - 6))).toEqual(['12: back 3 '])
    expect(told(calls(EDITS_KEPT - 4))).toEqual(['12: back 3 '])
    expect(told(calls(EDITS_KEPT - 3))).toEqual([])
    const editReverts = detector()
    observeAll(editReverts, calls(EDITS_KEPT + 5))
    expect(editReverts.size()['editsKept']).toBe(EDITS_KEPT)
  })

  it.each<[string, CallObservation[]]>([
    ['a test\'s failure hid behind syntax errors while a debug print was mended elsewhere', [
      checkOf('python test_fix.py', 'Traceback (most recent call last):\n  File "/repo/test_fix.py", line 19, in test_sum\n    assert np.isnan(res)\nAssertionError\n', true),
      editOf('xarray/core/nanops.py', 'a', 'b'), checkOf('python test_fix.py', syntaxError, true), editOf('xarray/core/nanops.py', 'b', 'c'),
      checkOf('python test_fix.py', 'Traceback (most recent call last):\n  File "/repo/test_fix.py", line 19, in test_sum\n    assert np.isnan(res)\nAssertionError\n', true),
      editOf('xarray/core/nanops.py', 'c', 'd'), checkOf('python test_fix.py', 'IndentationError: expected an indented block\n', true),
      editOf('xarray/core/nanops.py', 'd', 'e'),
      checkOf('python test_fix.py', 'Traceback (most recent call last):\n  File "/repo/test_fix.py", line 19, in test_sum\n    assert np.isnan(res)\nAssertionError\n', true),
    ]],
    ['a flaky test alternates with no edit between', Array.from({ length: 7 }, (_, i) => checkOf('npm test', i % 2 === 0 ? 'FAIL a.spec.ts\n' : 'ok\n', i % 2 === 0))],
    ['repairing self-inflicted syntax errors, each one different', [
      checkOf(RUN, syntaxError, true), editOf('app/models.py', 'a', 'b'),
      checkOf(RUN, '  File "/repo/app/models.py", line 144\n    and self.code == other.code\nIndentationError: unexpected indent\n', true),
      editOf('app/models.py', 'b', 'c'), checkOf(RUN, '  File "/repo/app/models.py", line 401\n    raise ValidationError(\nSyntaxError: \'(\' was never closed\n', true),
      editOf('app/models.py', 'c', 'd'), checkOf(RUN, "TypeError: __init__() got an unexpected keyword argument 'code'\n", true),
      editOf('app/models.py', 'd', 'e'), checkOf(RUN, wrongCode),
    ]],
    ['the failure comes back over a longer span than SPAN calls', [
      checkOf(PROBE, indentation('x')), clean, checkOf(PROBE, lint('6'), true), insert('a'), checkOf(PROBE, indentation('y')), clean,
      ...Array.from({ length: SPAN }, () => read), insert('b'), checkOf(PROBE, lint('6'), true), insert('c'), checkOf(PROBE, indentation('z')),
    ]],
  ])('stay quiet when %s', (_, calls) => {
    expect(told(calls)).toEqual([])
  })

  it('keep at most `maxTracked` checks, and forget everything on reset', () => {
    const editReverts = detector(2)
    observeAll(editReverts, [shellEditOf("sed -i 's/a/b/' x.py"), ...['a', 'b', 'c'].map(name => checkOf(`python ${name}.py`, 'ValueError\n', true))])
    expect(editReverts.size()).toEqual({
      fileStates: 1, checkOutcomes: 2, editsKept: 1, outcomesPerCheck: 1, visitsPerFile: 2, changesPerFile: 1, statesEntered: 0,
    })
    editReverts.reset()
    expect(editReverts.size()).toEqual({
      fileStates: 0, checkOutcomes: 0, editsKept: 0, outcomesPerCheck: 0, visitsPerFile: 0, changesPerFile: 0, statesEntered: 0,
    })
  })

  it('take a check run again after a reset for one never seen', () => {
    const editReverts = detector()
    const run = checkOf('python a.py', 'ValueError\n', true)
    observeAll(editReverts, [run, run])
    editReverts.reset()
    observeAll(editReverts, [run])
    expect(editReverts.size().checkOutcomes).toBe(1)
  })
})
