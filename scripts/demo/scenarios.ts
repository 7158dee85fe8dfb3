/**
 * The demo's scenarios, as data: what each one shows, the person's prompts, the scripted model's turns, dsh-brake's
 * settings, and the fake tools whose canned outputs the model keeps getting back. Importing it runs and prints nothing:
 * main.ts plays a scenario on the real DSH loop and transcript.ts renders what happened, so a scenario can change
 * without touching either.
 *
 * Plain Node runs this file (type stripping), so it keeps to erasable TypeScript syntax.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { MessageId, UserMessage } from '@deepseek-ai/dsh-llm'
import { call, say, type Turn } from '../dsh-loop.ts'

export interface Scenario {
  readonly name: string
  /** One sentence on what the scenario shows. */
  readonly about: string
  /** dsh-brake's settings, as a user writes them in the profile; `{}` keeps every default. */
  readonly config: Record<string, unknown>
  /** The person's prompts, one turn each; the script covers all of them. */
  readonly prompts: readonly string[]
  /** The scripted model's turns, in order, across all the prompts. */
  readonly script: readonly Turn[]
  /** Extra plugins the scenario needs besides dsh-brake. */
  readonly setup?: (ctx: Context) => Promise<void>
  /** Tools whose outputs differ in this scenario from {@link FAKE_TOOLS}'. */
  readonly tools?: Readonly<Record<string, FakeTool>>
}

/** A fake tool body: its output for these arguments on its `runs`-th run (this one included). */
export type FakeTool = (args: unknown, runs: number) => string

const APP = { file_path: 'src/app.ts' }
const TEST = { command: 'npm test -- server' }

/** `item` (a turn, or a lap of turns) `count` times over: a model stuck in place. */
function times<T>(count: number, item: T): T[] {
  return Array.from({ length: count }, () => item)
}

/** What another plugin keeps re-attaching: long enough (>= 80 chars) for the duplicate-text detector to count it. */
const REMINDER = 'Reminder: this repository requires a CHANGELOG entry and a passing `npm run lint` for every user-facing change. Check both before you report back.'

/**
 * A stand-in for a real hook plugin that re-injects the same context after every tool call. Each attachment gets a
 * fresh message id, as a real producer's would: dsh-brake takes an id it has already seen for a replay and skips it.
 */
async function hooksDemo(ctx: Context): Promise<void> {
  const reminder = (): UserMessage => ({
    content: [{ type: 'text', text: REMINDER }],
    source: { kind: 'plugin', plugin: 'hooks-demo' },
    role: 'user',
    id: globalThis.crypto.randomUUID() as MessageId,
  })
  await ctx.plugin({
    name: 'hooks-demo',
    apply(ctx: Context) {
      ctx.on('tools/post-execute', async (_exec, _result, next) => {
        const decision = await next()
        return { ...decision, additionalContexts: [reminder(), ...decision.additionalContexts ?? []] }
      })
    },
  })
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'identical',
    about: 'The model reads the same file 5 times; the 4th result comes back with a notice (callWarnCount 4).',
    config: {},
    prompts: ['The app crashes on start. Find out why.'],
    script: [
      ...times(5, call('read', APP)),
      say('The crash is in main(): APP_ENV is unset, so loadConfig() returns no port. Set APP_ENV or default the port.'),
    ],
  },
  {
    name: 'sequence',
    about: 'The model loops grep → curl → read → bash with the same arguments; lap 3 ends with a notice, and lap 4, each call\'s 4th, adds none: one loop, one voice.',
    config: {},
    prompts: ['The health check returns 503. Fix it.'],
    script: [
      ...times(4, [
        call('grep', { pattern: 'upstream unavailable', path: 'src' }),
        call('curl', { url: 'http://localhost:8080/health' }),
        call('read', { file_path: 'src/server.ts' }),
        call('bash', TEST),
      ]).flat(),
      say('The upstream service is down, so /health answers 503 whatever I change here. Please start the upstream (port 9000) and I will re-check.'),
    ],
  },
  {
    name: 'revisit',
    about: 'The model pages through the same six windows of a file, lap after lap; the 4th window of lap 2 comes with a notice (paging over old ground), and the 10th call in a row that repeats an earlier one with the same loop\'s next.',
    config: {},
    prompts: ['Find where the server decides its port.'],
    script: [
      ...times(3, [0, 1, 2, 3, 4, 5].map(i => call('read', { file_path: 'src/server.ts', offset: 1 + i * 50, limit: 50 }))).flat(),
      say('The port comes from config.port, set in loadConfig(); nothing in src/server.ts overrides it.'),
    ],
  },
  {
    name: 'text',
    about: 'Another plugin re-attaches the same reminder after every call; the third copy comes with a notice.',
    config: {},
    prompts: ['Update the README for the new --port flag and run the checks.'],
    setup: hooksDemo,
    script: [
      call('read', { file_path: 'README.md' }),
      call('grep', { pattern: '--port', path: 'src' }),
      call('bash', { command: 'npm run lint' }),
      call('bash', { command: 'npm test' }),
      say('README now documents --port; lint and tests pass. The CHANGELOG entry is already there.'),
    ],
  },
  {
    name: 'deny',
    about: 'Deny mode: notices at the 4th and 9th identical calls; calls 11 and 12 are refused and never run.',
    config: { mode: 'deny' },
    prompts: ['The server test is flaky. Get it green.'],
    script: [
      ...times(12, call('bash', TEST)),
      say('The test fails every time with ECONNREFUSED on 127.0.0.1:8080: nothing is listening there. Is the dev server supposed to be running?'),
    ],
  },
  {
    name: 'stop',
    about: 'Stop mode: the model ignores the notice at the 4th identical run, so the turn ends at the 9th, with a reason in place of a second notice; the person\'s next message goes on afresh.',
    config: { mode: 'stop' },
    prompts: ['The server test is flaky. Get it green.', 'I started the database. Run the test once more and tell me what it says.'],
    script: [
      ...times(9, call('bash', TEST)),
      call('bash', TEST),
      say('Still ECONNREFUSED on 127.0.0.1:8080: the database is up, but the server the test talks to is not listening.'),
    ],
  },
  {
    name: 'runaway',
    about: 'The model\'s reasoning falls into one sentence and would write it 800 times; the brake cuts the response after about 20 copies (800 characters), closing the stream, and the model reads one notice and goes on.',
    config: {},
    prompts: ['The dev server will not start. Get it running.'],
    script: [
      { reasoning: ['Port 8080 is still held by the earlier run. ', ...times(800, 'I\'ll kill the stale process now. ')], calls: [{ name: 'bash', args: { command: 'kill 4242' } }] },
      call('bash', { command: 'lsof -i :8080' }),
      say('The old server (pid 4242) still holds port 8080. Stop it with `kill 4242`, then `npm start` will bind the port.'),
    ],
  },
  {
    name: 'progress',
    about: 'Real work that looks like a loop: 8 polls whose output moves, then edit → re-run the same test 7 times: no notice.',
    config: {},
    prompts: ['Wait for the build, then make the server test pass.'],
    // Each edit raises the retries and the test gets further, until it passes: the story the model tells at the end.
    tools: {
      bash: (_, runs) => runs < 7
        ? `FAIL test/server.spec.ts > starts the server\n  Error: database not ready after ${runs} ${runs === 1 ? 'retry' : 'retries'}\nTests: 1 failed, 11 passed`
        : 'PASS test/server.spec.ts > starts the server\nTests: 12 passed',
    },
    script: [
      ...times(8, call('job_output', { job_id: 'bash-3', wait: true, timeout_ms: 30_000 })),
      ...Array.from({ length: 7 }, (_, i) => [
        call('edit', { file_path: 'src/server.ts', old_string: `retries: ${i}`, new_string: `retries: ${i + 1}` }),
        call('bash', TEST),
      ]).flat(),
      say('The server test passes now: it needed 7 connection retries while the database starts.'),
    ],
  },
  {
    name: 'reset',
    about: '3 identical calls, the person speaks, 3 more: no notice, as a person\'s message resets the count.',
    config: {},
    prompts: ['Run the server test.', 'I restarted the database. Try again.'],
    script: [
      ...times(3, call('bash', TEST)),
      say('Still failing with ECONNREFUSED after three runs.'),
      ...times(3, call('bash', TEST)),
      say('Still ECONNREFUSED: the database restart did not help; the server itself is not listening on 8080.'),
    ],
  },
]

/**
 * The windows of src/server.ts the revisit scenario pages through, by first line: each offset reads its own lines, and
 * the last holds what the model ends up saying.
 */
const SERVER_WINDOWS: Readonly<Record<number, string>> = {
  1: '1\timport { createServer } from \'node:http\'\n2\timport { loadConfig } from \'./config\'',
  51: '51\texport function startServer(port: number) {\n52\t  const server = createServer(handle)',
  101: '101\tfunction handle(req: Request, res: Response) {\n102\t  route(req, res)',
  151: '151\t  server.on(\'error\', onError)\n152\t  return server.listen(port)',
  201: '201\tfunction onError(error: Error) {\n202\t  log.error(error)',
  251: '251\tconst config = await loadConfig(process.env.APP_ENV)\n252\tstartServer(config.port)',
}

/** What `lsof -i :8080` answers while the earlier run's server (pid 4242) still holds the port. */
const LSOF_8080 = 'COMMAND  PID USER   FD   TYPE DEVICE SIZE/OFF NODE NAME\nnode    4242 dev    23u  IPv4 0x3f1a      0t0  TCP *:8080 (LISTEN)'

/** Each shell command's canned output: the server test fails, the rest of the checks pass, the port is held. */
const BASH_OUTPUTS: Readonly<Record<string, string>> = {
  [TEST.command]: 'FAIL test/server.spec.ts > starts the server\n  Error: connect ECONNREFUSED 127.0.0.1:8080\nTests: 1 failed, 11 passed',
  'npm test': 'PASS test/cli.spec.ts\nPASS test/config.spec.ts\nTests: 12 passed',
  'npm run lint': 'ok (0 problems)',
  'lsof -i :8080': LSOF_8080,
}

/**
 * The tools every scenario registers, with plausible canned outputs: what a stuck agent keeps getting back. `runs` is
 * the tool's own run count, this run included, so an output can move between runs.
 */
export const FAKE_TOOLS: Readonly<Record<string, FakeTool>> = {
  job_output: (_, runs) => runs < 8 ? `compiled ${runs * 12} of 96 modules\n[status: running]` : 'build finished\n[status: completed, exit code: 0]',
  edit: args => `The file ${String((args as { file_path?: string }).file_path)} has been updated successfully.`,
  read: (args) => {
    const { file_path: path = '?', offset, limit } = args as { file_path?: string; offset?: number; limit?: number }
    const window = offset === undefined ? undefined : SERVER_WINDOWS[offset]
    if (window !== undefined) return window
    if (path === 'README.md') return '# app\n\nRun `npm start`. Configure with APP_ENV.\n'
    // A window of the file shows its own lines, as a real file's windows do.
    if (offset !== undefined && limit !== undefined) {
      const part = Math.floor(offset / limit)
      return [`// ${path}, lines ${offset}-${offset + limit - 1}`, `export function step${part}(config: Config) {`, `  return config.stages[${part}]`, '}'].join('\n')
    }
    return [
      `// ${path}`,
      'import { loadConfig } from \'./config\'',
      'export async function main() {',
      '  const config = await loadConfig(process.env.APP_ENV)',
      '  return startServer(config.port)',
      '}',
    ].join('\n')
  },
  grep: args => (args as { pattern?: string }).pattern === '--port'
    ? 'src/cli.ts:12:  .option(\'--port <n>\', \'port to listen on\', \'8080\')'
    : 'src/server.ts:42:    throw new Error(\'upstream unavailable\')',
  curl: () => 'HTTP/1.1 503 Service Unavailable\n{"error":"upstream unavailable","retryAfter":30}',
  bash: args => BASH_OUTPUTS[String((args as { command?: string }).command)] ?? 'ok',
}
