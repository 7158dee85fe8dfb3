/**
 * `npm run demo [-- <scenario>]`: dsh-brake inside a real DSH agent loop, with a scripted looping model.
 *
 * Each scenario boots the published DSH services (test/support/dsh.ts), mounts the built plugin through the real
 * Loader from a profile patch row, plays a model script against fake tools, and then prints the agent's session log
 * as a transcript. The transcript is read from the log after the run, not from live hooks, so it shows exactly what
 * the model was given and in which order. No API key, no network.
 *
 * Plain Node runs this file (type stripping), so it keeps to erasable TypeScript syntax.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { ContentBlock, MessageId, UserMessage } from '@deepseek-ai/dsh-llm'
import type { SessionEvent } from '@deepseek-ai/dsh-session'
import { agent, bootDsh, call, mountProfile, prompt, say, tool, type Turn } from '../test/support/dsh.ts'

// ── scenarios ─────────────────────────────────────────────────────────────────────────────────────────────────────

interface Scenario {
  readonly name: string
  /** One sentence on what the scenario shows. */
  readonly about: string
  /** The `config` of the user's patch row; `{}` keeps every default. */
  readonly config: Record<string, unknown>
  /** The person's prompts, one turn each; the script covers all of them. */
  readonly prompts: readonly string[]
  readonly script: readonly Turn[]
  /** Extra plugins the scenario needs besides dsh-brake. */
  readonly setup?: (ctx: Context) => Promise<void>
}

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

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'identical',
    about: 'The model reads the same file 7 times; the 6th result comes back with a notice (callWarnCount 6).',
    config: {},
    prompts: ['The app crashes on start. Find out why.'],
    script: [
      ...times(7, call('read', APP)),
      say('The crash is in main(): APP_ENV is unset, so loadConfig() returns no port. Set APP_ENV or default the port.'),
    ],
  },
  {
    name: 'sequence',
    about: 'The model loops grep → curl → read → bash with the same arguments; lap 3 ends with a notice.',
    config: {},
    prompts: ['The health check returns 503. Fix it.'],
    script: [
      ...times(3, [
        call('grep', { pattern: 'upstream unavailable', path: 'src' }),
        call('curl', { url: 'http://localhost:8080/health' }),
        call('read', { file_path: 'src/server.ts' }),
        call('bash', TEST),
      ]).flat(),
      say('The upstream service is down, so /health answers 503 whatever I change here. Please start the upstream (port 9000) and I will re-check.'),
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
    about: 'Deny mode: a notice at the 6th identical call; calls 11 and 12 are refused and never run.',
    config: { mode: 'deny' },
    prompts: ['The server test is flaky. Get it green.'],
    script: [
      ...times(12, call('bash', TEST)),
      say('The test fails every time with ECONNREFUSED on 127.0.0.1:8080: nothing is listening there. Is the dev server supposed to be running?'),
    ],
  },
  {
    name: 'progress',
    about: 'Real work that looks like a loop: 8 polls whose output moves, then edit → re-run the same test 7 times: no notice.',
    config: {},
    prompts: ['Wait for the build, then make the server test pass.'],
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
    about: '5 identical calls, the person speaks, 5 more: no notice, as a person\'s message resets the count.',
    config: {},
    prompts: ['Run the server test.', 'I restarted the database. Try again.'],
    script: [
      ...times(5, call('bash', TEST)),
      say('Still failing with ECONNREFUSED after five runs.'),
      ...times(5, call('bash', TEST)),
      say('Still ECONNREFUSED: the database restart did not help; the server itself is not listening on 8080.'),
    ],
  },
]

// ── fake tools ────────────────────────────────────────────────────────────────────────────────────────────────────

/** Plausible canned outputs: what a stuck agent keeps getting back. */
const TOOLS: Record<string, (args: unknown, runs: number) => string> = {
  job_output: (_, runs) => runs < 8 ? `compiled ${runs * 12} of 96 modules\n[status: running]` : 'build finished\n[status: completed, exit code: 0]',
  edit: (args) => `The file ${String((args as { file_path?: string }).file_path)} has been updated successfully.`,
  read: (args) => {
    const path = (args as { file_path?: string }).file_path ?? '?'
    if (path === 'README.md') return '# app\n\nRun `npm start`. Configure with APP_ENV.\n'
    return [
      `// ${path}`,
      'import { loadConfig } from \'./config\'',
      'export async function main() {',
      '  const config = await loadConfig(process.env.APP_ENV)',
      '  return startServer(config.port)',
      '}',
    ].join('\n')
  },
  grep: (args) => (args as { pattern?: string }).pattern === '--port'
    ? 'src/cli.ts:12:  .option(\'--port <n>\', \'port to listen on\', \'8080\')'
    : 'src/server.ts:42:    throw new Error(\'upstream unavailable\')',
  curl: () => 'HTTP/1.1 503 Service Unavailable\n{"error":"upstream unavailable","retryAfter":30}',
  bash: (args) => (args as { command?: string }).command === TEST.command
    ? 'FAIL test/server.spec.ts > starts the server\n  Error: connect ECONNREFUSED 127.0.0.1:8080\nTests: 1 failed, 11 passed'
    : 'ok (0 problems)',
}

// ── running ───────────────────────────────────────────────────────────────────────────────────────────────────────

interface Run {
  /** The agent's session log, copied before the context is disposed. */
  readonly events: readonly SessionEvent[]
  /** How many times a tool body actually ran: refused calls never reach it. */
  readonly ran: number
}

async function run(scenario: Scenario): Promise<Run> {
  const ctx = await bootDsh()
  try {
    await mountProfile(ctx, [{ id: 'dsh-brake', config: scenario.config }])
    await scenario.setup?.(ctx)
    const counters = Object.entries(TOOLS).map(([name, body]) => tool(ctx, name, (args, runs) => body(args, runs)))
    const { agent: target } = agent(ctx, [...scenario.script])
    for (const text of scenario.prompts) await prompt(ctx, target, text)
    return { events: [...target.session.events], ran: counters.reduce((sum, counter) => sum + counter.runs, 0) }
  } finally {
    await ctx.fiber.dispose()
  }
}

// ── transcript ────────────────────────────────────────────────────────────────────────────────────────────────────

const COLOUR = process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined
// One column short of the terminal: a line that exactly fills it wraps early in some terminals.
const WIDTH = Math.max(72, Math.min((process.stdout.columns ?? 101) - 1, 110))
const ROLE = 7

/** Each style ends with its own reset code, not the full reset, so a bold tool name keeps its line's colour. */
function paint(on: number, off: number, text: string): string {
  return COLOUR && text !== '' ? `\x1b[${on}m${text}\x1b[${off}m` : text
}

const bold = (text: string): string => paint(1, 22, text)
const dim = (text: string): string => paint(2, 22, text)
const red = (text: string): string => paint(31, 39, text)
const yellow = (text: string): string => paint(33, 39, text)
const cyan = (text: string): string => paint(36, 39, text)

/** The text column: what is left of the width after the role column and the gutter. */
const TEXT = WIDTH - ROLE - 2

/** Length as the terminal shows it: style codes take no room. */
function visible(text: string): number {
  return text.replace(/\x1b\[[0-9;]*m/g, '').length
}

/** Plain `text` cut to `max` characters, an ellipsis marking the cut. */
function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`
}

/**
 * A one-line event. `text` may carry styles, so it is never wrapped (a wrap could split a style code); callers
 * budget it to the text column with {@link preview}.
 */
function row(role: string, text: string, style: (text: string) => string = s => s, gutter = '│'): void {
  console.log(`${style(role.padEnd(ROLE))}${dim(gutter)} ${style(text)}`)
}

/** A multi-line event of plain text, word-wrapped into the text column under one role label. */
function block(role: string, text: string, style: (text: string) => string = s => s, gutter = '│'): void {
  wrap(text, TEXT).forEach((part, i) => row(i === 0 ? role : '', part, style, gutter))
}

/** Word-wrap each line of `text` to `width`; continuation lines hang two columns under the line's own indent. */
function wrap(text: string, width: number): string[] {
  const out: string[] = []
  for (const raw of text.split('\n')) {
    // Short lines stay verbatim: tool output keeps its own spacing.
    if (raw.length <= width) {
      out.push(raw)
      continue
    }
    const lead = /^\s*/.exec(raw)?.[0] ?? ''
    let current = ''
    for (const word of raw.trim().split(/\s+/)) {
      if (current !== '' && current.length + 1 + word.length > width) {
        out.push(current)
        current = `${lead}  ${word}`
      } else {
        current = current === '' ? lead + word : `${current} ${word}`
      }
    }
    out.push(current)
  }
  return out
}

/** `prefix` and the first line of `text`, cut to fit the text column, saying how many lines were left out. */
function preview(prefix: string, text: string): string {
  const lines = text.trimEnd().split('\n')
  const more = lines.length - 1
  const marker = more > 0 ? ` (+${more} ${more === 1 ? 'line' : 'lines'})` : ''
  const head = clip(lines[0] ?? '', TEXT - visible(prefix) - marker.length)
  return `${prefix}${head}${dim(marker)}`
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.map(block => block.type === 'text' ? block.text : '').join('')
}

/** Arguments on one line: the model's raw JSON re-serialised, so its spacing does not matter. */
function compactArgs(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw))
  } catch {
    // Malformed arguments are shown as the model sent them.
    return raw.replace(/\s+/g, ' ')
  }
}

/** A JavaScript-ish literal for the header, matching how a patch row is written in code. */
function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${key}: ${literal(item)}`)
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`
  }
  return String(value)
}

interface Tally {
  calls: number
  notices: number
  refusals: number
}

/** Print the session log as a transcript and count what happened. */
function transcript(events: readonly SessionEvent[]): Tally {
  const tally: Tally = { calls: 0, notices: 0, refusals: 0 }
  // Call ids pair each result with its call's name and number.
  const calls = new Map<string, { name: string; index: number }>()
  for (const event of events) {
    switch (event.type) {
      case 'user/message': {
        const message = event.data
        const source = message.source as { kind: string; plugin?: string; summary?: string }
        const text = textOf(message.content)
        if (source.kind === 'user') {
          block('person', text, bold)
        } else if (source.kind === 'plugin' && source.plugin === 'dsh-brake') {
          // The heavy gutter keeps notices recognisable without colour.
          tally.notices++
          block('brake', `▶ ${source.summary ?? '(no summary)'}`, s => bold(yellow(s)), '┃')
          block('', text.split('\n').map(part => `  ${part}`).join('\n'), yellow, '┃')
        } else {
          row('plugin', preview(`(${source.plugin ?? source.kind}) `, text), dim)
        }
        break
      }
      case 'assistant/message': {
        for (const part of event.data.message.content) {
          if (part.type === 'text' && part.text.trim() !== '') block('model', part.text, cyan)
          if (part.type === 'tool-call') {
            calls.set(part.id, { name: part.name, index: ++tally.calls })
            row('model', preview(`#${tally.calls} ${bold(part.name)} `, compactArgs(part.arguments)), cyan)
          }
        }
        break
      }
      case 'tool/result': {
        const [result] = event.data.message.content
        const which = calls.get(result.toolCallId)
        const label = which === undefined ? '?' : `#${which.index} ${which.name}`
        const text = textOf(result.content)
        if (result.isError === true) {
          if (text.includes('dsh-brake refused this call')) tally.refusals++
          row('tool', preview(`${label} ✗ `, text), red)
        } else {
          row('tool', preview(`${label} ✓ `, text))
        }
        break
      }
      case 'turn/end': {
        // A turn that did not complete (an exhausted script, a host error) would otherwise pass unnoticed.
        const { reason } = event.data
        if (reason.kind !== 'completed') row('turn', `ended: ${reason.kind === 'error' ? reason.error.message : reason.kind}`, red)
        break
      }
      default:
        break
    }
  }
  return tally
}

function header(scenario: Scenario): void {
  const title = `━━ ${scenario.name} `
  console.log(bold(title + '━'.repeat(Math.max(0, WIDTH - title.length))))
  for (const part of wrap(scenario.about, WIDTH)) console.log(part)
  console.log(dim(`patch row: ${literal({ id: 'dsh-brake', config: scenario.config })}`))
  console.log()
}

function footer(tally: Tally, ran: number): void {
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`
  console.log()
  console.log(bold(`→ ${plural(tally.calls, 'call')} made (${ran} ran), ${plural(tally.notices, 'notice')}, ${plural(tally.refusals, 'refusal')}`))
  console.log()
}

// ── main ──────────────────────────────────────────────────────────────────────────────────────────────────────────

async function main(argv: readonly string[]): Promise<number> {
  const wanted = argv[0]
  const chosen = wanted === undefined ? SCENARIOS : SCENARIOS.filter(scenario => scenario.name === wanted)
  if (chosen.length === 0) {
    console.error(`unknown scenario '${wanted}'. Scenarios:`)
    for (const scenario of SCENARIOS) console.error(`  ${scenario.name.padEnd(10)} ${scenario.about}`)
    return 1
  }
  for (const scenario of chosen) {
    header(scenario)
    const { events, ran } = await run(scenario)
    footer(transcript(events), ran)
  }
  return 0
}

process.exitCode = await main(process.argv.slice(2))
