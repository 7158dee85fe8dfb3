/** `npm run demo` is a newcomer's first command: each scenario must run and show what the README promises. */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'

function demo(...args: string[]): string {
  return execFileSync(process.execPath, ['--expose-internals', '--import', join(PACKAGE_ROOT, 'scripts/ts-imports.mjs'), join(PACKAGE_ROOT, 'scripts/demo/main.ts'), ...args], {
    // stderr is captured, not shown: a failing run's message (an unknown scenario's list) is the error's, for the test.
    cwd: PACKAGE_ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  })
}

describe('npm run demo', () => {
  it.each([
    ['identical', '→ 5 calls made (5 ran), 1 notice, 0 refusals, 0 stops', 'read × 4, same result'],
    // Lap 2's fourth window is paging over old ground; the run of revisits it is made of is the same loop, told next.
    ['revisit', '→ 18 calls made (18 ran), 2 notices, 0 refusals, 0 stops', 'src/server.ts: 4 windows over old ground'],
    ['revisit', '→ 18 calls made (18 ran), 2 notices, 0 refusals, 0 stops', '10 calls in a row repeat earlier ones'],
    // Lap 4 repeats each call a fourth time: the same loop, told once.
    ['sequence', '→ 16 calls made (16 ran), 1 notice, 0 refusals, 0 stops', 'cycle × 3: grep → curl → read → bash'],
    ['text', '→ 4 calls made (4 ran), 1 notice, 0 refusals, 0 stops', 'repeated text × 3 from plugin hooks-demo'],
    ['deny', '→ 12 calls made (10 ran), 2 notices, 2 refusals, 0 stops', 'Error: dsh-brake refused this call'],
    // The line the model then quotes is on screen, not cut away.
    ['deny', '→ 12 calls made (10 ran), 2 notices, 2 refusals, 0 stops', 'Error: connect ECONNREFUSED 127.0.0.1:8080'],
    // The stop's closing notice is the stop's, told in place of a second notice: one notice, one stop.
    ['stop', '→ 10 calls made (10 ran), 1 notice, 0 refusals, 1 stop', 'ended by a hook: dsh-brake stopped the turn: a loop went on after its notice'],
    // The person's next message goes on: the model answers it.
    ['stop', '→ 10 calls made (10 ran), 1 notice, 0 refusals, 1 stop', 'Still ECONNREFUSED on 127.0.0.1:8080'],
    // The cut response never asked for its call: the one call is the model's next step.
    ['runaway', '→ 1 call made (1 ran), 1 notice, 0 refusals, 0 stops, 1 response cut', '✂ response cut while it streamed'],
    ['runaway', '→ 1 call made (1 ran), 1 notice, 0 refusals, 0 stops, 1 response cut', 'stopped this response, which kept repeating itself: I\'ll kill the stale process now. × 22'],
    ['progress', '→ 22 calls made (22 ran), 0 notices, 0 refusals, 0 stops', 'compiled 84 of 96 modules'],
    ['reset', '→ 6 calls made (6 ran), 0 notices, 0 refusals, 0 stops', 'person'],
  ])('%s', (scenario, tally, shows) => {
    const out = demo(scenario)
    expect(out).toContain(tally)
    expect(out).toContain(shows)
  })

  it('lists the scenarios and fails on an unknown one', () => {
    expect(() => demo('no-such-scenario')).toThrow(/identical[\s\S]*sequence[\s\S]*revisit[\s\S]*text[\s\S]*deny[\s\S]*progress[\s\S]*reset/)
    expect(() => demo('--verbose')).toThrow(/unknown option '--verbose'[\s\S]*Usage: npm run demo/)
  })

  it('says how to use it on --help, and plays nothing', () => {
    const out = demo('--help')
    expect(out).toMatch(/^Usage: npm run demo \[-- <scenario>\]/)
    expect(out).toMatch(/identical[\s\S]*sequence[\s\S]*revisit[\s\S]*text[\s\S]*deny[\s\S]*progress[\s\S]*reset/)
    expect(out).not.toContain('━━')
  })

  it('tells a story that holds in progress: the test fails until the last edit, then passes, as the model says', () => {
    const out = demo('progress')
    const results = [...out.matchAll(/bash ✓ (PASS|FAIL) test\/server\.spec\.ts/g)].map(match => match[1])
    expect(results).toEqual([...Array.from({ length: 6 }, () => 'FAIL'), 'PASS'])
    expect(out.indexOf('PASS test/server.spec.ts')).toBeLessThan(out.indexOf('The server test passes now'))
  })

  it('answers lsof with the pid the model then names, which the cut response never got to kill', () => {
    expect(demo('runaway')).toMatch(/#1 bash ✓ COMMAND[\s\S]*node {4}4242 [\s\S]*TCP \*:8080 \(LISTEN\)[\s\S]*The old server \(pid 4242\)/)
  })

  it('reads six windows of a file as six outputs; only the next laps repeat them', () => {
    const out = demo('revisit')
    expect(out).not.toContain('#2 read ✓ same output as #1')
    expect(out).toContain('#7 read ✓ same output as #1')
    expect(out).toContain('#12 read ✓ same output as #6')
  })

  it('answers lint as lint and the tests as tests, before the model says both pass', () => {
    const out = demo('text')
    expect(out).toContain('#3 bash ✓ ok (0 problems)')
    expect(out).toMatch(/#4 bash ✓ PASS [\s\S]*Tests: 12 passed[\s\S]*lint and tests pass/)
  })

  it('shows a repeated output as the same as the first, and speaks plainly of its settings', () => {
    const out = demo('deny')
    expect(out).toContain('#2 bash ✓ same output as #1')
    expect(out).toContain("dsh-brake settings: mode: 'deny', the rest default")
    expect(out).not.toContain('patch row')
  })

  it('closes with a one-line summary over every scenario', () => {
    const lines = demo().trimEnd().split('\n')
    expect(lines.at(-1)).toBe('Summary: 9 scenarios, 94 calls made (92 ran), 9 notices, 2 refusals, 1 stop, 1 response cut. `npm run demo -- --help` lists the scenarios.')
  })
})
