/**
 * dsh-brake through the real `dsh` CLI, the way a user walks it: `dsh plugin --profile headless add <checkout>` (and
 * `add <tarball>`), the bundle row in `--dump-config`, user config in the profile's `cordis.patch.yml`, then
 * `dsh --profile headless "<task>"` against a scripted model server. Stock headless tools execute for real in a
 * temporary workspace; the stock repeat-tool-reminder runs alongside, as in every stock profile. Each scenario checks
 * the notices and refusals that reached the model's requests, and what the session log on disk holds; then runs
 * `dsh-brake analyze --json` on that log, under the scenario's own profile patch, and expects it to find the loop the
 * scenario played and to replay each notice and refusal after the very call the live run gave it.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { repeat } from '../../scripts/dsh-loop.ts'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { analyze, cleanUp, dsh, freshHome, noticesSent, play, sessionEvents, sessionFiles, storedNotices, workspace, writeUserPatch } from './dsh-cli.ts'
import { textOf, type Answer, type ModelServer, type WireMessage } from './model-server.ts'

const call = (name: string, args: unknown): Answer => ({ calls: [{ name, args }] })
const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version

/** The tool results the model was sent in the last request, in order. */
function toolResults(server: ModelServer): string[] {
  const last = server.requests.at(-1)
  return (last?.messages ?? []).filter((message: WireMessage) => message.role === 'tool').map(textOf)
}

let linkHome: string
/** What `dsh plugin add <checkout>` printed. */
let linkAdded = ''

/**
 * pnpm's warnings in what `dsh plugin add` printed: each must be about dsh-brake's peer dependencies, which
 * docs/install.md says are expected (a profile installs plugins without their peers; dsh provides them).
 */
function otherWarnings(output: string): string[] {
  return output.split('\n').filter(line => /\bWARN\b/.test(line))
    .filter(line => !/peer ?dependencies/i.test(line) && !/pnpm linked, has the following peerDependencies/.test(line))
}

beforeAll(async () => {
  linkHome = freshHome()
  const added = await dsh(['plugin', '--profile', 'headless', 'add', PACKAGE_ROOT], { home: linkHome, cwd: linkHome })
  expect(added.code, added.stderr).toBe(0)
  linkAdded = added.stdout + added.stderr
})

const BROKEN_TEST = '#!/bin/sh\nif grep -q "retries = 3" config.txt; then echo "PASS server test"; else echo "FAIL server test: connection refused"; exit 1; fi\n'
/** The same test, saying what it ran with, as a real test's failure follows the change it is testing. */
const REPORTING_TEST = '#!/bin/sh\nif grep -q "retries = 3" config.txt; then echo "PASS server test"; else echo "FAIL server test: connection refused after $(cat config.txt)"; exit 1; fi\n'
const DENY = '- id: dsh-brake\n  config:\n    mode: deny\n'
/** The README's way to hear only dsh-brake: the stock repeat-tool-reminder turned off. */
const BRAKE_ALONE = '- id: repeat-tool-reminder\n  disabled: true\n'

afterAll(() => {
  cleanUp()
})

/** `dsh-brake doctor --profile headless` on `home`, from `bin` (this checkout's built command unless told). */
function doctor(home: string, bin = join(PACKAGE_ROOT, 'dist/cli/main.js')): { code: number | null; out: string } {
  const child = spawnSync(process.execPath, [bin, 'doctor', '--profile', 'headless'], { encoding: 'utf8', env: { ...process.env, DSH_HOME: home } })
  return { code: child.status, out: child.stdout + child.stderr }
}

describe('getting dsh', () => {
  it('the README\'s recipe (installed in test/e2e/cli) gives DSH 0.1.0-rc.8, which boots a profile', async () => {
    const version = await dsh(['--version'], { home: linkHome, cwd: linkHome })
    expect(version.stdout.trim()).toBe('0.1.0-rc.8')
    const dump = await dsh(['--profile', 'headless', '--dump-config'], { home: linkHome, cwd: linkHome })
    expect(dump.code, dump.stderr).toBe(0)
    expect(dump.stderr).not.toContain('requires the Cordis HMR service')
  })
})

describe('installing into a profile', () => {
  it('`dsh plugin add <checkout>` links it and puts the bundle row in the composed profile', async () => {
    const dump = await dsh(['--profile', 'headless', '--dump-config'], { home: linkHome, cwd: linkHome })
    expect(dump.code, dump.stderr).toBe(0)
    expect(dump.stdout).toMatch(/# == dsh-brake\n(?:.*\n)*?\s*- id: dsh-brake\n\s+name: dsh-brake/)
    // pnpm warns that a linked package's peers do not resolve from it: expected, as docs/install.md says; nothing else.
    expect(linkAdded).toMatch(/WARN.*peerDependencies/)
    expect(otherWarnings(linkAdded)).toEqual([])
  })
})

describe('installing from a tarball', () => {
  it('`dsh plugin add <npm pack tarball>` installs it with its dependencies, and it works', async () => {
    const out = workspace()
    execFileSync('npm', ['pack', '--pack-destination', out, '--silent'], { cwd: PACKAGE_ROOT, env: { ...process.env, npm_config_ignore_scripts: 'true' } })
    const home = freshHome()
    // The tarball the README's install lines name for this version.
    const added = await dsh(['plugin', '--profile', 'headless', 'add', join(out, `dsh-brake-${VERSION}.tgz`)], { home, cwd: out })
    expect(added.code, added.stderr).toBe(0)
    // pnpm's warning on the peers dsh provides, expected as docs/install.md says; nothing else.
    expect(otherWarnings(added.stdout + added.stderr)).toEqual([])
    const dump = await dsh(['--profile', 'headless', '--dump-config'], { home, cwd: home })
    expect(dump.stdout).toMatch(/# == dsh-brake\n(?:.*\n)*?\s*- id: dsh-brake/)
    const { run, server: model } = await play(home, repeat(5, call('read', { file_path: 'notes.txt' })), BRAKE_ALONE, { 'notes.txt': 'the answer is 42\n' })
    expect(run.code, run.stderr).toBe(0)
    expect(noticesSent(model).map(n => n.request)).toEqual([5])
    // The tarball brings the command too, with what it needs, into the profile.
    const check = doctor(home, join(home, 'profiles/headless/node_modules/dsh-brake/dist/cli/main.js'))
    expect(check.out).toContain('No problems: dsh-brake loads in 1 profile checked.')
    expect(check.code).toBe(0)
  })
})

describe('dsh-brake doctor on the real CLI\'s profile', () => {
  it('reports the linked checkout good', () => {
    writeUserPatch(linkHome, '- id: dsh-brake\n  config:\n    mode: deny\n')
    const check = doctor(linkHome)
    expect(check.out).toContain('ok       it loads: its entry exports name, Config and apply')
    expect(check.out).toContain('its config passes every rule')
    expect(check.code).toBe(0)
  })

  it('names both problems of a config with their lines, as the boot then names both in one message', async () => {
    const patch = '- id: dsh-brake\n  config:\n    callWarnCount: "3"\n    callWarnCnt: 6\n'
    writeUserPatch(linkHome, patch)
    const check = doctor(linkHome)
    const file = join(linkHome, 'profiles/headless/cordis.patch.yml')
    expect(check.out).toContain(`problem  ${file}:3: \`callWarnCount\` must be a number, got the string "3": write it without quotes`)
    expect(check.out).toContain(`problem  ${file}:4: unknown config key \`callWarnCnt\``)
    expect(check.code).toBe(1)
    const { run } = await play(linkHome, [], patch)
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('dsh-brake: `callWarnCount` must be a number, got the string "3": write it without quotes')
    expect(run.stderr).toContain('dsh-brake: unknown config key `callWarnCnt`')
  })
})

describe('a row that turns dsh-brake off, with a value it would refuse', () => {
  it('dsh starts the profile and never loads the brake, as the doctor says', async () => {
    const patch = '- id: dsh-brake\n  disabled: true\n  config:\n    mode: stopp\n'
    writeUserPatch(linkHome, patch)
    const check = doctor(linkHome)
    expect(check.out).toContain('this row turns dsh-brake off (disabled: true): DSH does not load it')
    expect(check.out).toContain('dsh starts this profile, as dsh-brake is off')
    expect(check.out).not.toContain('dsh does not start this profile')
    const read: Answer = { calls: [{ name: 'read', args: { file_path: 'notes.txt' } }] }
    const { run, server } = await play(linkHome, repeat(14, read), patch, { 'notes.txt': 'the answer is 42\n' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toContain('dsh-brake')
    expect(noticesSent(server)).toEqual([])
  })
})

describe('scenarios on the stock headless tools', () => {
  it('an identical-call loop, told by one voice: the brake does not repeat repeat-tool-reminder, and speaks at its 14th', async () => {
    const { run, server: model, cwd } = await play(linkHome, repeat(14, call('read', { file_path: 'notes.txt' })), '[]\n', { 'notes.txt': 'the answer is 42\n' })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trim()).toBe('done')
    const sent = noticesSent(model)
    // One call per request: a notice first sent in request 15 followed call 14.
    expect(sent.map(n => [n.request, n.text.split('\n')[0]])).toEqual([
      [15, '[dsh-brake] You have called `read` with these exact arguments 14 times and got the same result each time:'],
    ])
    const stored = sessionEvents(linkHome, cwd)
    expect(storedNotices(stored).map(n => n.summary)).toEqual(['read × 14, same result'])
    const reminders = stored.filter(e => e.type === 'user/message' && (e.data?.['source'] as { plugin?: string }).plugin === 'repeat-tool-reminder')
    expect(reminders.map(e => (e.data?.['source'] as { summary: string }).summary)).toEqual(['read × 3', 'read × 5', 'read × 8'])
    // The replay hears the reminder's notices in the contexts the log says each step claimed, as the live run did.
    expect(analyze(linkHome, cwd, '[]\n')).toEqual({ loops: [['identical-calls', 1, 14, 1]], costs: [[210, 195, 0]], replayed: ['notice@14'], said: ['notice@14'] })
  })

  it('the same loop without the reminder: the brake\'s own notice at the fourth read, the next at the ninth', async () => {
    const { run, server: model, cwd } = await play(linkHome, repeat(9, call('read', { file_path: 'notes.txt' })), BRAKE_ALONE, { 'notes.txt': 'the answer is 42\n' })
    expect(run.code, run.stderr).toBe(0)
    expect(noticesSent(model).map(n => n.request)).toEqual([5, 10])
    expect(analyze(linkHome, cwd, BRAKE_ALONE)).toEqual({ loops: [['identical-calls', 1, 9, 1]], costs: [[135, 120, 75]], replayed: ['notice@4', 'notice@9'], said: ['notice@4', 'notice@9'] })
  })

  it('six identical reads in one response (parallel calls): the fourth carries the notice', async () => {
    const read = { name: 'read', args: { file_path: 'notes.txt' } }
    const { run, server: model, cwd } = await play(linkHome, [{ calls: Array.from({ length: 6 }, () => read) }], '[]\n', { 'notes.txt': 'the answer is 42\n' })
    expect(run.code, run.stderr).toBe(0)
    expect(toolResults(model)).toHaveLength(6)
    expect(noticesSent(model).map(n => [n.request, n.text.split('\n')[0]])).toEqual([
      [2, '[dsh-brake] You have called `read` with these exact arguments 4 times and got the same result each time:'],
    ])
    // All six results went out in one request; the log says which call's result the notice was attached to.
    expect(analyze(linkHome, cwd, '[]\n')).toEqual({ loops: [['identical-calls', 1, 6, 1]], costs: [[15, 13, 5]], replayed: ['notice@4'], said: ['notice@4'] })
  })

  it('a sequence loop: read → bash → grep, eight laps, told at the third and the eighth, not as each call repeats', async () => {
    // grep runs ripgrep unsorted: with matches in two files their order can change from lap to lap, which is a changed
    // result (README, Known Limitations). One file keeps the lap's results the same.
    const lap = [call('read', { file_path: 'config.txt' }), call('bash', { command: 'sh test.sh', description: 'Run the test' }), call('grep', { pattern: 'retries', path: 'config.txt' })]
    const { run, server: model, cwd } = await play(linkHome, repeat(8, lap).flat(), '[]\n', { 'config.txt': 'retries = 1\n', 'test.sh': BROKEN_TEST })
    expect(run.code, run.stderr).toBe(0)
    // Calls 10 to 12 are each call's fourth: the same loop, which waits for its next notice five laps on.
    expect(noticesSent(model).map(n => [n.request, n.text.split('\n')[0]])).toEqual([
      [10, '[dsh-brake] The same 3 calls have run 3 times in a row, each time with the same arguments and the same results: read → bash → grep.'],
      [25, '[dsh-brake] The same 3 calls have run 8 times in a row, each time with the same arguments and the same results: read → bash → grep.'],
    ])
    expect(storedNotices(sessionEvents(linkHome, cwd)).map(n => n.summary)).toEqual(['cycle × 3: read → bash → grep', 'cycle × 8: read → bash → grep'])
    // A cycle of 3, a loop from its second lap (call 4); 15 tokens a step: 24 calls, 21 wasted, 15 after the notice.
    expect(analyze(linkHome, cwd, '[]\n')).toEqual({ loops: [['cycle', 1, 24, 3]], costs: [[360, 315, 225]], replayed: ['notice@9', 'notice@24'], said: ['notice@9', 'notice@24'] })
  })

  it('deny mode beside the reminder: no notice one call after its own, the eleventh and twelfth are refused and never run', async () => {
    const test = call('bash', { command: 'sh test.sh >> runs.log; sh test.sh', description: 'Run the test' })
    const { run, server: model, cwd } = await play(linkHome, repeat(12, test), DENY, { 'config.txt': 'retries = 1\n', 'test.sh': BROKEN_TEST })
    expect(run.code, run.stderr).toBe(0)
    const results = toolResults(model)
    expect(results).toHaveLength(12)
    expect(results.slice(0, 10).every(r => r.includes('FAIL server test') && r.includes('[exit code: 1]'))).toBe(true)
    expect(results.slice(10).map(r => r.slice(0, 67))).toEqual([0, 1].map(() => 'Error: dsh-brake refused this call: `bash` has already run 10 times'))
    expect(results[11]).toContain('while nothing changed, and 1 more was refused;')
    // The reminder speaks at 3, 5 and 8: no call before the refusals is clear of it, so the refusals speak.
    expect(noticesSent(model)).toEqual([])
    // The refused attempts never ran: the log the command appends to has ten runs.
    const stored = sessionEvents(linkHome, cwd)
    const refused = stored.filter(e => e.type === 'tool/result')
      .map(e => (e.data?.['message'] as { content: { isError?: boolean; content: { text?: string }[] }[] }).content[0]!)
      .filter(block => block.isError === true && (block.content[0]?.text ?? '').includes('dsh-brake refused'))
    expect(refused).toHaveLength(2)
    expect(execFileSync('wc', ['-l'], { cwd, input: execFileSync('cat', [join(cwd, 'runs.log')]) }).toString().trim()).toBe('10')
    const analyzed = analyze(linkHome, cwd, DENY)
    expect(analyzed.replayed).toEqual(['refusal@11', 'refusal@12'])
    expect(analyzed.said).toEqual(analyzed.replayed)
    expect(analyzed.loops).toEqual([['identical-calls', 1, 10, 1]])
    // Beside the reminder the brake's first word is the refusal after the loop's tenth call: nothing of it is left to save.
    expect(analyzed.costs).toEqual([[150, 135, 0]])
  })

  it('a person\'s next task starts over: three and three identical calls in two runs draw no notice', async () => {
    const read = call('read', { file_path: 'notes.txt' })
    const first = await play(linkHome, repeat(3, read), '[]\n', { 'notes.txt': 'the answer is 42\n' })
    const second = await play(linkHome, repeat(3, read), '[]\n', { 'notes.txt': 'the answer is 42\n' })
    expect([first.run.code, second.run.code]).toEqual([0, 0])
    expect([...noticesSent(first.server), ...noticesSent(second.server)]).toEqual([])
    expect(storedNotices([...sessionEvents(linkHome, first.cwd), ...sessionEvents(linkHome, second.cwd)])).toEqual([])
    for (const { cwd } of [first, second]) expect(analyze(linkHome, cwd, '[]\n')).toEqual({ loops: [], costs: [], replayed: [], said: [] })
  })

  it('polling a background job whose output changes: no notice', async () => {
    // Forty steps of 0.2 s; each poll waits half a second, so all eight polls see the job running with new output.
    const job = call('bash', { command: 'for i in $(seq 1 40); do echo "step $i"; sleep 0.2; done', description: 'Build', run_in_background: true })
    const poll = call('job_output', { job_id: 'bash-1', wait: true, timeout_ms: 500 })
    const { run, server: model, cwd } = await play(linkHome, [job, ...repeat(8, poll)], '[]\n')
    expect(run.code, run.stderr).toBe(0)
    const polls = toolResults(model).slice(1)
    // Every poll saw the job running, and (scheduling aside) new output each time.
    expect(polls.every(p => p.endsWith('[status: running]'))).toBe(true)
    expect(new Set(polls).size).toBeGreaterThanOrEqual(6)
    expect(noticesSent(model)).toEqual([])
    expect(storedNotices(sessionEvents(linkHome, cwd))).toEqual([])
    expect(analyze(linkHome, cwd, '[]\n')).toEqual({ loops: [], costs: [], replayed: [], said: [] })
  })

  it('edit, then re-run the same failing test, its failure following each edit, seven times: no notice; the eighth run passes', async () => {
    const steps: Answer[] = []
    for (let i = 1; i <= 7; i++) {
      steps.push(call('read', { file_path: 'config.txt' }))
      steps.push(call('edit', { file_path: 'config.txt', old_string: `retries = ${i < 3 ? i : i - 1}`, new_string: `retries = ${i < 3 ? i + 1 : i}` }))
      steps.push(call('bash', { command: 'sh test.sh', description: 'Run the test' }))
    }
    const { run, server: model, cwd } = await play(linkHome, steps, DENY, { 'config.txt': 'retries = 1\n', 'test.sh': REPORTING_TEST })
    expect(run.code, run.stderr).toBe(0)
    const results = toolResults(model)
    expect(results.filter(r => r.includes('dsh-brake refused'))).toEqual([])
    expect(results.filter(r => r.startsWith('PASS'))).not.toEqual([])
    expect(noticesSent(model)).toEqual([])
    expect(storedNotices(sessionEvents(linkHome, cwd))).toEqual([])
    expect(analyze(linkHome, cwd, DENY)).toEqual({ loops: [], costs: [], replayed: [], said: [] })
  })

  it('a duplicated context block: another plugin re-injecting the same reminder is noticed at its third copy', async () => {
    const home = freshHome()
    for (const dir of [PACKAGE_ROOT, join(PACKAGE_ROOT, 'test/e2e/fixtures/hook-echo')]) {
      const added = await dsh(['plugin', '--profile', 'headless', 'add', dir], { home, cwd: home })
      expect(added.code, added.stderr).toBe(0)
    }
    const steps = ['a', 'b', 'c', 'd'].map(pattern => call('grep', { pattern }))
    const { run, server: model, cwd } = await play(home, steps, '[]\n', { 'notes.txt': 'a b c d\n' })
    expect(run.code, run.stderr).toBe(0)
    expect(noticesSent(model).map(n => [n.request, n.text.split('\n').slice(0, 2).join('\n')])).toEqual([[4, [
      '[dsh-brake] The same text keeps arriving in your context, unchanged:',
      '- 3 times within 2 min, from plugin hook-echo: "Stop hook: the task is not finished until the linter and the full test suite pass. Keep working."',
    ].join('\n')]])
    expect(storedNotices(sessionEvents(home, cwd)).map(n => n.summary)).toEqual(['repeated text × 3 from plugin hook-echo'])
    // A step's notice: given as the step after the third call began, from the contexts that step claimed. The text
    // spans none of the calls between its copies.
    expect(analyze(home, cwd, '[]\n')).toMatchObject({ loops: [['duplicate-text', 1, 0, null]], replayed: ['notice@3'], said: ['notice@3'] })
  })

  it('a subagent\'s loop: its own log, noticed at its fourth read, and analyze reports it under its parent session', async () => {
    const read = call('read', { file_path: 'notes.txt' })
    const delegate = call('subagent', { description: 'Read the notes', prompt: 'Read notes.txt and report.', run_in_background: false })
    // The parent delegates; the child's requests take the next answers (six reads, then its report); then the parent ends.
    const { run, cwd } = await play(linkHome, [delegate, ...repeat(6, read), { text: 'the answer is 42' }], BRAKE_ALONE, { 'notes.txt': 'the answer is 42\n' })
    expect(run.code, run.stderr).toBe(0)
    const files = sessionFiles(linkHome, cwd)
    expect(files).toHaveLength(2)
    const out = execFileSync(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js'), 'analyze', '--json', ...files], { cwd })
    type Agent = { session: string; agent: string; actionsByConfig: { defaults: { call: number }[] }; said: { call: number }[] }
    const report = JSON.parse(out.toString()) as {
      sessions: { session: string; agentCount: number; agents: Agent[] }[]
      loops: { session: string; agent: string; kind: string; firstCall: number; calls: number }[]
    }
    // The parent made one call and nothing looped there: the session shows its subagent alone, and counts both.
    const [session] = report.sessions
    expect(report.sessions).toHaveLength(1)
    expect(session!.agentCount).toBe(2)
    const [child] = session!.agents
    expect(child!.session).toBe(session!.session)
    expect(child!.agent).not.toBe('main')
    expect(report.loops).toEqual([expect.objectContaining({ session: session!.session, agent: child!.agent, kind: 'identical-calls', firstCall: 1, calls: 6 })])
    expect([child!.actionsByConfig.defaults.map(a => a.call), child!.said.map(a => a.call)]).toEqual([[4], [4]])
  })

  it('a bad config stops the boot with a message that names the key, the rule and the value', async () => {
    const { run } = await play(linkHome, [], '- id: dsh-brake\n  config:\n    callWarnCount: 12\n')
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('dsh-brake: `callDenyCount` must be greater than `callWarnCount` (12), got 10')
  })
})
