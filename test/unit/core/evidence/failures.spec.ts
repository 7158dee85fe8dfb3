import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { failureOf, LINE_CHARS, NAMED_FILES, reportedFailure, sameFile, shownBy, withEnd } from '../../../../src/core/evidence/failures.ts'

/** A Python traceback ending in `exception`, raised in `file`'s `fn` on the line of code `code`, called from `caller`. */
const traceback = (exception: string, { file = '/repo/src/app.py', fn = 'main', code = 'return run(x)', caller = 'repro.py', line = 12 } = {}): string =>
  `Traceback (most recent call last):\n  File "${caller}", line ${line}, in <module>\n    main()\n  File "${file}", line 40, in ${fn}\n    ${code}\n${exception}\n`

const syntaxError = (code: string, line = 30, message = 'SyntaxError: invalid syntax'): string =>
  `Traceback (most recent call last):\n  File "repro.py", line 4, in <module>\n    import app\n  File "/repo/src/app.py", line ${line}\n    ${code}\n    ^^^^\n${message}\n`

describe('a failure', () => {
  it('is known by the exception an output ends in, where it was raised and on which line of code', () => {
    const failure = failureOf(traceback("NameError: name 'connection' is not defined"), false)!
    expect(failure).toMatchObject({ line: "NameError: name 'connection' is not defined", origin: '/repo/src/app.py', files: ['/repo/src/app.py'], loose: false })
    // The frames above the one that raised it: the script that called into the code that raised.
    expect(failure.callers).toEqual(['repro.py'])
    // The caller's frame and line number, and a script's own output, change with the script; the failure does not.
    expect(failureOf(`Checking…\n${traceback("NameError: name 'connection' is not defined", { caller: 'other.py', line: 99 })}`, false)!.same).toBe(failure.same)
    expect(failureOf(traceback("NameError: name 'cursor' is not defined"), false)!.same).not.toBe(failure.same)
    expect(failureOf(traceback("NameError: name 'connection' is not defined", { code: 'return run(y)' }), false)!.same).not.toBe(failure.same)
    expect(failureOf(traceback("NameError: name 'connection' is not defined", { fn: 'other' }), false)!.same).not.toBe(failure.same)
    expect(failureOf(traceback("NameError: name 'connection' is not defined", { file: '/repo/src/db.py' }), false)!.same).not.toBe(failure.same)
  })

  it('reads a syntax error by its line: its place is the line, whatever code the line shows', () => {
    const first = failureOf(syntaxError('print(f"DEBUG: a={a}")'), true)!
    const other = failureOf(syntaxError('print(f"DEBUG: visiting {b}")'), true)!
    expect(first.same).not.toBe(other.same)
    expect(first.place).toBe(other.place)
    expect(failureOf(syntaxError('print(f"DEBUG: a={a}")', 31), true)!.place).not.toBe(first.place)
    expect(failureOf(syntaxError('print(f"DEBUG: a={a}")', 30, 'IndentationError: unexpected indent'), true)!.place).not.toBe(first.place)
  })

  it('reads a JavaScript exception with the stack after it', () => {
    const stack = (fn: string): string => `/app/src/index.js:12\n    foo.bar()\n        ^\n\nTypeError: Cannot read properties of undefined (reading 'bar')\n    at ${fn} (/app/src/index.js:12:9)\n    at Module._compile (node:internal/modules/cjs/loader:1256:14)\n`
    expect(failureOf(stack('main'), true)).toMatchObject({ line: "TypeError: Cannot read properties of undefined (reading 'bar')", origin: '/app/src/index.js', loose: false })
    expect(failureOf(stack('main'), true)!.same).not.toBe(failureOf(stack('start'), true)!.same)
  })

  it('takes a tool\'s closing `error:` or `fatal:` line as an exception', () => {
    expect(failureOf('Compiling app v0.1.0\nerror: could not compile `app` due to 2 previous errors\n', true)!.line).toBe('error: could not compile `app` due to 2 previous errors')
    expect(failureOf('fatal: not a git repository (or any of the parent directories): .git\n', true)!.line).toMatch(/^fatal: /)
  })

  it('is known by its whole output, normalized, when it ends in no exception; only a failed call has one', () => {
    const test = (duration: string, failing = 'answers'): string => `FAIL test/app.spec.ts > ${failing}\n  expected 41 to be 42\n Tests  1 failed | 11 passed (12)\n Duration  ${duration}\n`
    expect(failureOf(test('1.2s'), false)).toBeUndefined()
    const failure = failureOf(test('1.2s'), true)!
    expect(failure).toMatchObject({ line: 'Duration  1.2s', origin: '', loose: false })
    expect(failure.files).toContain('test/app.spec.ts')
    expect(failure.place).toBe(failure.same)
    expect(failureOf(test('3.4s'), true)!.same).toBe(failure.same)
    expect(failureOf(test('1.2s', 'divides'), true)!.same).not.toBe(failure.same)
  })

  it('takes the place of a failed call\'s output from the exception among its last lines, whatever else it printed', () => {
    const run = (printed: string): string => `${printed}\n${traceback('AssertionError')}Ran 1 test\nFAILED (failures=1)\n`
    const failure = failureOf(run('DEBUG x=1'), true)!
    expect(failure).toMatchObject({ line: 'AssertionError', origin: '/repo/src/app.py', loose: false })
    expect(failureOf(run('DEBUG x=2'), true)!.place).toBe(failure.place)
    expect(failureOf(run('DEBUG x=2'), true)!.same).not.toBe(failure.same)
  })

  it('is loose when only an exception the output went on after tells it, from a call that did not fail', () => {
    const output = `STDERR: ${traceback('IndentationError: unexpected indent')}\nPASS: .a/foo.py was ignored\n`
    const failure = failureOf(output, false)!
    expect(failure).toMatchObject({ line: 'IndentationError: unexpected indent', origin: '/repo/src/app.py', loose: true })
    expect(failure.place).toBe(failureOf(traceback('IndentationError: unexpected indent'), false)!.place)
    expect(failureOf(output, true)!.loose).toBe(false)
    expect(failureOf('all good\n3 passed\n', false)).toBeUndefined()
  })

  it('stays bounded: a failure line of at most LINE_CHARS, at most NAMED_FILES files named', () => {
    expect(failureOf(`ValueError: ${'x'.repeat(10_000)}\n`, false)!.line).toHaveLength(LINE_CHARS)
    const names = Array.from({ length: 20 }, (_, i) => `src/mod${i}.ts(1,1): error TS2322`).join('\n')
    expect(failureOf(names, true)!.files).toHaveLength(NAMED_FILES)
  })

  it('names the files near a failed output\'s end, trimmed of the dots and dashes around them, once each', () => {
    const output = '../src/a.py:3 (tests/b.test.ts) é/c.rs,src/a.py\r\nsee .env- and -x.md. took 1.25s...\nd.py'
    expect(failureOf(output, true)!.files).toEqual(['/src/a.py', 'tests/b.test.ts', '/c.rs', 'src/a.py', 'x.md', 'd.py'])
    expect(failureOf('no names here. none at all...', true)!.files).toEqual([])
    expect(failureOf('', true)!.files).toEqual([])
    expect(failureOf(`src/far.py\n${'x '.repeat(600)}`, true)!.files).toEqual([])
  })

  it('names the same files as the runs of path characters a pattern finds', () => {
    // The reading it replaced: every run of path characters, those with an extension kept.
    const reference = (text: string): string[] => {
      const names: string[] = []
      for (const [run] of text.slice(-1000).matchAll(/[\w./@-]+/g)) {
        const name = run.replace(/^[.@-]+|[.@-]+$/g, '')
        const dot = name.lastIndexOf('.')
        if (dot > 0 && /^\.[A-Za-z]\w{0,5}$/.test(name.slice(dot)) && /[A-Za-z]/.test(name.slice(0, dot)) && !names.includes(name)) names.push(name)
        if (names.length === NAMED_FILES) break
      }
      return names
    }
    const piece = fc.constantFrom('a', 'src', 'x1', '_', '.', '..', '/', '@', '-', 'py', 'ts', 'é', '日本', ' ', '\n', '\r\n', ':', '(', ')', '1', '2.5')
    fc.assert(fc.property(fc.array(piece, { maxLength: 60 }).map(pieces => pieces.join('')), (text) => {
      expect(failureOf(text, true)!.files).toEqual(reference(text))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 1_000) })
  })

  it('never throws, whatever the output', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), fc.boolean(), (text, failed) => {
      const failure = failureOf(text, failed)
      if (failure !== undefined) expect(Number.isSafeInteger(failure.same)).toBe(true)
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 500) })
  })
})

describe('the same file', () => {
  it.each<[string, string, boolean]>([
    ['src/app.py', 'src/app.py', true],
    ['/testbed/src/app.py', 'src/app.py', true],
    ['./src/app.py', '/testbed/src/app.py', true],
    ['/testbed/src/app.py', 'app.py', true],
    ['/testbed/src/app.py', 'rc/app.py', false],
    ['src/app.py', 'src/app.pyc', false],
    ['', 'src/app.py', false],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(sameFile(a, b)).toBe(expected)
    expect(sameFile(b, a)).toBe(expected)
  })
})

describe('what a check that did not fail showed', () => {
  it('is its output, the same when only volatile parts differ, and its last line', () => {
    const a = shownBy('Expected: [[5 8 0]]\nActual: [[1 0]]\nran in 0.52s\n')
    expect(a).toMatchObject({ passed: false, line: 'ran in 0.52s' })
    expect(shownBy('Expected: [[5 8 0]]\nActual: [[1 0]]\nran in 0.31s\n').same).toBe(a.same)
  })

  it('passed, when it reports success or printed nothing', () => {
    expect(shownBy('12 passed in 0.4s\n').passed).toBe(true)
    expect(shownBy('build succeeded, 1 warning.\n').passed).toBe(true)
    expect(shownBy('').passed).toBe(true)
  })
})

describe('a failure an output reports in words', () => {
  it('is the last line among the last that reads as an error, whatever noise is around it', () => {
    const trap = reportedFailure('PDP-11 simulator V3.8-1\nsim> sim> sim>\nTrap stack push abort, PC: 000174 (RTT)\nsim> Goodbye\n')
    expect(trap).toMatchObject({ line: 'Trap stack push abort, PC: 000174 (RTT)', origin: '', worded: true })
    expect(reportedFailure('sim> Invalid argument\nLogging to file\nTrap stack push abort, PC: 000174 (RTT)\nsim> Goodbye\nLog file closed\n')?.same).toBe(trap?.same)
    expect(reportedFailure('sim> Unknown command\nsim> Goodbye\n')?.line).toBe('sim> Unknown command')
  })

  it('is none for an output with no such line, or only counts of errors', () => {
    expect(reportedFailure('Your code has been rated at 10.00/10\n')).toBeUndefined()
    expect(reportedFailure('==== 4 passed, 146 errors in 32.82s ====\n')).toBeUndefined()
  })

  it('is none for a warning, a glog record at info or warning level, or a count of none', () => {
    expect(reportedFailure('UserWarning: cannot import name foo, using fallback\nDone\n')).toBeUndefined()
    expect(reportedFailure('WARNING: config.yml not found, using defaults\n')).toBeUndefined()
    expect(reportedFailure('I1207 12:00:00.123 main.cc:10] retry failed once, trying again\nW1207 12:00:01.000 main.cc:12] unable to reach cache\n')).toBeUndefined()
    expect(reportedFailure('ran 12 checks, 0 failed\n')).toBeUndefined()
    // An error record in the same log, or an error after a warning, is still a report.
    expect(reportedFailure('W1207 12:00:01.000 main.cc:12] slow\nE1207 12:00:02.000 main.cc:20] connection refused\n')?.line).toBe('E1207 12:00:02.000 main.cc:20] connection refused')
    expect(reportedFailure('WARNING: deprecated flag\nError: missing input file\n')?.line).toBe('Error: missing input file')
    expect(reportedFailure('/w/app.py:3: UserWarning: cannot find a GPU, using the CPU\n  warnings.warn(\nok\n')).toBeUndefined()
    // A note within a program's ordinary output, however it words what it notes.
    expect(reportedFailure('Available subcommands:\n    check\nNote that only Django core commands are listed as settings are not properly configured (error: Requested setting INSTALLED_APPS, but settings are not configured.).\n')).toBeUndefined()
    expect(reportedFailure('INFO: download failed once, retrying\nDone\n')).toBeUndefined()
  })

  it('is the failure a line reports beside warnings or counts of none', () => {
    for (const line of [
      '==== 1 failed, 2 warnings in 0.31s ====',
      'error: could not compile `foo` (bin "foo") due to 1 previous error; 1 warning emitted',
      '1 warning and 1 error generated.',
      'Results: 2 failed, 0 errors, 0 skipped',
    ]) expect(reportedFailure(`running\n${line}\n`)?.line, line).toBe(line)
    expect(reportedFailure('Results: 5 passed, 0 failed, no errors\n')).toBeUndefined()
  })
})

describe('a failure that printed nothing', () => {
  it('is told by how it ended: every hang with no output is one outcome whatever ran it, a silent exit its command\'s own', () => {
    const empty = failureOf('', true)!
    const hang = withEnd(empty, '', 'timeout', 1)
    expect(hang).toMatchObject({ line: 'timeout' })
    expect(withEnd(empty, '\n', 'timeout', 2).same).toBe(hang.same)
    expect(withEnd(empty, '', 'exit code: 1', 1).same).not.toBe(hang.same)
    // `command -v cmake` and `test -x configure` both exit 1 silently: two outcomes, not one.
    expect(withEnd(empty, '', 'exit code: 1', 1).same).not.toBe(withEnd(empty, '', 'exit code: 1', 2).same)
    expect(withEnd(empty, '', 'exit code: 1', 1).same).toBe(withEnd(empty, '', 'exit code: 1', 1).same)
    // A failure that printed something is as it was.
    const printed = failureOf('ValueError: bad\n', true)!
    expect(withEnd(printed, 'ValueError: bad\n', 'timeout', 1)).toBe(printed)
  })
})

describe('a traceback Python ignored', () => {
  it('is noise after the run, not how it ended', () => {
    const ran = 'Custom file permissions: 0o644\nAll checks passed\n'
    const ignored = `${ran}Exception ignored in: <function _TemporaryFileWrapper.__del__ at 0x7f>\nTraceback (most recent call last):\n  File "/usr/lib/python3.6/tempfile.py", line 448, in close\nFileNotFoundError: [Errno 2] No such file or directory: '/tmp/tmpab.upload.txt'\n`
    expect(failureOf(ignored, false)).toBeUndefined()
    expect(failureOf(`Traceback (most recent call last):\n  File "a.py", line 1, in <module>\nValueError: bad\n${ignored.slice(ran.length)}`, false)?.line).toBe('ValueError: bad')
  })
})
