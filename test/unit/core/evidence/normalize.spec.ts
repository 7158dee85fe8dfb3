import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { differsBeyondNormalizing, normalizeError, normalizeResult, sameNormalized, VOLATILE } from '../../../../src/core/evidence/normalize.ts'

describe('normalizing results', () => {
  it.each([
    ['an ISO timestamp', 'built at 2026-11-30T06:45:29.123Z', 'built at 2026-12-01T17:02:11.900+01:00'],
    ['a date', 'report for 2026-11-30', 'report for 2026-12-01'],
    ['a written-out date', 'Last login: Mon Nov 30 06:45:29 2026', 'Last login: Tue Dec 1 17:02:11 2026'],
    ['a clock time', '[06:45:29] compiled', '[17:02:11] compiled'],
    ['a duration', 'Tests 12 passed (12)\nDuration 4.60s', 'Tests 12 passed (12)\nDuration 5.01s'],
    ['a duration in ms', 'done in 120ms', 'done in 87 ms'],
    ['a uuid', 'job 28960c95-e9da-434f-a0d1-23b48e4767d5 queued', 'job 5d3c7e0a-1b2c-4d5e-8f90-123456789abc queued'],
    ['a commit hash', 'HEAD is now at 0b772361f3a5c1d', 'HEAD is now at dcc0fe5a77b2e44'],
    ['a memory address', '<object at 0x7ffd3a2b1c40>', '<object at 0x7ffd3a2b9e08>'],
    ['a process id', 'server started (pid 4121)', 'server started (pid 5530)'],
    ['a temporary path', 'wrote /tmp/vitest-Xa81kq/out.json', 'wrote /tmp/vitest-Pq02mz/out.json'],
    ['an epoch', 'ts=1764484000', 'ts=1764484123'],
  ])('ignores %s', (_, a, b) => {
    expect(normalizeResult(a)).toBe(normalizeResult(b))
  })

  it.each([
    ['a count', 'Tests 3 passed', 'Tests 4 passed'],
    ['a progress percentage', 'build 45% done', 'build 60% done'],
    ['a status', 'job state: running', 'job state: finished'],
    ['a line number', 'stopped at app.ts:41', 'stopped at app.ts:42'],
    ['a short number in text', 'exit code 1', 'exit code 2'],
    ['words of hex letters', 'added facade', 'added decade'],
  ])('keeps %s', (_, a, b) => {
    expect(normalizeResult(a)).not.toBe(normalizeResult(b))
  })
})

describe('normalizing only the lines that may change', () => {
  it('leaves lines without a digit, hyphen or temporary directory as they are, and replaces below and between them', () => {
    const text = 'plain words\nDuration 4.05s\nmore plain words\nbuilt at 12:30:45\ntrailing words'
    expect(normalizeResult(text)).toBe('plain words\nDuration ∅\nmore plain words\nbuilt at ∅\ntrailing words')
  })

  it('normalizes runs of such lines together and skips the plain lines between them, to the first and last line', () => {
    const text = 'at 12:30:45\nin 4ms\nplain\nplain too\npid 42\nplain\n/tmp/a1\n/tmp/b2'
    expect(normalizeResult(text)).toBe('at ∅\nin ∅\nplain\nplain too\n∅\nplain\n∅\n∅')
    const long = Array.from({ length: 2000 }, (_, i) => i % 7 === 0 ? `step ${i} took ${i}ms` : 'nothing to see here').join('\n')
    expect(normalizeResult(long)).toBe(long.replace(VOLATILE, '∅'))
  })

  it('replaces nothing across a line break', () => {
    expect(normalizeResult('done in 12\nms')).not.toBe(normalizeResult('done in 13\nms'))
    expect(normalizeResult('pid\n4121')).not.toBe(normalizeResult('pid\n5530'))
  })

  it('agrees with the fragments pattern run over the whole text, on any text built of fragments and plain words', () => {
    const piece = fc.constantFrom('12', '4.05s', ' ', '\n', '\n\n', '-', 'tmp', 'temp', '/tmp/x1', '/private/tmp/q',
      'var/folders/ab', 'C:\\Users\\a\\AppData\\Local\\Temp\\x', 'pid 42', 'process: 7', '2026-11-30T06:45:29Z', 'Nov 30',
      'Mon, 30 Nov 2026', '0x7ffd3a2b', 'deadbeefcafe1', 'abcdefab-abcd-abcd-abcd-abcdefabcdef', 'word', 'ms', 'h', ':',
      '#', '\r', '\t', 'é', '∅', '12:30:45', '1/2/26', '1764484000', 'µs', '3 seconds')
    fc.assert(fc.property(fc.array(piece, { maxLength: 40, size: 'max' }).map(parts => parts.join('')), (text) => {
      expect(normalizeResult(text)).toBe(text.replace(VOLATILE, '∅'))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 5_000) })
  })
})

describe('normalizing only the lines that bear a mark of a fragment', () => {
  it.each([
    ['a 13-digit epoch', 'at 1764484000123 ok'],
    ['a month before its day, the day closed by a bracket', '(Nov 30)'],
    ['a written date with its weekday', 'Mon, 30 Nov 2026'],
    ['a full month name', 'since November 30, 2026'],
    ['a process id after separators', 'killed (pid: 42)'],
    ['a process id glued to its label', 'worker PROCESS7 done'],
    ['a hexadecimal id with digits inside', 'commit abcdef123456abc'],
    ['a long 0x address', 'at 0x7ffd3a2b1c40'],
    ['a UUID of letters only', 'id abcdefab-abcd-abcd-abcd-abcdefabcdef'],
    ['a Windows temporary path', 'wrote C:\\Users\\a\\AppData\\Local\\Temp\\x1.log'],
    ['a Unix temporary path', 'wrote /private/var/folders/ab/T/x'],
    ['a duration after a tab', '   12\tms'],
    ['a duration in Greek microseconds', 'took 5 μs'],
    ['a duration in capitals', 'took 1.5 MS'],
    ['a clock time', 'at 9:05:07.123'],
    ['a slashed date', 'on 1/2/2026'],
    ['an ISO date-time with a zone', '2026-11-30 06:45:29+01:00'],
  ])('replaces %s', (_, line) => {
    const text = `plain words\r\n${line}\r\nno mark: python3, x86_64, 42%, line 7, 漢字 😀`
    const normalized = normalizeResult(text)
    expect(normalized).toBe(text.replace(VOLATILE, '∅'))
    expect(normalized).toContain('∅')
  })

  it('leaves lines whose digits mark no fragment as they are', () => {
    const text = '     1\tdef main():\n     2\t    return run(3)\n/testbed/django/db/backends/sqlite3/0001_initial.py\n[ 45%] 3 passed'
    expect(normalizeResult(text)).toBe(text)
  })

  it('agrees with the fragments pattern run over the whole text, on any text dense in digits, separators and unit letters', () => {
    const unit = fc.constantFrom(...'0123456789abcdefx1 \t\n\r-:/.,#=pidmsunhµμzt\\'.split(''), 'process', 'Nov', 'mon', 'tmp', 'temp',
      'var/folders', 'é', '∅', '\u00a0', '😀')
    fc.assert(fc.property(fc.string({ unit, maxLength: 80 }), (text) => {
      expect(normalizeResult(text)).toBe(text.replace(VOLATILE, '∅'))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 5_000) })
  })

  it('agrees with the fragments pattern run over the whole text, on any text built of whole fragments in any casing', () => {
    const piece = fc.constantFrom('1764484000', '1764484000123', '17644840001', '2026-11-30T06:45:29.123Z', '2026-11-30 06:45',
      '+01:00', 'Mon, 30 Nov 2026', 'Tue Dec 1', 'November 30, 2026', '30 Nov', 'Sat', 'May', '12:30:45', '1:2:3', '1/2/26',
      '4.05s', '1.5 s', '3 seconds', '2m', '4 minutes', '1h', '12hrs', '120ms', '5 µs', '5 μs', '7ns', 'pid 42', 'pid42',
      'process: 7', 'process=#3', 'PID\t9', '28960c95-e9da-434f-a0d1-23b48e4767d5', 'abcdefab-abcd-abcd-abcd-abcdefabcdef',
      'deadbeefcafe1', 'abcdef123456', '0123456789ab', '0x7ffd3a2b1c40', '0x1f', '0xabcdef', 'C:\\Users\\a\\Temp\\x',
      'd:\\tmp\\y', '/tmp/x1', '/private/tmp/q', '/var/folders/ab/c', '/var/tmp/z', 'python3', 'x86_64', 'sqlite3', '42%',
      ' ', ' ', '\n', '\r\n', '\t', '-', ':', '/', '.', ',', '(', ')', '_', 'word', 'é', '漢', '😀', '∅')
    const casing = fc.constantFrom((s: string) => s, (s: string) => s.toUpperCase())
    const text = fc.array(fc.tuple(piece, casing), { maxLength: 30, size: 'max' })
      .map(parts => parts.map(([part, cased]) => cased(part)).join(''))
    fc.assert(fc.property(text, (text) => {
      expect(normalizeResult(text)).toBe(text.replace(VOLATILE, '∅'))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 5_000) })
  })
})

describe('telling results apart without normalizing', () => {
  it.each([
    ['other words first', 'compiled 3 modules\nDuration 4.05s', 'failed to compile\nDuration 4.05s', true],
    ['one more line', 'all good', 'all good\nand more', true],
    ['only a duration', 'Tests 12 passed\nDuration 4.05s', 'Tests 12 passed\nDuration 5.01s', false],
    ['a line with a number', 'Tests 12 passed', 'Tests 13 passed', false],
    ['a placeholder in the line', 'took ∅', 'took 12ms', false],
    ['the same text', 'same', 'same', false],
    ['alike beyond the first 64 characters', `${'x'.repeat(64)} a`, `${'x'.repeat(64)} b`, false],
  ])('%s → %s', (_, a, b, differs) => {
    expect(differsBeyondNormalizing(a, b)).toBe(differs)
  })

  it('never says two texts differ when they normalize alike', () => {
    const piece = fc.constantFrom('12', '4.05s', ' ', '\n', '\n\n', '-', 'tmp', '/tmp/x1', 'pid 42', 'Nov 30', '0x7ffd3a2b',
      'word', 'other', 'ms', 'h', '∅', '12:30:45', 'é', '\r', 'a', 'b')
    const text = fc.array(piece, { maxLength: 24, size: 'max' }).map(parts => parts.join(''))
    fc.assert(fc.property(text, text, text, (common, x, y) => {
      if (differsBeyondNormalizing(common + x, common + y)) expect(normalizeResult(common + x)).not.toBe(normalizeResult(common + y))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 5_000) })
  })
})

describe('comparing normalized texts by the lines where they differ', () => {
  it.each([
    ['a duration in the middle', 'head\nran in 4.05s\ntail', 'head\nran in 5.01s\ntail', true],
    ['a count in the middle', 'head\nTests 3 passed\ntail', 'head\nTests 4 passed\ntail', false],
    ['a fragment cut by the shared start', 'took 12ms', 'took 13ms', true],
    ['a fragment cut by the shared end', 'at 12:30:45 done', 'at 13:30:45 done', true],
    ['one more line', 'a\nb', 'a\nb\nc', false],
    ['a line break moved', 'done in 12\nms', 'done in 12ms\n', false],
    ['the same text', 'same\n12', 'same\n12', true],
    ['empty and not', '', 'pid 42', false],
    ['a line more, in the middle', 'start\nat 12:30:45\nend', 'start\nat 12:30:46\nat 12:30:47\nend', false],
    ['lines that pair up, one unchanged between two that differ in a fragment', 'in 4ms\nsame\npid 7', 'in 9ms\nsame\npid 8', true],
    ['lines that pair up, the second differing in more than a fragment', 'in 4ms\nsame\npid 7', 'in 9ms\nsame\npid 8 (killed)', false],
  ])('%s → %s', (_, a, b, same) => {
    expect(sameNormalized(a, b)).toBe(same)
  })

  it('agrees with normalizing both texts whole, on any two texts with a shared start and end', () => {
    const piece = fc.constantFrom('12', '13', '4.05s', ' ', '\n', '\n\n', '-', 'tmp', '/tmp/x1', 'pid 42', 'Nov 30', '0x7ffd3a2b',
      'deadbeefcafe1', 'word', 'other', 'ms', 's', 'h', '∅', '12:30:45', 'é', '\r', 'a', 'b', ':')
    const text = fc.array(piece, { maxLength: 16, size: 'max' }).map(parts => parts.join(''))
    fc.assert(fc.property(text, text, text, text, (start, x, y, end) => {
      const [a, b] = [start + x + end, start + y + end]
      expect(sameNormalized(a, b)).toBe(normalizeResult(a) === normalizeResult(b))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 5_000) })
  })
})

describe('normalizing errors', () => {
  it.each([
    ['paths', "Error: ENOENT: no such file or directory, open 'src/a.ts'", "Error: ENOENT: no such file or directory, open 'lib/deep/b.ts'"],
    ['numbers', 'Error: request failed with status 503 after 3 retries', 'Error: request failed with status 502 after 5 retries'],
    ['later lines', 'Error: old_string not found\n  at line 12', '\nError: old_string not found\n  at line 90'],
    ['windows paths', 'Error: cannot open C:\\work\\a.txt', 'Error: cannot open D:\\other\\b.txt'],
  ])('ignores %s', (_, a, b) => {
    expect(normalizeError(a)).toBe(normalizeError(b))
  })

  it('keeps what the error says', () => {
    expect(normalizeError('Error: command not found: foo')).not.toBe(normalizeError('Error: permission denied'))
  })
})
