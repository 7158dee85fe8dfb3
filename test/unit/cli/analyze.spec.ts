/**
 * `dsh-brake analyze` as a user runs it: the built command (`dist/cli/main.js`, built by `npm test`) in a child
 * process, on crafted session logs in a temporary DSH home. A truncated log is named on stderr while the others are
 * still reported; bad input is one line and exit code 2.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../../scripts/paths.ts'
import { brakeNotice, header, SessionScript, writeLog } from '../../support/session-logs.ts'

const BIN = join(PACKAGE_ROOT, 'dist/cli/main.js')
const home = mkdtempSync(join(tmpdir(), 'dsh-brake-analyze-'))

afterAll(() => rmSync(home, { recursive: true, force: true }))

/** Run the command; resolves to its exit code and output. */
function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runWith({}, ...args)
}

/** Run the command with more in its environment. */
function runWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: home, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr })
    })
  })
}

const read = { name: 'read', args: { file_path: 'notes.txt' }, result: 'the answer is 42' }

/** Six identical reads, one per step, with the brake's notice after the fourth, as the live brake gave it. */
function loopingSession(id: string): SessionScript {
  const script = new SessionScript(header(id)).prompt('Fix it.')
  for (let call = 1; call <= 6; call++) {
    if (call > 1) script.openStep(call === 5 ? [brakeNotice('read × 4, same result')] : [])
    script.respond([call === 4 ? { ...read, notice: brakeNotice('read × 4, same result') } : read])
  }
  return script.end()
}

const good = writeLog(home, 'session-good', loopingSession('session-good').bytes())
const truncatedBytes = loopingSession('session-cut').bytes()
const truncated = writeLog(home, 'session-cut', truncatedBytes.subarray(0, truncatedBytes.length - 7))

type Action = { kind: string; call: number; text: string }

interface Report {
  configs: string[]
  overview: { sessions: number; agents: number; calls: number; loops: Record<string, number> }
  loops: {
    session: string
    agent: string
    kind: string
    foundBy: string[]
    period: number | null
    firstCall: number
    calls: number
    firstAction: Record<string, { call: number } | null>
  }[]
  sessions: {
    session: string
    agents: { actionsByConfig: Record<string, Action[]>; said: Action[] }[]
  }[]
  quiet: { count: number; sessions?: { session: string }[] }
  errors: { file: string; message: string }[]
}

/** The first session's main agent, as the JSON report has it. */
const first = (report: Report): Report['sessions'][0]['agents'][0] => report.sessions[0]!.agents[0]!

describe('a DSH home with a good log and a truncated one', () => {
  it('reports the good one, names the truncated one on stderr, and exits 1', async () => {
    const { code, stdout, stderr } = await run('analyze', '--json', home)
    expect(code).toBe(1)
    expect(stderr.startsWith(`dsh-brake: ${truncated}: `)).toBe(true)
    expect(stderr).toMatch(/: is truncated or corrupt: the last zstd frame \(byte \d+\) ends in the middle of a line\n$/)
    const report = JSON.parse(stdout) as Report
    expect(report.errors.map(error => error.file)).toEqual([truncated])
    expect(report.loops).toEqual([expect.objectContaining({ session: 'session-good', agent: 'main', kind: 'identical-calls', foundBy: ['identical-calls'], period: 1, firstCall: 1, calls: 6 })])
    expect(first(report).actionsByConfig['defaults']).toEqual([{ kind: 'notice', call: 4, text: 'read × 4, same result' }])
    expect(first(report).said).toEqual([{ kind: 'notice', call: 4, text: 'read × 4, same result' }])
  })

  it('prints a text report with the loop, its cost and the notice, beside what was said', async () => {
    const { stdout } = await run('analyze', good)
    expect(stdout.split('\n')[0]).toBe('dsh-brake analyze: 1 session (1 agent, 6 calls); config: defaults')
    expect(stdout).toContain('loop 1: identical calls (read notes.txt), calls 1–6 (6 calls, from call 2 a loop), found by identical-calls')
    expect(stdout).toContain('cost 6120 tokens, 5100 wasted; saved defaults: 2040')
    expect(stdout).toMatch(/^ {7}4 {2}notice: read × 4, same result {2}notice: read × 4, same result$/m)
  })

  it('replays under two configs side by side with --compare', async () => {
    writeFileSync(join(home, 'early.yml'), 'callWarnCount: 2\n')
    const { code, stdout } = await run('analyze', '--json', '--compare', 'early.yml', good)
    expect(code).toBe(0)
    const report = JSON.parse(stdout) as Report
    expect(report.configs).toEqual(['defaults', 'early.yml'])
    const first = report.loops[0]!.firstAction
    expect([first['defaults']?.call, first['early.yml']?.call]).toEqual([4, 2])
  })

  it('takes a profile patch as a config file, by its dsh-brake row', async () => {
    writeFileSync(join(home, 'patch.yml'), '- id: repeat-tool-reminder\n  disabled: true\n- id: dsh-brake\n  config:\n    callWarnCount: 3\n')
    const report = JSON.parse((await run('analyze', '--json', '--config', 'patch.yml', good)).stdout) as Report
    expect(first(report).actionsByConfig['patch.yml']!.map(action => action.call)).toEqual([3])
  })

  it('takes the last dsh-brake row\'s config, as DSH applies patch rows in order', async () => {
    writeFileSync(join(home, 'rows.yml'), '- id: dsh-brake\n  config:\n    callWarnCount: 3\n- id: dsh-brake\n  config:\n    callWarnCount: 5\n')
    const { stderr, stdout } = await run('analyze', '--json', '--config', 'rows.yml', good)
    expect(first(JSON.parse(stdout) as Report).actionsByConfig['rows.yml']!.map(action => action.call)).toEqual([5])
    expect(stderr).toBe('')
  })

  it('says, in one line, that the row turns the brake off and which !!js keys it set aside', async () => {
    writeFileSync(join(home, 'off.yml'), '- id: dsh-brake\n  disabled: true\n  config:\n    callWarnCount: !!js 1 + 2\n    mode: deny\n')
    const { code, stderr } = await run('analyze', '--json', '--config', 'off.yml', good)
    expect(code).toBe(0)
    expect(stderr).toBe('dsh-brake: `--config` file off.yml: the dsh-brake row on line 1 turns the brake off (disabled: true); replayed as if it were on; '
      + '`callWarnCount` (line 4) is a !!js expression, which DSH computes at load: set aside, so its default is replayed\n')
  })
})

describe('bad input: one line naming what was wrong, exit code 2', () => {
  it.each([
    [['analyze', '--jsn', 'x'], 'dsh-brake: unknown option `--jsn`'],
    [['analyze', '--config'], 'dsh-brake: `--config` needs a value'],
    [['analyze', 'nowhere'], 'dsh-brake: `nowhere`: no such file or folder'],
    [['analyze', '--last', '0', 'x'], 'dsh-brake: `--last` takes a whole number of at least 1, got 0'],
    [['analyze', '--jobs', 'many', 'x'], 'dsh-brake: `--jobs` takes a whole number of at least 1, got many'],
    [['analyze', '--since', 'yesterday', 'x'], 'dsh-brake: `--since` takes a date (2026-11-01) or an ISO time, got yesterday'],
    [['analyse', 'x'], 'dsh-brake: unknown command `analyse` (commands: analyze, doctor; see --help)'],
    [['analyze', '--config', 'missing.yml', 'x'], 'dsh-brake: `--config` file missing.yml: cannot be read (ENOENT)'],
  ])('%j', async (args, message) => {
    const { code, stdout, stderr } = await run(...args)
    expect([code, stdout, stderr]).toEqual([2, '', `${message}\n`])
  })

  it.each([
    ['callWarnCount: 1\n', '`callWarnCount` must be an integer >= 2, got 1'],
    ['callWarnCount: 12\n', '`callDenyCount` must be greater than `callWarnCount` (12), got 10'],
    ['callWarnCont: 4\n', 'unknown config key `callWarnCont`: did you mean `callWarnCount`? (valid keys: mode, callWarnCount'],
    ['mode: loud\n', '`mode` must be one of `remind`, `deny`, `stop`, got "loud"'],
    ['callWarnCount: "3"\n', '`callWarnCount` must be a number, got the string "3": write it without quotes'],
    ['- a\n- b\n', 'expected a map of dsh-brake config keys, or a profile patch with a `dsh-brake` row'],
  ])('a config the plugin refuses, in its own words: %j', async (yaml, rule) => {
    writeFileSync(join(home, 'bad.yml'), yaml)
    const { code, stderr } = await run('analyze', '--config', 'bad.yml', good)
    expect(code).toBe(2)
    expect(stderr).toContain(`dsh-brake: \`--config\` file bad.yml: ${rule}`)
    expect(stderr.trim().split('\n')).toHaveLength(1)
  })

  it('a config with several problems lists each, as the plugin does at load', async () => {
    writeFileSync(join(home, 'bad.yml'), 'callWarnCount: "3"\nmode: loud\n')
    const { code, stderr } = await run('analyze', '--config', 'bad.yml', good)
    expect(code).toBe(2)
    expect(stderr).toBe([
      'dsh-brake: `--config` file bad.yml: 2 problems in the config:',
      '  - `mode` must be one of `remind`, `deny`, `stop`, got "loud"',
      '  - `callWarnCount` must be a number, got the string "3": write it without quotes',
      '',
    ].join('\n'))
  })

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await run('analyze', '--help')
    expect(code).toBe(0)
    expect(stdout).toMatch(/^usage: dsh-brake analyze \[options\] \[<path>…\]/)
  })
})

describe('choosing the sessions', () => {
  /** A DSH home of its own: `count` sessions of `calls` identical reads, each in project `/work/<project>`, written one after another. */
  function archive(sessions: readonly { id: string; project: string; calls: number; mtime: number; parent?: string }[]): string {
    const dir = mkdtempSync(join(home, 'archive-'))
    for (const { id, project, calls, mtime, parent } of sessions) {
      const script = new SessionScript({ ...header(id, parent), cwd: `/work/${project}` }).prompt('go')
      for (let call = 1; call <= calls; call++) {
        if (call > 1) script.openStep()
        script.respond([read])
      }
      const file = writeLog(dir, id, script.end().bytes())
      utimesSync(file, mtime, mtime)
    }
    return dir
  }
  const sessionsOf = (stdout: string): string[] => {
    const report = JSON.parse(stdout) as Report
    return [...report.sessions.map(session => session.session), ...(report.quiet.sessions ?? []).map(quiet => quiet.session)].sort()
  }
  const dir = archive([
    { id: 'session-old', project: 'api', calls: 5, mtime: Date.parse('2026-10-01T12:00:00Z') / 1000 },
    { id: 'session-mid', project: 'web', calls: 1, mtime: Date.parse('2026-11-10T12:00:00Z') / 1000 },
    { id: 'session-new', project: 'api/server', calls: 6, mtime: Date.parse('2026-11-20T12:00:00Z') / 1000 },
    { id: 'session-new-child', project: 'api/server', calls: 4, mtime: Date.parse('2026-11-01T12:00:00Z') / 1000, parent: 'session-new' },
  ])

  it('with no path, reads the DSH home, as doctor does', async () => {
    const { code, stdout } = await runWith({ DSH_HOME: dir }, 'analyze', '--json', '--all')
    expect(code).toBe(0)
    expect(sessionsOf(stdout)).toEqual(['session-mid', 'session-new', 'session-old'])
    // The subagent's log came along, under its session.
    expect((JSON.parse(stdout) as Report).overview.agents).toBe(4)
  })

  it('with no path and no DSH home, says so and reports nothing', async () => {
    const { code, stdout, stderr } = await runWith({ DSH_HOME: join(home, 'no-home') }, 'analyze')
    expect(code).toBe(0)
    expect(stderr).toBe(`dsh-brake: the DSH home ${join(home, 'no-home')} (DSH_HOME) does not exist: give a session log, a folder of them, or a DSH home\n`)
    expect(stdout.split('\n')[0]).toBe('dsh-brake analyze: 0 sessions (0 agents, 0 calls); config: defaults')
  })

  it('a folder without logs is a warning, and the others are reported', async () => {
    const empty = mkdtempSync(join(home, 'empty-'))
    const { code, stdout, stderr } = await run('analyze', '--json', '--all', empty, dir)
    expect(code).toBe(0)
    expect(stderr).toBe(`dsh-brake: \`${empty}\`: no session logs (session.jsonl.zstd) under it\n`)
    expect(sessionsOf(stdout)).toEqual(['session-mid', 'session-new', 'session-old'])
  })

  it('--last, --since and --project narrow them down, a session keeping its subagents', async () => {
    const chosen = async (...flags: string[]): Promise<string[]> => sessionsOf((await run('analyze', '--json', '--all', ...flags, dir)).stdout)
    expect(await chosen('--last', '2')).toEqual(['session-mid', 'session-new'])
    expect(await chosen('--since', '2026-11-05')).toEqual(['session-mid', 'session-new'])
    expect(await chosen('--project', '/work/api')).toEqual(['session-new', 'session-old'])
    expect(await chosen('--project', '/work/api', '--last', '1')).toEqual(['session-new'])
    const { stdout } = await run('analyze', '--json', '--project', '/work/api', '--last', '1', dir)
    expect((JSON.parse(stdout) as Report).overview).toMatchObject({ sessions: 1, agents: 2, calls: 10 })
  })

  it('gives the same report on one thread as on several', async () => {
    const one = await run('analyze', '--json', '--all', '--jobs', '1', dir, good)
    const several = await run('analyze', '--json', '--all', '--jobs', '3', dir, good)
    expect(several.stdout).toBe(one.stdout)
    expect((JSON.parse(one.stdout) as Report).overview.sessions).toBe(4)
  })
})

describe('the page', () => {
  it('--html writes one self-contained page and says so on stderr, leaving stdout to the report', async () => {
    const { code, stdout, stderr } = await run('analyze', '--json', '--html', 'report.html', good)
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toHaveProperty('loops')
    expect(stderr).toBe('dsh-brake: HTML report written to report.html\n')
    const page = readFileSync(join(home, 'report.html'), 'utf8')
    expect(page).toMatch(/^<!doctype html>/)
    expect(page).not.toMatch(/<script|<link|src="http/)
  })

  it.each([
    [join(home, 'no-such-folder', 'x.html'), `cannot be written: the folder ${join(home, 'no-such-folder')} does not exist`],
    [home, 'is a folder; name a file in it (report.html)'],
    [join(good, 'x.html'), `cannot be written: ${good} is not a folder`],
  ])('a page that cannot be written at %s is said before any log is read: one line, no report, exit 2', async (page, why) => {
    const { code, stdout, stderr } = await run('analyze', '--json', '--html', page, home)
    expect([code, stdout, stderr]).toEqual([2, '', `dsh-brake: \`--html\` file ${page}: ${why}\n`])
  })

  it('a page into a folder that does not exist fails before the text report prints anything', async () => {
    const page = join(home, 'reports', 'today.html')
    const { code, stdout, stderr } = await run('analyze', '--html', page, home)
    expect([code, stdout, stderr]).toEqual([2, '', `dsh-brake: \`--html\` file ${page}: cannot be written: the folder ${join(home, 'reports')} does not exist\n`])
  })
})
