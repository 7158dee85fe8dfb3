import { describe, expect, it } from 'vitest'
import { facetsOf, foundNothing } from '../../../src/dsh/lookups.ts'

describe('what a stock tool\'s call looked for', () => {
  it.each<[string, string, Record<string, unknown>, unknown]>([
    ['grep', 'grep', { pattern: 'def parse', path: 'src' }, { lookup: { terms: ['def parse'], scope: ['src'] } }],
    ['glob without a path', 'glob', { pattern: '**/functions.py' }, { lookup: { terms: ['**/functions.py'], scope: [] } }],
    ['a read of a whole file', 'read', { file_path: 'src/a.py' }, { lookup: { terms: ['a.py'], scope: ['src/a.py'] } }],
    ['a read window', 'read', { file_path: 'src/a.py', offset: 40, limit: 20 },
      { lookup: { terms: ['a.py'], scope: ['src/a.py'] }, window: { file: 'src/a.py', first: 40, last: 59 } }],
    ['a read window from the start', 'read', { file_path: 'a.py', limit: 10 }, { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 1, last: 10 } }],
    ['a view window', 'str_replace_editor', { command: 'view', path: '/t/a.py', view_range: [120, 140] },
      { lookup: { terms: ['a.py'], scope: ['/t/a.py'] }, window: { file: '/t/a.py', first: 120, last: 140 } }],
    ['a view to the end of the file', 'str_replace_editor', { command: 'view', path: '/t/a.py', view_range: [120, -1] }, { lookup: { terms: ['a.py'], scope: ['/t/a.py'] } }],
    ['an edit', 'str_replace_editor', { command: 'str_replace', path: '/t/a.py', old_str: 'a', new_str: 'b' }, {}],
    ['another tool', 'web_fetch', { url: 'https://example.com' }, {}],
    // Bounds, and paths ending in slashes.
    ['a pattern too long to keep', 'grep', { pattern: `${'p'.repeat(200)}q`, path: `${'d/'.repeat(100)}e` }, { lookup: { terms: ['p'.repeat(200)], scope: ['d/'.repeat(100)] } }],
    ['a read of a long path', 'read', { file_path: `/${'a'.repeat(300)}/b.py`, limit: 3 },
      { lookup: { terms: ['b.py'], scope: [`/${'a'.repeat(199)}`] }, window: { file: `/${'a'.repeat(199)}`, first: 1, last: 3 } }],
    ['a view of a directory', 'str_replace_editor', { command: 'view', path: '/t/pkg//' }, { lookup: { terms: ['pkg'], scope: ['/t/pkg//'] } }],
    ['a read of the root', 'read', { file_path: '/' }, { lookup: { terms: [''], scope: ['/'] } }],
  ])('%s', (_, tool, args, expected) => {
    expect(facetsOf(tool, args)).toEqual(expected)
  })
})

describe('what a shell command looked for', () => {
  it.each<[string, string, unknown]>([
    ['grep with a path', 'grep -rn "def parse_config" src/', { lookup: { terms: ['def parse_config'], scope: ['src/'] } }],
    ['grep after a cd, through filters', 'cd /repo && grep -n "test_" tests/test_a.py | grep -i "exclude" | head -20',
      { lookup: { terms: ['test_', 'exclude'], scope: ['tests/test_a.py'] } }],
    ['an excluding filter asks nothing', 'grep -rn parse src | grep -v test', { lookup: { terms: ['parse'], scope: ['src'] } }],
    ['grep with -e patterns and valued options', 'grep -A 3 -e foo -e bar lib', { lookup: { terms: ['foo', 'bar'], scope: ['lib'] } }],
    ['rg', 'rg -l "class Random" django', { lookup: { terms: ['class Random'], scope: ['django'] } }],
    ['git grep', 'git grep -n parse_config', { lookup: { terms: ['parse_config'], scope: [] } }],
    ['find by name', 'find /testbed -type f -name "functions.py"', { lookup: { terms: ['functions.py'], scope: ['/testbed'] } }],
    ['find through xargs grep', 'find /testbed -type f -name "*.py" | xargs grep -l "class Random" | grep -v "test"',
      { lookup: { terms: ['*.py', 'class Random'], scope: ['/testbed'] } }],
    ['ls of a directory', 'ls -la django/db/models/functions', { lookup: { terms: ['functions'], scope: ['django/db/models/functions'] } }],
    ['cat into grep', 'cat setup.cfg | grep version', { lookup: { terms: ['version'], scope: ['setup.cfg'] } }],
    ['sed -n prints a window', 'sed -n \'1159,1180p\' sympy/matrices/sparse.py',
      { lookup: { terms: ['sparse.py'], scope: ['sympy/matrices/sparse.py'] }, window: { file: 'sympy/matrices/sparse.py', first: 1159, last: 1180 } }],
    ['sed -n prints a line', 'sed -n 20p a.py', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 20, last: 20 } }],
    ['head -n', 'head -n 40 README.md', { lookup: { terms: ['README.md'], scope: ['README.md'] }, window: { file: 'README.md', first: 1, last: 40 } }],
    ['cat -n into sed -n', 'cat -n a.py | sed -n \'10,30p\'', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 10, last: 30 } }],
    // Bounds: four terms and places at most, each clipped.
    ['many filters', 'grep a f1 f2 f3 f4 f5 | grep b | grep c | grep d | grep e', { lookup: { terms: ['a', 'b', 'c', 'd'], scope: ['f1', 'f2', 'f3', 'f4'] } }],
    ['a long pattern', `grep -rn "${'x'.repeat(250)}" src/`, { lookup: { terms: ['x'.repeat(200)], scope: ['src/'] } }],
    ['find by names after a directory given with slashes', 'find src/ -name "*.py" -o -iname "*.pyi"', { lookup: { terms: ['*.py', '*.pyi'], scope: ['src/'] } }],
    ['ls of directories', 'ls src/ lib//', { lookup: { terms: ['src', 'lib'], scope: ['src/', 'lib//'] } }],
    // A search later in the pipe adds its terms; its places count only when it is fed file names.
    ['find fed by a search', 'grep -l parse src | xargs find . -name "*.py"', { lookup: { terms: ['parse', '*.py'], scope: ['src', '.'] } }],
    ['a later search\'s places', 'grep -rn parse src | grep -n test lib', { lookup: { terms: ['parse', 'test'], scope: ['src'] } }],
    ['ls into xargs grep', 'ls src | xargs grep -n parse lib', { lookup: { terms: ['src', 'parse'], scope: ['src', 'lib'] } }],
    ['fd and locate', 'fd parse src lib', { lookup: { terms: ['parse'], scope: ['src', 'lib'] } }],
    ['locate', 'locate functions.py', { lookup: { terms: ['functions.py'], scope: [] } }],
    ['nl into sed -n', 'nl -ba a.py | sed -n 5p', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 5, last: 5 } }],
    // The other ways a shell prints a window: each names its lines, whatever harness wrote it.
    ['sed -n from a line on', 'sed -n \'100,+19p\' a.py', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 100, last: 119 } }],
    ['awk by line numbers', 'awk \'NR>=10 && NR<=30\' a.py', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 10, last: 30 } }],
    ['awk by a range of line numbers', 'awk \'NR==5,NR==9\' a.py', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 5, last: 9 } }],
    ['head into tail', 'head -n 60 a.py | tail -n 20', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 41, last: 60 } }],
    ['cat -n into head into tail', 'cat -n a.py | head -60 | tail -20', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 41, last: 60 } }],
    ['tail from a line into head', 'tail -n +200 a.py | head -n 10', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 200, last: 209 } }],
    ['head into tail from a line', 'head -100 a.py | tail -n +90', { lookup: { terms: ['a.py'], scope: ['a.py'] }, window: { file: 'a.py', first: 90, last: 100 } }],
  ])('%s', (_, command, expected) => {
    expect(facetsOf('bash', { command, description: 'look' })).toEqual(expected)
  })

  it.each([
    ['a test run', 'pytest tests/test_a.py -x'],
    ['a program', 'python reproduce.py | tail -5'],
    ['a search that writes its hits', 'grep -rn parse src > hits.txt'],
    ['an in-place sed', 'sed -i \'s/a/b/\' a.py'],
    ['a search followed by something else', 'grep -n parse a.py && python a.py'],
    ['sed printing more than one range', 'sed -n \'1,5p;20,30p\' a.py'],
    ['a window of two files', 'head -n 5 a.py b.py'],
    ['a window of what a program printed', 'python a.py | sed -n 1,5p'],
    ['a window of three commands', 'cat -n a.py | sed -n 1,5p | head -n 2'],
    ['the end of a file, whose lines it does not number', 'tail -n 20 a.py'],
    ['an awk program that does more than print a range', 'awk \'NR>=10 {print $1}\' a.py'],
  ])('%s is no lookup', (_, command) => {
    expect(facetsOf('bash', { command })).toEqual({})
  })
})

describe('a result that found nothing', () => {
  it.each<[string, string, boolean, boolean]>([
    ['no output', '', false, true],
    ['the shell\'s empty output', '(no output)', false, true],
    ['grep\'s exit code 1', '(no output)\n[exit code: 1]', false, true],
    ['a trace\'s exit code 1', '\n[exit code: 1]', false, true],
    ['the grep tool', 'No matches found', false, true],
    ['the glob tool', 'No files found', false, true],
    ['a count of zero', '0\n', false, true],
    ['a missing file', 'The path /testbed/django/db/models/functions.py does not exist. Please provide a valid path.', true, true],
    ['a missing directory', 'ls: cannot access \'lib/x\': No such file or directory\n[exit code: 2]', false, true],
    ['matches', 'Found 2 matches\n\nsrc/a.py\nLine 3: parse()', false, false],
    ['a missing command', 'bash: rg: command not found\n[exit code: 127]', false, false],
    ['grep\'s exit code 2 with an error', 'grep: Unmatched ( or \\(\n[exit code: 2]', false, false],
    ['an exit code 1 alone', '[exit code: 1]', false, true],
    ['an exit code 1 after a CRLF line, blanks after it', '0\r\n[exit code: 1]\n \n', false, true],
    ['only the last exit code line is the shell\'s', 'No matches found\n[exit code: 1]\n[exit code: 1]', false, false],
    ['an exit code 1 that does not close the output', '[exit code: 1]\nsrc/a.py', false, false],
    ['a long output that closes with an exit code 1', `${'src/a.py: no such file or directory\n'.repeat(50)}[exit code: 1]`, false, false],
    ['a missing file, then an exit code 1', 'cat: a.py: No such file or directory\n[exit code: 1]', false, true],
    // A search for the words themselves finds lines that hold them: found, not missing.
    ['matches of a search for "not found"', 'django/http/response.py:589:class HttpResponseNotFound(HttpResponse):\ndjango/views/defaults.py:32:    # not found\n', false, false],
    ['a missing file beside a match', 'grep: b.py: No such file or directory\na.py:3:    x = 1\n[exit code: 2]', false, false],
    // An exit status or an error with no words says nothing of what is there.
    ['an exit code 2 alone (a search tool missing, its errors thrown away)', '[exit code: 2]', false, false],
    ['an exit code 127 alone', '[exit code: 127]', false, false],
    ['an empty error', '', true, false],
  ])('%s', (_, text, isError, expected) => {
    expect(foundNothing(text, isError)).toBe(expected)
  })
})
