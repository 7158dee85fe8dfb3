/**
 * The scenario corpus: real work that looks like a loop (traps) and real loops, each played by a scripted model
 * through the real DSH agent loop against tools with realistic outputs. Each scenario states exactly which notices
 * (by summary) and how many refusals the default configuration must produce.
 */
import type { Config } from '../../../src/config/keys.ts'
import { call, repeat, type Turn } from '../../../scripts/dsh-loop.ts'
import type { CompactionPoint } from './compaction.ts'

/** A tool body: its text for the given arguments on its `runs`-th run; throwing makes the call fail. */
export type Body = (args: Record<string, unknown>, runs: number) => string

export interface Scenario {
  readonly name: string
  readonly kind: 'trap' | 'loop'
  /** The user config row; traps run in deny mode, to show they are neither noticed nor refused. */
  readonly config: Partial<Config>
  readonly tools: Readonly<Record<string, Body>>
  /** Tools the model may call in parallel within one response. */
  readonly concurrent?: readonly string[]
  /** Context text another plugin attaches to every tool result (a fresh message each time). */
  readonly inject?: (runs: number) => string
  readonly script: readonly Turn[]
  /** A compaction of the agent's context between two steps, as DSH's compaction plugins log it (`compaction.ts`). */
  readonly compaction?: CompactionPoint
  /** Expected with this config: notice summaries in order, and the number of refused calls. */
  readonly expected: { readonly notices: readonly string[]; readonly refusals: number }
  /** Phrases the notices' texts must hold (each in at least one notice): what kind of advice the model got. */
  readonly says?: readonly string[]
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i)
const NONE = { notices: [], refusals: 0 } as const
const DENY = { mode: 'deny' } as const

const read: Body = args => `<path>${String(args.file_path)}</path>\n<type>file</type>\n<content>\n1: export const answer = 42\n\n(End of file - total 1 lines)</content>`
const edited: Body = args => `The file ${String(args.file_path)} has been updated successfully.`
const failingTest: Body = () => 'FAIL test/app.spec.ts > answers\nAssertionError: expected 41 to be 42\n Tests  1 failed | 11 passed (12)\n[exit code: 1]'
const ok: Body = () => 'ok'
const notFound: Body = (args) => {
  throw new Error(`cannot read "${String(args.file_path)}": not found`)
}
/** What DSH's bash tool returns for a command that printed nothing and exited 0. */
const noOutput: Body = () => '(no output)'
/** A file's lines as DSH's `read` shows them, the same every time: `lines` lines from `offset`. */
const numbered = (file: string, offset: number, lines: number): string =>
  `<path>${file}</path>\n<type>file</type>\n<content>\n${range(lines).map(i => `${offset + i + 1}: ${file.replace(/\W/g, '_')}_${offset + i + 1}()`).join('\n')}\n(Showing lines ${offset + 1}-${offset + lines})</content>`
const view: Body = args => numbered(String(args.file_path), Number(args.offset ?? 0), Math.min(Number(args.limit ?? 5), 5))
const grepHits: Body = args => `Found 2 matches\n\nsrc/server.ts\nLine 14: ${String(args.pattern)}\nsrc/client.ts\nLine 31: ${String(args.pattern)}`
const pytestFailure = 'F\n=================================== FAILURES ===================================\n___________________________ test_divide_by_zero ___________________________\n    def test_divide_by_zero():\n>       assert divide(1, 0) is None\nE       ZeroDivisionError: division by zero\n\nsrc/calc.py:12: ZeroDivisionError\n=========================== short test summary info ============================\nFAILED tests/test_calc.py::test_divide_by_zero - ZeroDivisionError: division by zero\n!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n1 failed, 7 passed in 0.31s\n[exit code: 1]'
/** A debug print that lands inside a multi-line raise, and the module it breaks, the same way each time. */
const DEBUG_PRINT = '        print(f"DEBUG: init code={code}")'
const DEBUG_SYNTAX_ERROR = 'Traceback (most recent call last):\n  File "/repo/reproduce.py", line 4, in <module>\n    from app import models\n' +
  '  File "/repo/app/models.py", line 30\n    f"{self.__class__.__name__}.__init__() missing 1 required keyword-only "\n    ^^^^^^^^^^\n' +
  'SyntaxError: invalid syntax. Perhaps you forgot a comma?\n[exit code: 1]'
/** A reproduction script that catches the error and prints it: the NameError comes from an edit made elsewhere. */
const REPRO_NAME_ERROR = (line: number): string => 'Attempting to check constraints...\nTraceback (most recent call last):\n' +
  `  File "reproduce.py", line ${line}, in <module>\n    connection.check_constraints(table_names=["order"])\n` +
  '  File "/repo/django/db/backends/sqlite3/base.py", line 331, in <genexpr>\n    for table_name in table_names\n' +
  "NameError: name 'connection' is not defined"
/** A linter run by the reproduction: broken by the debug lines (the same way at one spot), or failing the lint. */
const broken = (runs: number): string => 'Running: pylint --recursive=y .\nSTDERR: Traceback (most recent call last):\n' +
  '  File "/repo/pylint/lint/pylinter.py", line 569\n' + `    print(f"DEBUG: attempt ${runs}")\nIndentationError: unexpected indent\n\nPASS: .a/foo.py was ignored`
const LINT_FAILURE = '************* Module reproduce\nreproduce.py:1:0: C0114: Missing module docstring\nYour code has been rated at 6.17/10\n[exit code: 1]'
/** DSH's `grep` tool: its matches, or `No matches found` for a pattern not in the file. */
const grepIn = (lines: Readonly<Record<string, readonly string[]>>): Body => (args) => {
  const pattern = String(args.pattern)
  const file = String(args.path)
  const hits = (lines[file] ?? []).map((line, i) => [i + 1, line] as const).filter(([, line]) => line.includes(pattern))
  return hits.length === 0 ? 'No matches found' : `Found ${hits.length} matches\n\n${file}\n${hits.map(([at, line]) => `Line ${at}: ${line}`).join('\n')}`
}
const PARSER = ['import { load } from "./load"', 'export class Parser {', '  parse(text: string) {', '    return load(text)', '  }', '}']
const SYNTAX_ERROR = 'Your proposed edit has introduced new syntax error(s). Please read this error message carefully and then retry editing the file.\n\nERRORS:\n- E999 IndentationError: unexpected indent\n\nThis is how your edit would have looked if applied\n'

export const SCENARIOS: readonly Scenario[] = [
  // ── traps: real work ───────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'polling a job whose output changes',
    kind: 'trap', config: DENY,
    tools: { job_output: (_, runs) => runs < 12 ? `building… ${runs * 8}%\n[status: running]` : 'built\n[status: completed, exit code: 0]' },
    script: repeat(12, call('job_output', { job_id: 'bash-3', wait: false })),
    expected: NONE,
  },
  {
    name: 'edit, then re-run the same failing test',
    kind: 'trap', config: DENY,
    // The test fails on each run, and its failure follows each edit: the value it got moves on.
    tools: { edit: edited, bash: (_, runs) => `FAIL test/app.spec.ts > answers\nAssertionError: expected ${40 + runs} to be 50\n Tests  1 failed | 11 passed (12)\n[exit code: 1]` },
    script: range(8).flatMap(i => [
      call('edit', { file_path: 'src/app.ts', old_string: `return ${40 + i}`, new_string: `return ${41 + i}` }),
      call('bash', { command: 'npm test', description: 'Run the tests' }),
    ]),
    expected: NONE,
  },
  {
    name: 'paging through a long file',
    kind: 'trap', config: DENY,
    tools: { read: args => `<content>\n${Number(args.offset) + 1}: log line\n(Showing lines …)</content>` },
    script: range(14).map(i => call('read', { file_path: 'build.log', offset: i * 200, limit: 200 })),
    expected: NONE,
  },
  {
    name: 'the same edit across many files',
    kind: 'trap', config: DENY,
    tools: { edit: edited },
    script: range(14).map(i => call('edit', { file_path: `src/module-${i}.ts`, old_string: 'var ', new_string: 'let ' })),
    expected: NONE,
  },
  {
    name: 're-reading a file that changed',
    kind: 'trap', config: DENY,
    tools: { read: (args, runs) => `<path>${String(args.file_path)}</path>\n<content>\n1: export const version = ${runs}\n</content>`, edit: edited },
    script: range(8).flatMap(i => [
      call('read', { file_path: 'src/version.ts' }),
      call('edit', { file_path: 'src/version.ts', old_string: `version = ${i + 1}`, new_string: `version = ${i + 2}` }),
    ]),
    expected: NONE,
  },
  {
    name: 'bookkeeping calls interleaved with work',
    kind: 'trap', config: DENY,
    tools: { todo_write: () => 'Updated todo list: 2 pending, 1 in progress, 0 completed.', grep: args => `Found 1 matches\n\nsrc/a.ts\nLine 3: ${String(args.pattern)}` },
    script: range(12).flatMap(i => [
      call('todo_write', { todos: [{ content: 'fix the parser', status: 'in_progress' }] }),
      call('grep', { pattern: `symbol${i}` }),
    ]),
    expected: NONE,
  },
  {
    name: 'stepping through a debugger',
    kind: 'trap', config: DENY,
    tools: { debug_step: (_, runs) => `stopped at src/parser.ts:${40 + runs}\n> ${40 + runs}  const token = next()` },
    script: repeat(14, call('debug_step', {})),
    expected: NONE,
  },
  {
    name: 're-running a flaky test suite',
    kind: 'trap', config: DENY,
    tools: { bash: (_, runs) => `FAIL ${['a', 'b', 'a', 'c', 'b', 'a', 'c', 'b', 'a'][runs - 1]}.spec.ts\n Tests  1 failed | 11 passed (12)\n Duration  ${runs}.2s\n[exit code: 1]` },
    script: repeat(9, call('bash', { command: 'npm test', description: 'Run the tests again' })),
    expected: NONE,
  },
  {
    name: 'fixing a build error by error, timestamps in the output',
    kind: 'trap', config: DENY,
    tools: {
      str_replace_editor: args => `The file ${String(args.path)} has been edited successfully.`,
      bash: (_, runs) => `[${10 + runs}:02:11] tsc: src/app.ts(3,7): error TS2322\nFound 1 error in 2.${runs}s\n[exit code: 2]`,
    },
    script: range(8).flatMap(i => [
      call('str_replace_editor', { command: 'str_replace', path: '/home/dev/app/src/app.ts', old_str: `let v${i}`, new_str: `let v${i + 1}` }),
      call('bash', { command: 'npm run build', description: 'Build' }),
    ]),
    expected: NONE,
  },
  {
    name: 'waiting on subagents whose status moves',
    kind: 'trap', config: DENY,
    tools: { list_agents: (_, runs) => `a1 [${runs < 4 ? 'running' : 'idle'}] — lint\nb2 [${runs < 8 ? 'running' : 'idle'}] — tests\nc3 [${runs < 11 ? 'running' : 'idle'}] — docs` },
    script: repeat(13, call('list_agents', { scope: 'children' })),
    expected: NONE,
  },
  {
    name: 'commit, then check the status',
    kind: 'trap', config: DENY,
    tools: { bash: args => String(args.command).startsWith('git commit') ? '[main 1a2b3c4] step\n 1 file changed' : 'On branch main\nnothing to commit, working tree clean' },
    script: range(8).flatMap(i => [
      call('bash', { command: `git commit -am "step ${i}"`, description: 'Commit' }),
      call('bash', { command: 'git status', description: 'Check the tree' }),
    ]),
    expected: NONE,
  },
  {
    name: 'polling with a growing timeout while the output moves',
    kind: 'trap', config: DENY,
    tools: { job_output: (_, runs) => runs % 3 === 0 ? `step ${runs} done\n[status: running]` : '(no new output)\n[status: running]' },
    script: range(14).map(i => call('job_output', { job_id: 'bash-5', wait: true, timeout_ms: 1000 * (i + 1) })),
    expected: NONE,
  },
  {
    name: 'a short reminder, and a progress note that changes',
    kind: 'trap', config: DENY,
    tools: { grep: ok },
    inject: runs => `Keep going.\n\nProgress: step ${runs} of 20 done. The plan still holds: parse, type-check, emit, then run the whole test suite.`,
    script: range(8).map(i => call('grep', { pattern: `p${i}` })),
    expected: NONE,
  },
  {
    name: 'a script rewritten by heredoc and re-run',
    kind: 'trap', config: DENY,
    tools: {
      bash: args => String(args.command).startsWith('cat <<')
        ? '(no output)'
        : 'Traceback (most recent call last):\n  File "/repo/repro.py", line 3, in <module>\n    parse("1,,2")\nValueError: empty field at column 3\n[exit code: 1]',
    },
    script: range(5).flatMap(i => [
      call('bash', {
        command: `cat <<'EOF' > repro.py\nfrom csvlite import parse\n# attempt ${i + 1}\nparse(${JSON.stringify(['1,,2', '1, ,2', '"1",,"2"', '1,,2\\n', ',1,,2'][i])})\nEOF`,
        description: 'Write the reproduction script',
      }),
      call('bash', { command: 'python repro.py', description: 'Run the reproduction' }),
    ]),
    expected: NONE,
  },
  {
    name: 'edit and test in one command, then patches between re-runs',
    kind: 'trap', config: DENY,
    tools: { bash: args => String(args.command).includes('git apply') ? noOutput(args, 0) : pytestFailure },
    script: [
      ...range(3).map(i => call('bash', {
        command: `cd /repo && sed -i 's/return a \\/ b/return ${['None if b == 0 else a / b', 'a / b if b else None', '(a / b) if b != 0 else None'][i]}/' src/calc.py && python -m pytest -x tests/test_calc.py`,
        description: 'Fix and test',
      })),
      ...range(4).flatMap(i => [
        call('bash', { command: `cd /repo && git apply /tmp/fix-${i + 1}.patch`, description: 'Apply the next patch' }),
        call('bash', { command: 'cd /repo && python -m pytest -x tests/test_calc.py', description: 'Test' }),
      ]),
    ],
    expected: NONE,
  },
  {
    name: 'edit and test in one command that fails, with a plain re-run between',
    kind: 'trap', config: DENY,
    tools: { bash: () => pytestFailure },
    // Each combined command edits the file, though its exit code is the tests': the re-runs between are after progress.
    script: range(5).flatMap(i => [
      call('bash', { command: `cd /repo && sed -i 's/x${i}/x${i + 1}/' src/calc.py && python -m pytest -x`, description: 'Fix and test' }),
      call('bash', { command: 'cd /repo && python -m pytest -x', description: 'Test again' }),
    ]),
    expected: NONE,
  },
  {
    name: 'fixes rejected for syntax errors, then one that lands',
    kind: 'trap', config: DENY,
    tools: {
      str_replace_editor: (args, runs) => {
        if (runs <= 3) throw new Error(SYNTAX_ERROR + String(args.new_str))
        return `The file ${String(args.path)} has been edited successfully.`
      },
      bash: () => '8 passed in 0.29s',
    },
    script: [
      ...['  if b == 0:\n    return None', '    if b == 0: return None', 'if b == 0:\n        return None', '    if b == 0:\n        return None'].map(fix => call('str_replace_editor', {
        command: 'str_replace', path: '/repo/src/calc.py', old_str: '    return a / b', new_str: `${fix}\n    return a / b`,
      })),
      call('bash', { command: 'python -m pytest -x tests/test_calc.py', description: 'Test' }),
    ],
    expected: NONE,
  },
  {
    name: 're-reading a file after the context was compacted',
    kind: 'trap', config: DENY,
    tools: { read },
    script: repeat(6, call('read', { file_path: 'src/app.ts' })),
    compaction: { after: 3, kind: 'summary' },
    expected: NONE,
  },
  {
    name: 're-reading a file after its result was pruned',
    kind: 'trap', config: DENY,
    tools: { read },
    script: repeat(6, call('read', { file_path: 'src/app.ts' })),
    compaction: { after: 3, kind: 'prune' },
    expected: NONE,
  },
  {
    name: 'fix, test, fix while the failure changes, until it passes',
    kind: 'trap', config: DENY,
    tools: {
      edit: edited,
      bash: (_, runs) => [
        'E   ZeroDivisionError: division by zero\nsrc/calc.py:12: ZeroDivisionError\n1 failed, 7 passed in 0.31s\n[exit code: 1]',
        'E   AssertionError: assert divide(4, 2) == 2.0\nsrc/calc.py:14: AssertionError\n1 failed, 7 passed in 0.29s\n[exit code: 1]',
        'E   TypeError: unsupported operand type(s) for /: \'str\' and \'int\'\n1 failed, 7 passed in 0.30s\n[exit code: 1]',
        '8 passed in 0.30s',
      ][runs - 1] ?? '8 passed in 0.30s',
    },
    script: ['return None if b == 0 else a / b', 'return None if b == 0 else a / b * 1.0', 'return None if b == 0 else float(a) / b', 'return None if not b else a / b']
      .flatMap((fix, i) => [
        call('edit', { file_path: 'src/calc.py', old_string: i === 0 ? 'return a / b' : 'return None', new_string: fix }),
        call('bash', { command: 'python -m pytest -x tests/test_calc.py', description: 'Test' }),
      ]),
    expected: NONE,
  },
  {
    name: 'near-identical edits that each remove the next lines of junk, converging',
    kind: 'trap', config: DENY,
    tools: {
      edit: edited,
      // The module stops compiling at the first junk line left; each edit takes the next few away.
      bash: (_, runs) => runs <= 4
        ? `Traceback (most recent call last):\n  File "<string>", line 1, in <module>\n  File "/repo/src/app.py", line 12\n    <<<<<<< merged ${runs}\n    ^^\nSyntaxError: invalid syntax\n[exit code: 1]`
        : '(no output)',
    },
    script: range(5).flatMap(i => [
      call('edit', { file_path: 'src/app.py', old_string: `<<<<<<< merged ${i}\n=======\n>>>>>>> theirs ${i}\n`, new_string: '' }),
      call('bash', { command: 'python -c "import app"', description: 'Does it import?' }),
    ]),
    expected: NONE,
  },
  {
    name: 'a reset and re-apply of a revised patch',
    kind: 'trap', config: DENY,
    tools: { bash: (args, runs) => String(args.command).startsWith('git') ? noOutput(args, runs) : runs < 6 ? pytestFailure : '8 passed in 0.29s' },
    script: range(3).flatMap(i => [
      call('bash', { command: `git checkout src/calc.py && git apply /tmp/fix-v${i + 1}.patch`, description: 'Reset and apply the revised patch' }),
      call('bash', { command: 'python -m pytest -x tests/test_calc.py', description: 'Test' }),
    ]),
    expected: NONE,
  },
  {
    name: 'repairing self-inflicted syntax errors, each error different',
    kind: 'trap', config: DENY,
    tools: {
      edit: edited,
      bash: (_, runs) => [
        '  File "/repo/app/models.py", line 144\n    and self.code == other.code\nIndentationError: unexpected indent\n[exit code: 1]',
        '  File "/repo/app/models.py", line 401\n    raise ValidationError(\n                         ^\nSyntaxError: \'(\' was never closed\n[exit code: 1]',
        '  File "/repo/app/models.py", line 95, in __init__\n    super().__init__(name=name, code=code)\nTypeError: __init__() got an unexpected keyword argument \'code\'\n[exit code: 1]',
        'Caught ValidationError with code=invalid\nOK',
      ][runs - 1] ?? 'OK',
    },
    script: range(4).flatMap(i => [
      call('edit', { file_path: 'app/models.py', old_string: `fix ${i}`, new_string: `fix ${i + 1}` }),
      call('bash', { command: 'python reproduce.py', description: 'Reproduce' }),
    ]),
    expected: NONE,
  },
  {
    name: 'exploring different files',
    kind: 'trap', config: DENY,
    tools: { read: view, grep: grepIn({ 'src/parser.ts': PARSER }) },
    script: ['parser', 'lexer', 'ast', 'emit', 'check', 'load', 'cli', 'config'].flatMap(file => [
      call('read', { file_path: `src/${file}.ts`, offset: 0, limit: 40 }), call('grep', { pattern: `${file}Options`, path: `src/${file}.ts` }),
    ]),
    expected: NONE,
  },
  {
    name: 'one pass through a long file in windows, backwards then on',
    kind: 'trap', config: DENY,
    tools: { read: view },
    // An aimless pass, but every window shows lines not read before.
    script: [600, 560, 520, 480, 440, 400, 640, 680, 720, 760, 800, 840].map(offset => call('read', { file_path: 'src/parser.ts', offset, limit: 40 })),
    expected: NONE,
  },
  {
    name: 'grep refinements that narrow down to a hit',
    kind: 'trap', config: DENY,
    tools: { grep: grepIn({ 'src/parser.ts': PARSER }) },
    script: ['parse_text', 'parseText', 'parse(', 'parse', 'return load', 'load(text)'].map(pattern => call('grep', { pattern, path: 'src/parser.ts' })),
    expected: NONE,
  },
  {
    name: 'a name truly absent, asked once per file of a plan',
    kind: 'trap', config: DENY,
    tools: { grep: grepIn({}) },
    script: ['parser', 'lexer', 'ast', 'emit', 'check', 'load', 'cli', 'config'].map(file => call('grep', { pattern: 'legacyApi', path: `src/${file}.ts` })),
    expected: NONE,
  },
  // ── loops ──────────────────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'the same read, the same result',
    kind: 'loop', config: {},
    tools: { read },
    script: repeat(7, call('read', { file_path: 'src/app.ts' })),
    expected: { notices: ['read × 4, same result'], refusals: 0 },
  },
  {
    name: 'A-B ping-pong',
    kind: 'loop', config: {},
    tools: { read, bash: failingTest },
    // Eight laps: the cycle's notice at lap 3 and its next at lap 8, not one as each call reaches its 4th repeat.
    script: range(8).flatMap(() => [call('read', { file_path: 'src/app.ts' }), call('bash', { command: 'npm test', description: 'Test' })]),
    expected: { notices: ['cycle × 3: read → bash', 'cycle × 8: read → bash'], refusals: 0 },
  },
  {
    name: 'a four-call cycle',
    kind: 'loop', config: {},
    tools: { grep: ok, curl: () => 'HTTP/1.1 503 Service Unavailable', read, bash: failingTest },
    script: range(8).flatMap(() => [
      call('grep', { pattern: 'upstream' }), call('curl', { url: 'http://localhost:8080/health' }),
      call('read', { file_path: 'server.log' }), call('bash', { command: 'npm test', description: 'Test' }),
    ]),
    expected: { notices: ['cycle × 3: grep → curl → read → bash', 'cycle × 8: grep → curl → read → bash'], refusals: 0 },
  },
  {
    name: 'the same failing command',
    kind: 'loop', config: {},
    tools: { bash: failingTest },
    script: repeat(7, call('bash', { command: 'npm test', description: 'Run the tests' })),
    expected: { notices: ['bash × 4, same failure'], refusals: 0 },
  },
  {
    name: 'the same error with different arguments',
    kind: 'loop', config: {},
    tools: { read: notFound },
    script: range(3).map(i => call('read', { file_path: `src/missing-${i}.ts` })),
    expected: { notices: ['read failed × 3, same error'], refusals: 0 },
  },
  {
    name: 'a refused call retried',
    kind: 'loop', config: DENY,
    tools: { bash: failingTest },
    script: repeat(13, call('bash', { command: 'npm test', description: 'Run the tests' })),
    expected: { notices: ['bash × 4, same failure', 'bash × 9, same failure'], refusals: 3 },
  },
  {
    name: 'polling without news',
    kind: 'loop', config: {},
    tools: { job_output: () => '(no new output)\n[status: running]' },
    script: repeat(7, call('job_output', { job_id: 'bash-2' })),
    expected: { notices: ['job_output × 6, same result'], refusals: 0 },
  },
  {
    name: 'output that differs only in timestamps and timings',
    kind: 'loop', config: {},
    tools: { bash: (_, runs) => `2026-11-30T06:${10 + runs}:00Z GET /health 503 in ${runs * 7}ms (pid ${4000 + runs})\n[exit code: 22]` },
    script: repeat(7, call('bash', { command: 'curl -f localhost:8080/health', description: 'Probe' })),
    expected: { notices: ['bash × 4, same failure'], refusals: 0 },
  },
  {
    name: 'the same change and the same test, again and again',
    kind: 'loop', config: {},
    tools: { write: edited, bash: failingTest },
    script: range(8).flatMap(() => [
      call('write', { file_path: 'src/app.ts', content: 'export const answer = 41\n' }),
      call('bash', { command: 'npm test', description: 'Test' }),
    ]),
    expected: { notices: ['cycle × 3: write → bash', 'cycle × 8: write → bash'], refusals: 0 },
  },
  {
    name: 'a new description, the same command',
    kind: 'loop', config: {},
    tools: { bash: failingTest },
    script: range(7).map(i => call('bash', { command: 'npm test', description: `Attempt ${i + 1}` })),
    expected: { notices: ['bash × 4, same failure'], refusals: 0 },
  },
  {
    name: 'the same hook text every step',
    kind: 'loop', config: {},
    tools: { grep: ok },
    inject: () => 'Stop hook: the task is not finished until the linter and the full test suite pass. Keep working.',
    script: range(4).map(i => call('grep', { pattern: `p${i}` })),
    expected: { notices: ['repeated text × 3 from plugin hooks-claude-code'], refusals: 0 },
  },
  {
    name: 'a three-read cycle',
    kind: 'loop', config: {},
    tools: { read },
    script: range(3).flatMap(() => ['a', 'b', 'c'].map(file => call('read', { file_path: `src/${file}.ts` }))),
    expected: { notices: ['cycle × 3: read → read → read'], refusals: 0 },
  },
  {
    name: 'six identical calls in one response',
    kind: 'loop', config: {},
    tools: { read },
    concurrent: ['read'],
    script: [{ calls: range(6).map(() => ({ name: 'read', args: { file_path: 'src/app.ts' } })) }],
    expected: { notices: ['read × 4, same result'], refusals: 0 },
  },
  {
    name: 'an edit that keeps failing the same way',
    kind: 'loop', config: {},
    tools: { edit: (args) => { throw new Error(`old_string was not found in "${String(args.file_path)}"`) } },
    script: repeat(7, call('edit', { file_path: 'src/app.ts', old_string: 'return 41', new_string: 'return 42' })),
    expected: { notices: ['edit × 4, same failure'], refusals: 0 },
  },
  {
    name: 'a long viewing cycle',
    kind: 'loop', config: {},
    tools: { read: view },
    script: range(4).flatMap(() => [
      { file_path: 'src/server.ts', offset: 0, limit: 80 }, { file_path: 'src/server.ts', offset: 80, limit: 80 },
      { file_path: 'src/router.ts' }, { file_path: 'src/handlers/user.ts', offset: 40, limit: 60 },
      { file_path: 'src/db.ts' }, { file_path: 'src/config.ts' }, { file_path: 'test/server.spec.ts', offset: 0, limit: 120 },
    ].map(args => call('read', args))),
    // Laps 2 to 4 are revisits (noticed at 10, 15, 20 of them); lap 4 is also each view's fourth identical call, held
    // back: the run's notice already names the calls it keeps going back to.
    expected: {
      notices: ['10 calls in a row repeat earlier ones', '15 calls in a row repeat earlier ones', '20 calls in a row repeat earlier ones'],
      refusals: 0,
    },
    says: ['You are going over the same ground'],
  },
  {
    name: 'paging through a file again',
    kind: 'loop', config: {},
    tools: { read: view },
    script: range(2).flatMap(() => range(12).map(i => call('read', { file_path: 'logs/server.log', offset: i * 200, limit: 200 }))),
    // The fourth window of the second pass is paging over old ground; the run of revisits it is made of reaches ten
    // six calls later, the same loop, told by the run as its windows repeat exactly.
    expected: { notices: ['logs/server.log: 4 windows over old ground', '10 calls in a row repeat earlier ones'], refusals: 0 },
  },
  {
    name: 'a drifting loop of greps and reads',
    kind: 'loop', config: {},
    tools: { read: view, grep: grepHits },
    script: [0, 1, 2, 3, 4, 5, 2, 0, 3, 1, 5, 4, 1, 3, 0, 4, 2, 5].map(i => [
      call('grep', { pattern: 'handleRequest', path: 'src' }), call('read', { file_path: 'src/server.ts', offset: 0, limit: 60 }),
      call('grep', { pattern: 'timeout', path: 'src' }), call('read', { file_path: 'src/client.ts' }),
      call('grep', { pattern: 'retry(', path: 'src' }), call('read', { file_path: 'src/server.ts', offset: 60, limit: 60 }),
    ][i]!),
    // Six calls, then twelve revisits in no fixed order (no cycle, and no call made a fourth time).
    expected: { notices: ['10 calls in a row repeat earlier ones'], refusals: 0 },
  },
  {
    name: 'a shell edit repeated',
    kind: 'loop', config: {},
    tools: { bash: noOutput },
    script: repeat(5, call('bash', { command: "sed -i 's/timeout=5/timeout=30/' src/client.py", description: 'Raise the timeout' })),
    expected: { notices: ['bash × 4, same result'], refusals: 0 },
    says: ['Making the same change again'],
  },
  {
    name: 'an edit rejected again and again for other inputs',
    kind: 'loop', config: {},
    tools: { edit: (args) => { throw new Error(`old_string was not found in "${String(args.file_path)}"`) } },
    script: ['return 41', 'return 41;', '  return 41', 'return  41', 'return answer - 1', 'return 41 // TODO'].map(old => call('edit', {
      file_path: 'src/app.ts', old_string: old, new_string: 'return 42',
    })),
    expected: { notices: ['edit rejected input × 5, same error'], refusals: 0 },
    says: ['has rejected your input 5 times'],
  },
  {
    name: 'a debug print inserted, deleted, and inserted again: the same SyntaxError',
    kind: 'loop', config: {},
    tools: {
      bash: (args, runs) => String(args.command).startsWith('sed') ? noOutput(args, runs) : runs === 1 ? 'Code: None\nFAILURE: no error code' : DEBUG_SYNTAX_ERROR,
      read: view,
    },
    script: [
      call('bash', { command: 'python reproduce.py', description: 'Reproduce' }),
      call('bash', { command: `sed -i '32i\\${DEBUG_PRINT}' app/models.py`, description: 'Add a debug print' }),
      call('bash', { command: 'python reproduce.py', description: 'Reproduce' }),
      call('read', { file_path: 'app/models.py', offset: 25, limit: 11 }),
      call('bash', { command: "sed -i '32d' app/models.py", description: 'Remove it' }),
      call('bash', { command: `sed -i '31a\\${DEBUG_PRINT}' app/models.py`, description: 'Add it after the raise' }),
      call('bash', { command: 'python reproduce.py', description: 'Reproduce' }),
    ],
    expected: { notices: ['edit undone and redone: app/models.py'], refusals: 0 },
    says: ['Decide which version of app/models.py you want'],
  },
  {
    name: 'the same NameError after three rewrites of the reproduction script',
    kind: 'loop', config: {},
    tools: { edit: edited, bash: (_, runs) => REPRO_NAME_ERROR(10 + runs) },
    script: range(4).flatMap(i => [
      call('bash', { command: 'cd /repo && python reproduce.py', description: 'Reproduce' }),
      call('edit', { file_path: 'reproduce.py', old_string: `# attempt ${i}`, new_string: `# attempt ${i + 1}` }),
    ]).concat(call('bash', { command: 'cd /repo && python reproduce.py', description: 'Reproduce' })),
    expected: { notices: ['bash failed × 3 after edits, same failure'], refusals: 0 },
    says: ['It is raised in /repo/django/db/backends/sqlite3/base.py, which those edits did not touch.'],
  },
  {
    name: 'debug lines that keep breaking the module the same way',
    kind: 'loop', config: {},
    tools: {
      bash: (args, runs) => String(args.command).startsWith('sed')
        ? noOutput(args, runs)
        : [3, 5, 10].includes(runs) ? LINT_FAILURE : broken(runs),
    },
    script: [
      // Each round's first print worded a little differently: no edit is made again verbatim, the failure comes back.
      'PROBE', 'CLEAN', 'PROBE', 'INSERT ignore={ignore}', 'PROBE', 'INSERT root={root}', 'PROBE', 'CLEAN', 'INSERT ignore: {ignore}', 'PROBE',
      'INSERT d={d!r}', 'PROBE',
    ].map(step => call('bash', {
      command: step === 'PROBE' ? 'cd reproduction && python3 reproduce.py'
        : step === 'CLEAN' ? "sed -i '/DEBUG:/d' pylint/lint/pylinter.py"
          : `sed -i '/def _discover_files/a \\        print(f"DEBUG: ${step.slice(7)}")' pylint/lint/pylinter.py`,
      description: step,
    })),
    expected: { notices: ['bash failure back × 3'], refusals: 0 },
    says: ['Your edits are undoing each other.'],
  },
  {
    name: 're-reading a file when a compaction failed',
    kind: 'loop', config: {},
    tools: { read },
    script: repeat(6, call('read', { file_path: 'src/app.ts' })),
    compaction: { after: 3, kind: 'failed' },
    expected: { notices: ['read × 4, same result'], refusals: 0 },
  },
  {
    name: 'five spellings of a name, every search empty, then the same searches again',
    kind: 'loop', config: {},
    tools: { grep: grepIn({ 'src/parser.ts': PARSER }) },
    // The sixth call asks for the third time what was already answered; the rest only repeat (each a second time).
    script: range(2).flatMap(() => ['parse_config', 'def parse_config', 'parseConfig', 'parse_conf', 'load_config'].map(pattern => call('grep', { pattern, path: 'src/parser.ts' }))),
    expected: { notices: ['6 calls brought nothing new'], refusals: 0 },
    says: ['is not there under any of these names'],
  },
  {
    name: 'a program re-run under other flags, the same output each time',
    kind: 'loop', config: {},
    tools: { bash: () => '************* Module foo\nfoo.py:1:0: C0104: Disallowed name "foo" (disallowed-name)\nfoo.py:2:0: C0104: Disallowed name "bar" (disallowed-name)\n[exit code: 16]' },
    script: ['"foo,bar"', '"foo, bar"', '"foo,,bar"', '"foo bar"', 'foo'].map(names => call('bash', { command: `pylint --bad-names-rgxs=${names} foo.py`, description: 'Lint' })),
    // Every run fails alike (pylint's exit 16, the same messages): the same outcome under four commands, told at the
    // fourth, before the fifth call that brought no news would have been.
    expected: { notices: ['4 runs, 4 commands, same failure'], refusals: 0 },
    says: ['does not change this outcome'],
  },
  {
    name: 'windows read backwards, then forwards over the same ranges',
    kind: 'loop', config: {},
    tools: { read: view },
    script: [200, 180, 160, 140, 120, 100, 100, 120, 140, 160, 180, 200].map(offset => call('read', { file_path: 'src/parser.ts', offset, limit: 20 })),
    // The first forward window is the one just read; the next four go over old ground, the fourth of them told.
    expected: { notices: ['src/parser.ts: 4 windows over old ground'], refusals: 0 },
    says: ['You have read these lines'],
  },
]
