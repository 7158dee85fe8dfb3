/**
 * `npm run readme:shot`: the README's picture of DSH's web UI, docs/web-ui.png, taken afresh. It runs the end-to-end
 * file that plays the picture's turn on the real `dsh --profile web` in a real browser (test/e2e/web-readme.e2e.ts,
 * which checks that the page shows what the README says of it), then copies the screenshot that file keeps. The npm
 * script builds the package and installs the dsh CLI first, as `npm run test:e2e` does; the picture changes only when
 * the test passed.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, rmSync } from 'node:fs'
import { PACKAGE_ROOT as root } from './paths.ts'

const shot = `${root}.test-results/web/readme.png`
const picture = `${root}docs/web-ui.png`

// A shot left by an earlier run must not pass for this one's.
rmSync(shot, { force: true })
const run = spawnSync(process.execPath, [`${root}node_modules/vitest/vitest.mjs`, 'run', '--config', 'vitest.e2e.config.ts', 'test/e2e/web-readme.e2e.ts'], {
  cwd: root, stdio: 'inherit',
})
if (run.status !== 0 || !existsSync(shot)) {
  console.error(`readme:shot: the README's turn did not pass in the web UI (test/e2e/web-readme.e2e.ts): ${picture} is left as it was`)
  process.exit(1)
}
copyFileSync(shot, picture)
console.log(`readme:shot: ${picture} taken afresh from ${shot}`)
