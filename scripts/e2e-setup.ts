/**
 * `npm run test:e2e` runs this first: install the real dsh CLI the end-to-end tests drive, the way docs/install.md's
 * "Get dsh" tells a user to (its package.json and pnpm-workspace.yaml, then `pnpm install`), with
 * test/e2e/cli/pnpm-lock.yaml holding every version still, unless that install is already there and current. It is
 * installed twice, once with each pnpm major a user may have: pnpm 10 into test/e2e/cli (the CLI the tests drive) and
 * pnpm 11 into .e2e/cli-pnpm11 (which a test boots, to show the recipe takes there too). It stops first if the page's
 * recipe and test/e2e/cli/ have drifted apart. Both pnpms come from this project's dev dependencies (pnpm 11 as
 * `pnpm11`); the tests put pnpm 11 on the CLI's PATH (.e2e/bin), because `dsh plugin add` runs pnpm.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { RECIPE_FILES, recipeFile } from './dsh-recipe.ts'
import { PACKAGE_ROOT as root } from './paths.ts'

const recipe = `${root}test/e2e/cli/`
const files = [...RECIPE_FILES.map(([file]) => file), 'pnpm-lock.yaml']

const page = readFileSync(`${root}docs/install.md`, 'utf8')
for (const [file, language] of RECIPE_FILES) {
  if (recipeFile(page, language) !== readFileSync(`${recipe}${file}`, 'utf8')) {
    console.error(`e2e: the "Get dsh" ${file} of docs/install.md and test/e2e/cli/${file} differ: make them the same file`)
    process.exit(1)
  }
}

/** The pnpm binaries, run by this Node (pnpm 11 needs 22.13 or later; a pnpm on PATH might find an older one). */
const PNPMS = {
  10: `${root}node_modules/pnpm/bin/pnpm.cjs`,
  11: `${root}node_modules/pnpm11/bin/pnpm.mjs`,
} as const

/** Install the recipe with pnpm `major` into `dir` (a copy of the recipe's files, unless it is the recipe's folder). */
function install(major: keyof typeof PNPMS, dir: string): void {
  mkdirSync(dir, { recursive: true })
  if (dir !== recipe) for (const file of files) copyFileSync(`${recipe}${file}`, `${dir}${file}`)
  const stamp = `${dir}node_modules/.dsh-brake-stamp`
  const hash = createHash('sha1')
  for (const file of files) hash.update(readFileSync(`${recipe}${file}`))
  const want = `pnpm ${major} ${hash.digest('hex')}`
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want && existsSync(`${dir}node_modules/@deepseek-ai/dsh/package.json`)) {
    console.log(`e2e: the dsh CLI installed with pnpm ${major} is current (${dir})`)
    return
  }
  console.log(`e2e: installing the dsh CLI with pnpm ${major} (pnpm install --frozen-lockfile in ${dir})…`)
  const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` }
  execFileSync(process.execPath, [PNPMS[major], 'install', '--frozen-lockfile', '--reporter=append-only'], { cwd: dir, stdio: 'inherit', env })
  writeFileSync(stamp, want)
}

install(10, recipe)
install(11, `${root}.e2e/cli-pnpm11/`)

// The pnpm `dsh plugin add` finds on the tests' PATH: pnpm 11, what a user installing pnpm today gets, run by this Node.
mkdirSync(`${root}.e2e/bin`, { recursive: true })
writeFileSync(`${root}.e2e/bin/pnpm`, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(PNPMS[11])} "$@"\n`, { mode: 0o755 })
