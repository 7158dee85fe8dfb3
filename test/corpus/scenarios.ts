/**
 * The scenario corpus: real work that looks like a loop (traps) and real loops, each played by a scripted model
 * through the real DSH agent loop against tools with realistic outputs. Each scenario states exactly which notices
 * (by summary) and how many refusals the default configuration must produce.
 */
import type { Config } from '../../src/config.ts'
import { call, repeat, type Turn } from '../support/dsh.ts'

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
  /** Expected with this config: notice summaries in order, and the number of refused calls. */
  readonly expected: { readonly notices: readonly string[]; readonly refusals: number }
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i)
const NONE = { notices: [], refusals: 0 } as const
const DENY = { mode: 'deny' } as const

const read: Body = args => `<path>${String(args.file_path)}</path>\n<type>file</type>\n<content>\n1: export const answer = 42\n\n(End of file - total 1 lines)</content>`
const edited: Body = args => `The file ${String(args.file_path)} has been updated successfully.`
const failingTest: Body = () => 'FAIL test/app.spec.ts > answers\nAssertionError: expected 41 to be 42\n Tests  1 failed | 11 passed (12)\n[exit code: 1]'
const ok: Body = () => 'ok'
const notFound: Body = args => {
  throw new Error(`cannot read "${String(args.file_path)}": not found`)
}

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
    tools: { edit: edited, bash: failingTest },
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
  // ── loops ──────────────────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'the same read, the same result',
    kind: 'loop', config: {},
    tools: { read },
    script: repeat(7, call('read', { file_path: 'src/app.ts' })),
    expected: { notices: ['read × 6, same result'], refusals: 0 },
  },
  {
    name: 'A-B ping-pong',
    kind: 'loop', config: {},
    tools: { read, bash: failingTest },
    script: range(3).flatMap(() => [call('read', { file_path: 'src/app.ts' }), call('bash', { command: 'npm test', description: 'Test' })]),
    expected: { notices: ['cycle × 3: read → bash'], refusals: 0 },
  },
  {
    name: 'a four-call cycle',
    kind: 'loop', config: {},
    tools: { grep: ok, curl: () => 'HTTP/1.1 503 Service Unavailable', read, bash: failingTest },
    script: range(3).flatMap(() => [
      call('grep', { pattern: 'upstream' }), call('curl', { url: 'http://localhost:8080/health' }),
      call('read', { file_path: 'server.log' }), call('bash', { command: 'npm test', description: 'Test' }),
    ]),
    expected: { notices: ['cycle × 3: grep → curl → read → bash'], refusals: 0 },
  },
  {
    name: 'the same failing command',
    kind: 'loop', config: {},
    tools: { bash: failingTest },
    script: repeat(7, call('bash', { command: 'npm test', description: 'Run the tests' })),
    expected: { notices: ['bash × 6, same failure'], refusals: 0 },
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
    expected: { notices: ['bash × 6, same failure'], refusals: 3 },
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
    expected: { notices: ['bash × 6, same failure'], refusals: 0 },
  },
  {
    name: 'the same change and the same test, again and again',
    kind: 'loop', config: {},
    tools: { write: edited, bash: failingTest },
    script: range(3).flatMap(() => [
      call('write', { file_path: 'src/app.ts', content: 'export const answer = 41\n' }),
      call('bash', { command: 'npm test', description: 'Test' }),
    ]),
    expected: { notices: ['cycle × 3: write → bash'], refusals: 0 },
  },
  {
    name: 'a new description, the same command',
    kind: 'loop', config: {},
    tools: { bash: failingTest },
    script: range(7).map(i => call('bash', { command: 'npm test', description: `Attempt ${i + 1}` })),
    expected: { notices: ['bash × 6, same failure'], refusals: 0 },
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
    expected: { notices: ['read × 6, same result'], refusals: 0 },
  },
  {
    name: 'an edit that keeps failing the same way',
    kind: 'loop', config: {},
    tools: { edit: args => { throw new Error(`old_string was not found in "${String(args.file_path)}"`) } },
    script: repeat(7, call('edit', { file_path: 'src/app.ts', old_string: 'return 41', new_string: 'return 42' })),
    expected: { notices: ['edit × 6, same failure'], refusals: 0 },
  },
]
