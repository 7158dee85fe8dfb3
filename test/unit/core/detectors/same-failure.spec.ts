import { describe, expect, it } from 'vitest'
import { createSameFailureDetector, MAX_GAP } from '../../../../src/core/detectors/same-failure.ts'
import { failureOf, reportedFailure, withEnd } from '../../../../src/core/evidence/failures.ts'
import type { CallObservation } from '../../../../src/core/types.ts'
import type { SameFailureFinding } from '../../../../src/core/kinds.ts'
import { callOf, checkOf, editOf, observeAll, shellEditOf } from '../../../support/observations.ts'

const detector = (first = 3, every = 5, maxTracked = 16, acrossCommands = 4) =>
  createSameFailureDetector({ schedule: { first, every }, maxTracked, acrossCommands })

const RUN = 'cd /repo && python reproduce.py'
/** The reproduction script's output: the NameError raised in the module the agent edited before, whatever the script. */
const nameError = (line: number, call = 'connection.check_constraints(table_names=["order"])'): string =>
  `Attempting to check constraints...\nTraceback (most recent call last):\n  File "reproduce.py", line ${line}, in <module>\n    ${call}\n` +
  '  File "/repo/django/db/backends/sqlite3/base.py", line 331, in <genexpr>\n    for table_name in table_names\nNameError: name \'connection\' is not defined\n'
const rewrite = (n: number): CallObservation => editOf('reproduce.py', `# attempt ${n}`, `# attempt ${n + 1}`)
const run = (output: string, failed = false): CallObservation => checkOf(RUN, output, failed)
const read = callOf('read', { file_path: 'reproduce.py' }, { kind: 'read' })
/** A command that hung with no output, as the plugin reads it (its end told apart: see `withEnd`). */
const hang = (command: string, inputs: string[]): CallObservation =>
  checkOf(command, '', true, { failure: withEnd(failureOf('', true)!, '', 'timeout', 0), inputs, result: '[timed out after 30s]' })

/** The finding at each call, or `-` for none. */
const found = (calls: readonly CallObservation[], options?: Parameters<typeof detector>): (SameFailureFinding | '-')[] =>
  observeAll(detector(...options ?? []), calls).map(finding => finding ?? '-')

describe('the same failure after every fix', () => {
  it('is told at the third run failing identically, each after a rewrite that left the failure\'s file alone', () => {
    expect(found([run(nameError(15)), rewrite(1), run(nameError(24)), rewrite(2), read, run(nameError(26, 'db.check_constraints()'))])).toEqual([
      '-', '-', '-', '-', '-',
      {
        kind: 'same-failure', tool: 'bash', args: JSON.stringify({ command: RUN }), count: 3, failure: "NameError: name 'connection' is not defined",
        origin: '/repo/django/db/backends/sqlite3/base.py', script: '', edited: ['reproduce.py'], evidence: 'failure', commands: 1,
      },
    ])
  })

  it('is told again every `every` further runs, naming the files edited latest first', () => {
    const calls = [run(nameError(15))]
    for (let n = 1; n <= 8; n++) calls.push(n === 7 ? editOf('helpers.py', 'a', 'b') : rewrite(n), run(nameError(15)))
    const told = found(calls).map((finding, at) => finding === '-' ? '-' : `${at}: ${finding.count} ${finding.edited.join(' ')}`).filter(said => said !== '-')
    expect(told).toEqual(['4: 3 reproduce.py', '14: 8 helpers.py reproduce.py'])
  })

  it('takes an edit of documentation for no attempt: a page no run executes', () => {
    const doc = (file: string): CallObservation => editOf(file, 'a', 'b')
    const calls = [run(nameError(15)), doc('CHANGES.rst'), run(nameError(15)), doc('docs/usage.md'), run(nameError(15)), doc('README'), run(nameError(15))]
    expect(found(calls).filter(finding => finding !== '-')).toEqual([])
    // A module named like a page (history.py, news.py) is code: its edits are attempts.
    const code = [run(nameError(15)), doc('app/history.py'), run(nameError(15)), doc('news.py'), run(nameError(15))]
    expect(found(code).at(-1)).toMatchObject({ count: 3, edited: ['news.py', 'app/history.py'] })
  })

  it('takes an edit of the page a doctest fails in as aimed at that failure', () => {
    const doctest = (): CallObservation => checkOf('python -m doctest docs/usage.rst', 'File "docs/usage.rst", line 12, in usage.rst\nFailed example:\n    add(1, 2)\n', true)
    const fix = (n: number): CallObservation => editOf('src/add.py', `v${n}`, `v${n + 1}`)
    const tries = (page: CallObservation[]): CallObservation[] =>
      [doctest(), fix(1), doctest(), fix(2), ...page, doctest(), fix(3), doctest()]
    expect(found(tries([])).filter(finding => finding !== '-')).toHaveLength(1)
    expect(found(tries([editOf('docs/usage.rst', 'a', 'b')])).filter(finding => finding !== '-')).toEqual([])
  })

  it('counts a plain re-run neither as a round nor as a break', () => {
    const calls = [run(nameError(15)), rewrite(1), run(nameError(15)), run(nameError(15)), rewrite(2), run(nameError(15))]
    expect(found(calls).at(-1)).toMatchObject({ count: 3 })
  })

  it('takes the same command again, with the edits it makes itself (a log it appends to), for a plain re-run', () => {
    const logged = (): CallObservation => checkOf('sh test.sh >> runs.log; sh test.sh', 'FAIL server test: connection refused\n', true, {
      kind: 'mutating', edits: [{ file: 'runs.log', kind: 'insert', text: 'FAIL server test', line: undefined }], changeStands: true,
    })
    expect(found(Array.from({ length: 10 }, logged)).filter(finding => finding !== '-')).toEqual([])
  })

  it('reads a run into its log that fails as any run, and names no log among the edits', () => {
    const logged = (): CallObservation => checkOf('python3 fetch.py > fetch.log 2>&1', '[timed out after 60s]\n[exit code: 124]', true, {
      kind: 'mutating', edits: [{ file: 'fetch.log', kind: 'other', log: true }], changeStands: true,
    })
    const mend = (n: number): CallObservation => editOf('app/client.py', `retries = ${n}`, `retries = ${n + 1}`)
    const told = found([logged(), mend(1), logged(), mend(2), logged()]).at(-1)
    expect(told).toMatchObject({ count: 3, edited: ['app/client.py'] })
    // The log alone changes nothing: the same run again, kept, is a plain re-run.
    expect(found([logged(), logged(), logged(), logged()]).filter(finding => finding !== '-')).toEqual([])
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
    ['a run of the same check that passes in between', [run(nameError(15)), rewrite(1), run('ok\n'), rewrite(2), run(nameError(15)), rewrite(3), run(nameError(15))]],
    ['debug prints put in and taken out between the runs: watching, not fixing', [
      run(nameError(15)), shellEditOf("sed -i '12a\\    print(f\"DEBUG: {x}\")' django/db/models/query.py"), run(nameError(15)),
      shellEditOf("sed -i '/DEBUG/d' django/db/models/query.py"), run(nameError(15)),
    ]],
    ['a check whose output reports success, the same after every edit (work going on)', [
      checkOf('pytest tests/', '12 passed in 0.4s\n'), rewrite(1), checkOf('pytest tests/', '12 passed in 0.5s\n'), rewrite(2), checkOf('pytest tests/', '12 passed in 0.3s\n'),
    ]],
    ['three wrappers of one check failing alike, with no edit (a quick try of flags, then elsewhere)', [
      checkOf('pytest t.py', 'E   ValueError: bad\n1 failed\n', true), checkOf('pytest -W ignore t.py', 'E   ValueError: bad\n1 failed\n', true),
      checkOf('PYTHONWARNINGS=ignore pytest t.py', 'E   ValueError: bad\n1 failed\n', true),
    ]],
    ['edits of the input both runs name when the outcome names no file (an environment file rewritten, solved again)', [
      hang('conda env create -f env.yml', ['env.yml']), shellEditOf("cat <<'EOF' > env.yml\nname: a\nEOF"), hang('conda env create -f env.yml', ['env.yml']),
      shellEditOf("cat <<'EOF' > env.yml\nname: b\nEOF"), hang('conda env create -f env.yml', ['env.yml']),
    ]],
    ['a failed edit is no change', [run(nameError(15)), editOf('reproduce.py', 'a', 'b', { failed: true }), run(nameError(15)), rewrite(2), run(nameError(15))]],
    ['a failure told only by an exception the output went on after', [
      run(`${nameError(15)}PASS: done\n`), rewrite(1), run(`${nameError(15)}PASS: done\n`), rewrite(2), run(`${nameError(15)}PASS: done\n`),
    ]],
    ['runs too far apart, another run between', [
      run(nameError(15)), rewrite(1), checkOf('python other.py', 'ok 1\n'), ...Array.from({ length: MAX_GAP }, () => read),
      run(nameError(15)), rewrite(2), run(nameError(15)),
    ]],
  ])('stays quiet: %s', (_, calls) => {
    expect(found(calls).filter(finding => finding !== '-')).toEqual([])
  })

  it('takes a failure as the same whatever command or wrapper ran it, from `acrossCommands` runs', () => {
    // A new script written and run each time, each hanging with no output: the same outcome under four commands.
    const calls = ['a', 'b', 'c', 'd'].flatMap(name => [shellEditOf(`cat <<'EOF' > ${name}.py\nimport requests\nEOF`), hang(`timeout 30 python ${name}.py`, [`${name}.py`])])
    expect(found(calls).map(finding => finding === '-' ? '-' : `${finding.count} ${finding.commands} ${finding.failure}`)).toEqual(['-', '-', '-', '-', '-', '-', '-', '4 4 timeout'])
  })

  it('takes one exception from several commands at the third run when changes came between, else at `acrossCommands`', () => {
    const script = (name: string): CallObservation => shellEditOf(`cat <<'EOF' > ${name}.py\nimport app\nEOF`)
    const runs = (command: string): CallObservation => checkOf(command, nameError(15), false, { inputs: ['reproduce.py'] })
    // New scripts written between, each dying at one line of the library: the scripts are not what fails.
    expect(found([runs('python a.py'), script('b'), runs('python b.py'), script('c'), runs('python c.py')]).at(-1)).toMatchObject({ count: 3, commands: 3 })
    // One script run under other flags, nothing changed between: a deliberate comparison, told only at the fourth.
    const flags = ['python run.py', 'python -X dev run.py', 'python -W error run.py', 'python -B run.py'].map(runs)
    expect(found(flags).map(finding => finding === '-' ? '-' : finding.count)).toEqual(['-', '-', '-', 4])
  })

  it('takes edits made to a check\'s own input as aimed only when the outcome names no file', () => {
    // The script both runs name is rewritten, but the failure is raised in the library: the edits miss it.
    const edited = (n: number): CallObservation => editOf('reproduce.py', `# ${n}`, `# ${n + 1}`)
    const runs = (n: number): CallObservation => checkOf(RUN, nameError(n), false, { inputs: ['reproduce.py'] })
    expect(found([runs(15), edited(1), runs(15), edited(2), runs(15)]).at(-1)).toMatchObject({ count: 3 })
  })

  it('names the script the check runs when the failure passes through it from the library that raises it', () => {
    const edited = (n: number): CallObservation => editOf('django/db/models/query.py', `# ${n}`, `# ${n + 1}`)
    const runs = (): CallObservation => checkOf(RUN, nameError(15), false, { inputs: ['reproduce.py'] })
    expect(found([runs(), edited(1), runs(), edited(2), runs()]).at(-1)).toMatchObject({ script: 'reproduce.py', origin: '/repo/django/db/backends/sqlite3/base.py' })
    // A script the traceback does not pass through is not named: it may not be what calls the library.
    const elsewhere = (): CallObservation => checkOf('python other.py', nameError(15), false, { inputs: ['other.py'] })
    expect(found([elsewhere(), edited(1), elsewhere(), edited(2), elsewhere()]).at(-1)).toMatchObject({ script: '' })
    // Nor is a script the agent keeps rewriting: the failure it misses comes from elsewhere, as the origin says.
    expect(found([runs(), rewrite(1), runs(), rewrite(2), runs()]).at(-1)).toMatchObject({ script: '' })
  })

  it('tells one check\'s unchanged output after every edit, when it does not report success', () => {
    const repro = (): CallObservation => checkOf('python repro.py', 'Expected: [[5 8 0]]\nActual: [[1 0]]\n')
    expect(found([repro(), rewrite(1), repro(), rewrite(2), repro()]).at(-1)).toMatchObject({ evidence: 'output', count: 3, commands: 1, failure: 'Actual: [[1 0]]' })
    // The same output from another command says nothing.
    expect(found([repro(), rewrite(1), checkOf('python other.py', 'Expected: [[5 8 0]]\nActual: [[1 0]]\n'), rewrite(2), repro()])).not.toContainEqual(expect.objectContaining({ kind: 'same-failure' }))
  })

  it('tells a failure worded in a line of outputs that did not fail, from several commands only', () => {
    // A simulator that ends every run of a loader in the same trap, whatever was tried, among prompts that vary.
    const sim = (flags: string, noise: string): CallObservation => {
      const output = `PDP-11 simulator V3.8-1\n${noise}\nTrap stack push abort, PC: 000174 (RTT)\nsim> Goodbye\n`
      return checkOf(`pdp11 ${flags} < load.ini`, output, false, { worded: reportedFailure(output) })
    }
    const tries = [sim('', 'sim> sim>'), sim('-q', 'sim> Invalid argument'), sim('-v', 'sim> sim> sim>'), sim('-t', 'Logging to file "log"')]
    expect(found(tries).map(finding => finding === '-' ? '-' : `${finding.count} ${finding.commands} ${finding.failure}`))
      .toEqual(['-', '-', '-', '4 4 Trap stack push abort, PC: 000174 (RTT)'])
    // One check's runs are compared by their whole output: a line that says `failed` stays while the agent debugs.
    const same = (n: number): CallObservation => {
      const output = `query count ${n}\nTest failed with error: 1 != 0\n`
      return checkOf('python repro.py', output, false, { worded: reportedFailure(output) })
    }
    expect(found([same(1), rewrite(1), same(2), rewrite(2), same(3), rewrite(3), same(4)]).filter(finding => finding !== '-')).toEqual([])
  })

  it('joins runs however far apart when no other run came between: the agent read and edited, then ran it again', () => {
    const reading = Array.from({ length: 2 * MAX_GAP }, () => read)
    const calls = [run(nameError(15)), rewrite(1), ...reading, run(nameError(15)), rewrite(2), run(nameError(15))]
    expect(found(calls).at(-1)).toMatchObject({ count: 3 })
  })

  it('takes a change it cannot place (a patch, an install) as aimed at a failure that points to a file, and at none that points nowhere', () => {
    // The patches may have touched the file the NameError is raised in.
    const patched = [run(nameError(15)), shellEditOf('git apply /tmp/fix-1.patch'), run(nameError(15)), shellEditOf('git apply /tmp/fix-2.patch'), run(nameError(15))]
    expect(found(patched).filter(finding => finding !== '-')).toEqual([])
    // A download hanging with no output, new scripts and installs between: the installs are attempts too.
    const fetches = ['a', 'b', 'c', 'd'].flatMap(name => [shellEditOf(`pip install ${name}-lib`), hang(`python fetch_${name}.py`, [`fetch_${name}.py`])])
    expect(found(fetches).at(-1)).toMatchObject({ count: 4, commands: 4 })
    // A commit is no attempt at changing what one check shows.
    const status = (): CallObservation => checkOf('git status', 'On branch main\nChanges not staged for commit:\n  modified: a.py\n')
    expect(found([status(), shellEditOf('git commit -am x'), status(), shellEditOf('git commit -am y'), status()]).filter(finding => finding !== '-')).toEqual([])
  })

  it('keeps at most `maxTracked` outcomes, and forgets everything on reset', () => {
    const sameFailures = detector(3, 5, 2)
    const checks = ['a', 'b', 'c'].map(name => checkOf(`python ${name}.py`, `ValueError: bad ${name}\n`, true))
    observeAll(sameFailures, checks)
    expect(sameFailures.size()).toEqual({ failingChecks: 2, outcomeEdits: 0, commandsPerChain: 1, filesPerChain: 0 })
    observeAll(sameFailures, [rewrite(1)])
    expect(sameFailures.size()).toEqual({ failingChecks: 2, outcomeEdits: 1, commandsPerChain: 1, filesPerChain: 0 })
    sameFailures.reset()
    expect(sameFailures.size()).toEqual({ failingChecks: 0, outcomeEdits: 0, commandsPerChain: 0, filesPerChain: 0 })
  })
})
