import { describe, expect, it } from 'vitest'
import { createNearDuplicateDetector, type NearDuplicateOptions } from '../../../../src/core/detectors/near-duplicate.ts'
import { termOf } from '../../../../src/core/evidence/questions.ts'
import type { CallObservation } from '../../../../src/core/types.ts'
import type { NearDuplicateFinding } from '../../../../src/core/kinds.ts'
import { callOf, play, PROGRESS, type Override } from '../../../support/observations.ts'

const DEFAULTS: NearDuplicateOptions = { schedule: { first: 5, every: 5 }, reasked: 3 }

/** A `grep` tool call for `pattern` in `path` that finds nothing (or `result`). */
const grep = (pattern: string, path = 'src/config.py', over: Override = {}): CallObservation => callOf('grep', { pattern, path }, {
  kind: 'read', lookup: { terms: [pattern], scope: [path] }, nothing: over.result === undefined, result: 'No matches found', ...over,
})
/** A program run whose output is `output`. */
const run = (command: string, output: string): CallObservation => callOf('bash', { command }, { result: output })
/** A window of a file, showing `lines`. */
const view = (file: string, first: number, lines: readonly string[]): CallObservation => callOf('read', { file_path: file, offset: first, limit: lines.length }, {
  kind: 'read', lookup: { terms: [file], scope: [file] }, window: { file, first, last: first + lines.length - 1 },
  result: lines.map((line, i) => `${first + i}: ${line}`).join('\n'),
})
const PYLINT = '************* Module foo\nfoo.py:1:0: C0104: Disallowed name "foo" (disallowed-name)\nfoo.py:2:0: C0104: Disallowed name "bar" (disallowed-name)\n\nYour code has been rated at 0.00/10'

/** Feed the calls (`PROGRESS` moves the progress epoch on) and return `position:count` of every finding, and the last one. */
function findings(
  calls: readonly (CallObservation | typeof PROGRESS)[], options = DEFAULTS,
): { at: string[]; last: NearDuplicateFinding | undefined } {
  const found = play(createNearDuplicateDetector(options), calls)
  return { at: found.map(({ at, found }) => `${at}:${found.finding.count}`), last: found.at(-1)?.found.finding }
}

const SPELLINGS = ['parse_config', 'def parse_config', 'parseConfig', 'parse_conf', 'load_config']

describe('near-duplicate calls', () => {
  it('tells searches for one thing under five spellings, all empty, once the same searches come again', () => {
    // parse_config, then its `def` spelling and a shorter one ask what was answered already; the first repeat is the
    // third search that asks again, at the sixth call.
    const { at, last } = findings([...SPELLINGS, ...SPELLINGS].map(pattern => grep(pattern)))
    expect(at).toEqual(['6:6'])
    expect(last).toEqual({
      kind: 'near-duplicate', count: 6, variants: 5, mostly: 'nothing',
      calls: [
        { tool: 'grep', args: '{"path":"src/config.py","pattern":"parse_config"}', returned: 'repeat' },
        { tool: 'grep', args: '{"path":"src/config.py","pattern":"load_config"}', returned: 'nothing' },
        { tool: 'grep', args: '{"path":"src/config.py","pattern":"parse_conf"}', returned: 'nothing' },
        { tool: 'grep', args: '{"path":"src/config.py","pattern":"parseConfig"}', returned: 'nothing' },
      ],
    })
  })

  it('reads a place however it is spelled: with `./` in front, `/` behind, or a folder for a file within it', () => {
    const places = ['./src/', 'src/config.py', 'src', 'src/config.py/', './src/config.py']
    const calls = [...SPELLINGS, ...SPELLINGS].map((pattern, i) => grep(pattern, places[i % places.length]))
    expect(findings(calls).at).toEqual(['6:6'])
    // Places apart: nothing is asked again but the repeats.
    const apart = ['lib/', 'src/config.py', 'tests', 'docs/config.md', './setup.py']
    expect(findings([...SPELLINGS, ...SPELLINGS].map((pattern, i) => grep(pattern, apart[i % apart.length]))).at).toEqual(['8:8'])
  })

  it('names each call of the stretch once, at its latest place: a call made again moves to the front', () => {
    const patterns = ['parse_config', 'def parse_config', 'parse_conf', 'load_config', 'def parse_config']
    const { at, last } = findings(patterns.map(pattern => grep(pattern)))
    expect(at).toEqual(['5:5'])
    expect(last?.calls.map(call => `${(JSON.parse(call.args) as { pattern: string }).pattern} ${call.returned}`)).toEqual([
      'def parse_config repeat', 'load_config nothing', 'parse_conf nothing', 'parse_config nothing',
    ])
  })

  it('is re-told five calls later while new variants keep coming, and the loop is made of every call in the stretch', () => {
    const more = ['parse_cfg', 'config_parse', 'parse_configuration', 'def parse_cfg', 'ParseConfig']
    const calls = [...SPELLINGS, ...SPELLINGS, ...more].map(pattern => grep(pattern))
    // Call 11 is the first new variant since the notice, call 12 the second: the stretch is still near-duplicate.
    expect(findings(calls).at).toEqual(['6:6', '12:12'])
    const first = play(createNearDuplicateDetector(DEFAULTS), calls)[0]?.found
    expect(first?.calls.toSorted()).toEqual(SPELLINGS.map(pattern => grep(pattern).key).toSorted())
  })

  it('falls silent once the stretch settles into repeating itself exactly: the exact detectors tell that', () => {
    expect(findings([...SPELLINGS, ...SPELLINGS, ...SPELLINGS, ...SPELLINGS].map(pattern => grep(pattern))).at).toEqual(['6:6'])
  })

  it('tells a program run under cosmetic variations that prints the same output each time, the first run included', () => {
    const flags = ['--bad-names-rgxs="foo,bar"', '--bad-names-rgxs="foo, bar"', '--bad-names-rgxs="foo,,bar"', '--bad-names-rgxs="foo bar"', '-v --bad-names-rgxs=foo']
    const { at, last } = findings(flags.map(flag => run(`pylint ${flag} foo.py`, PYLINT)))
    expect(at).toEqual(['5:5'])
    expect(last?.mostly).toBe('same-output')
    expect(last?.calls.map(call => call.returned)).toEqual(['same-output', 'same-output', 'same-output', 'same-output'])
  })

  it('tells lines confirmed again that were on the screen already, among searches that asked again', () => {
    const lines = ['class Parser:', '    def parse_config(self, path):', '        return load(path)']
    const lookup = (command: string, output: string): CallObservation => callOf('bash', { command }, {
      lookup: { terms: [command], scope: ['src/parser.py'] }, result: output,
    })
    const calls = [
      view('src/parser.py', 10, lines),
      lookup('grep -n "def parse_config" src/parser.py', '11:    def parse_config(self, path):'),
      grep('parse_conf', 'src/parser.py'), grep('def parse_conf', 'src/parser.py'),
      lookup('sed -n 10,12p src/parser.py', lines.join('\n')), grep('parse_conf(', 'src/parser.py'),
      lookup('grep -n "def parse_config" src/parser.py', '11:    def parse_config(self, path):'),
    ]
    // The grep hit and the sed show lines the view showed (numbers aside); two spellings and the repeat ask again.
    const { at, last } = findings(calls)
    expect(at).toEqual(['7:6'])
    expect(last?.calls.map(call => call.returned)).toEqual(['repeat', 'nothing', 'seen', 'nothing'])
    // The same commands run as programs (no lookups) bring news with each new output.
    expect(findings(calls.map(({ lookup: _, ...call }) => call)).at).toEqual([])
  })

  describe('traps: real work, never told', () => {
    it.each<[string, (CallObservation | typeof PROGRESS)[]]>([
      ['exploring different files', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(file => view(`src/${file}.py`, 1, [`import ${file}`, `def ${file}_main():`, `    return ${file}`]))],
      ['grep refinements that narrow down to a hit', [
        grep('parse', 'src', { result: 'src/a.py:3: parse(x)\nsrc/b.py:9: def parse(x):\nsrc/c.py:1: from b import parse' }),
        grep('def parse', 'src', { result: 'src/b.py:9: def parse(x):\nsrc/d.py:4: def parse_all(xs):' }),
        grep('def parse_config(', 'src'), grep('def parse_conf', 'src'),
        grep('def parse(', 'src', { result: 'src/b.py:9: def parse(x):' }),
        view('src/b.py', 9, ['def parse(x):', '    return x.split()']),
      ]],
      ['a poll whose output changes', [10, 20, 30, 40, 50, 60, 70].map(percent => callOf('job_output', { job_id: 'bash-3' }, { kind: 'poller', result: `building… ${percent}%\n[status: running] ${'='.repeat(percent / 10)}` }))],
      ['a name truly absent, asked once per file of a plan', ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(file => grep('legacy_api', `src/${file}.py`))],
      ['different names, each absent, asked once in one file', ['_print_Tuple', '_print_Container', '_print_List', '_print_Iterable', '_print_Sequence', '_print_Basic', '_print_Expr'].map(name => grep(name, 'pycode.py'))],
      ['the same search repeated exactly (the identical-call detector\'s)', Array.from({ length: 8 }, () => grep('parse_config'))],
      ['short outputs alike ("True" twice is two answers)', ['a', 'b', 'c', 'd', 'e', 'f'].map(name => run(`python -c "print(hasattr(m, '${name}'))"`, 'True\n'))],
      ['progress between the spellings', SPELLINGS.flatMap(pattern => [grep(pattern), PROGRESS])],
      ['two calls of news in a row between them', SPELLINGS.flatMap((pattern, i) => [grep(pattern), run(`python step${i}.py`, `step ${i} done`), run(`python check${i}.py`, `check ${i} ok`)])],
      // A check under one flag, then another, each answering with or without a line: each tells which way it went.
      ['outputs going back and forth between two answers', ['', '--verbose', '-v', '-rn', '-v -rn', '-vrn', '-r n'].map((flags, i) =>
        run(`pylint m.py ${flags}`, `${i % 2 === 1 ? 'Using config file /repo/pylintrc\n' : ''}Your code has been rated at 10.00/10 (previous run: 10.00/10)`))],
      ['one tool that always answers alike', ['a', 'b', 'c', 'd', 'e', 'f'].map(name => callOf('set_status', { name }, { result: 'status updated' }))],
    ])('%s', (_, calls) => {
      expect(findings(calls).at).toEqual([])
    })
  })

  it('tells the same answer to everything: runs and edits in a row that all return one text, progress or not', () => {
    // A shell that prints only its own marker, whatever script is written or run.
    const marker = 'EXITCODESTART0EXITCODEEND'
    const calls: (CallObservation | typeof PROGRESS)[] = ['a', 'b', 'c'].flatMap(name => [
      callOf('str_replace_editor', { command: 'create', path: `${name}.py` }, { kind: 'mutating', result: marker }), PROGRESS, run(`python ${name}.py`, marker),
    ])
    const { at, last } = findings(calls)
    expect(at).toEqual(['5:5'])
    expect(last).toMatchObject({ mostly: 'same-output', variants: 5 })
  })

  it('counts a same output only since the last progress: fix, test, fix, test with the same failure is not its business', () => {
    const calls: (CallObservation | typeof PROGRESS)[] = [1, 2, 3, 4, 5, 6].flatMap(i => [PROGRESS, run(`pytest tests/test_config.py -k case${i}`, PYLINT)])
    expect(findings(calls).at).toEqual([])
  })
})

describe('a search term as a question', () => {
  it.each([
    ['def parse_config', 'parse_config'],
    ['class Parser', 'parser'],
    ['parse_config\\(', 'parse_config'],
    ['"test_exists_exclude"', 'test_exists_exclude'],
    ['**/functions.py', 'functions py'],
  ])('%s → %s', (term, question) => {
    expect(termOf(term)).toBe(question)
  })
})

describe('the lines of content of a lookup\'s result', () => {
  /** A lookup that shows `text`, and the seen lines the detector holds after `texts` were shown in turn. */
  const show = (text: string): CallObservation => callOf('grep', { pattern: 'x', path: 'src' }, { kind: 'read', lookup: { terms: ['x'], scope: ['src'] }, result: text })
  function seenAfter(...texts: string[]): number {
    const detector = createNearDuplicateDetector(DEFAULTS)
    play(detector, texts.map(show))
    return detector.size().seenLines ?? -1
  }
  const numbered = (count: number) => Array.from({ length: count }, (_, i) => `${i + 1}: line of content ${i}`).join('\n')

  it('takes a question answered "nothing" before the latest progress for a new one after it', () => {
    // Each name after the progress contains the one searched before it, and none contains another.
    const after = ['configa', 'configb', 'configc', 'configd', 'confige', 'configf'].map(pattern => grep(pattern))
    expect(findings([grep('config'), PROGRESS, ...after]).at).toEqual([])
    expect(findings([grep('config'), ...after]).at).not.toEqual([])
  })

  it('keeps the stretch\'s latest distinct calls: a call made again is kept over one made once since', () => {
    const names = Array.from({ length: 64 }, (_, i) => `name_${i}`)
    const found = play(createNearDuplicateDetector(DEFAULTS), [...names, names[0]!, 'name_64', 'name_65', 'name_66', 'name_67'].map(pattern => grep(pattern)))
    const last = found.at(-1)!.found.calls
    expect(last).toHaveLength(64)
    expect(last).toContain(grep(names[0]!).key)
    expect(last).not.toContain(grep(names[1]!).key)
  })

  it('reads a result of 256 lines, and not one of 257 (the last line may be empty)', () => {
    expect(seenAfter(numbered(256))).toBe(256)
    expect(seenAfter(`${numbered(255)}\n`)).toBe(255)
    expect(seenAfter(numbered(257))).toBe(0)
    expect(seenAfter(`${numbered(256)}\n`)).toBe(0)
  })

  it('reads each line without its number, the white space around it, or a carriage return, and leaves short lines out', () => {
    expect(seenAfter('')).toBe(0)
    expect(seenAfter('\n\n')).toBe(0)
    expect(seenAfter('12: abc\n  }\n\t\r\n')).toBe(0)
    expect(seenAfter('  content here  \r\n10:content here\nsrc/a.py:3: content here\r', 'Line 7:  content here\t')).toBe(1)
    expect(seenAfter('content here', 'content here!')).toBe(2)
  })

  it('tells a line among wide characters from the same line among narrow ones', () => {
    expect(seenAfter('a.py:1: déjà vu, déjà\nother line', '漢字 are wide\n2: déjà vu, déjà')).toBe(3)
    expect(seenAfter('漢字 are wide\nb.py-2- plain line', 'plain line\n漢字 are wide ')).toBe(2)
  })

  it('reads a line number in a long line from its first 200 characters', () => {
    const long = `${' '.repeat(198)}12:${'x'.repeat(50)}`
    expect(seenAfter(long, 'x'.repeat(50))).toBe(2)
    expect(seenAfter(`${' '.repeat(196)}12:${'x'.repeat(50)}`, 'x'.repeat(50))).toBe(1)
  })
})
