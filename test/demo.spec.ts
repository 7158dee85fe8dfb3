/** `npm run demo` is a newcomer's first command: each scenario must run and show what the README promises. */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from './support/dsh.ts'

function demo(...args: string[]): string {
  return execFileSync(process.execPath, ['--expose-internals', join(PACKAGE_ROOT, 'scripts/demo/main.ts'), ...args], {
    cwd: PACKAGE_ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' },
  })
}

describe('npm run demo', () => {
  it.each([
    ['identical', '→ 5 calls made (5 ran), 1 notice, 0 refusals', 'read × 4, same result'],
    ['revisit', '→ 18 calls made (18 ran), 1 notice, 0 refusals', '10 calls in a row repeat earlier ones'],
    ['sequence', '→ 12 calls made (12 ran), 1 notice, 0 refusals', 'cycle × 3: grep → curl → read → bash'],
    ['text', '→ 4 calls made (4 ran), 1 notice, 0 refusals', 'repeated text × 3 from plugin hooks-demo'],
    ['deny', '→ 12 calls made (10 ran), 2 notices, 2 refusals', 'Error: dsh-brake refused this call'],
    ['progress', '→ 22 calls made (22 ran), 0 notices, 0 refusals', 'compiled 84 of 96 modules'],
    ['reset', '→ 6 calls made (6 ran), 0 notices, 0 refusals', 'person'],
  ])('%s', (scenario, tally, shows) => {
    const out = demo(scenario)
    expect(out).toContain(tally)
    expect(out).toContain(shows)
  })

  it('lists the scenarios and fails on an unknown one', () => {
    expect(() => demo('no-such-scenario')).toThrow(/identical[\s\S]*sequence[\s\S]*revisit[\s\S]*text[\s\S]*deny[\s\S]*progress[\s\S]*reset/)
  })
})
