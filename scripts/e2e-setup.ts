/**
 * `npm run test:e2e` runs this first: install the real dsh CLI the end-to-end tests drive, the way docs/install.md's
 * "Get dsh" tells a user to (its package.json and pnpm-workspace.yaml, then `pnpm install`), with
 * test/e2e/cli/pnpm-lock.yaml holding every version still, unless that install is already there and current. It is
 * installed three times, once with each pnpm major a user may have: pnpm 10 into test/e2e/cli (the CLI the tests
 * drive), pnpm 11 into .e2e/cli-pnpm11 and pnpm 12 into .e2e/cli-pnpm12 (which a test boots, to show the recipe takes
 * there too). It stops first if the page's recipe and test/e2e/cli/ have drifted apart. pnpm 10 and 11 come from this
 * project's dev dependencies (pnpm 11 as `pnpm11`); pnpm 12, what `npm install -g pnpm` gives today, is installed here
 * with npm into .e2e/pnpm12 (it ships as a native binary per platform, which every `npm ci` would otherwise fetch for
 * a check only this suite makes). The tests put pnpm 11 on the CLI's PATH (.e2e/bin), and pnpm 12 on that of the
 * pnpm 12 install's test (.e2e/bin-pnpm12), because `dsh plugin add` runs pnpm.
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

/** pnpm 12, installed with npm under .e2e/ (the newest 12, as a user gets it), unless a pnpm 12 is there already. */
function pnpm12(): string {
  const prefix = `${root}.e2e/pnpm12/`
  const manifest = `${prefix}node_modules/pnpm/package.json`
  if (!existsSync(manifest) || !(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version.startsWith('12.')) {
    console.log(`e2e: installing pnpm 12 with npm (npm install --prefix ${prefix} pnpm@12)…`)
    mkdirSync(prefix, { recursive: true })
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', 'pnpm@12'], { stdio: 'inherit' })
  }
  return `${prefix}node_modules/.bin/pnpm`
}

/**
 * The command that runs each pnpm: 10 and 11 by this Node (pnpm 11 needs 22.13 or later; a pnpm on PATH might find
 * an older one); 12, a native binary, as it is.
 */
const PNPMS: Readonly<Record<10 | 11 | 12, readonly string[]>> = {
  10: [process.execPath, `${root}node_modules/pnpm/bin/pnpm.cjs`],
  11: [process.execPath, `${root}node_modules/pnpm11/bin/pnpm.mjs`],
  12: [pnpm12()],
}

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
  const [command, ...args] = PNPMS[major]
  execFileSync(command!, [...args, 'install', '--frozen-lockfile', '--reporter=append-only'], { cwd: dir, stdio: 'inherit', env })
  writeFileSync(stamp, want)
}

install(10, recipe)
install(11, `${root}.e2e/cli-pnpm11/`)
install(12, `${root}.e2e/cli-pnpm12/`)

// The pnpm `dsh plugin add` finds on the tests' PATH: pnpm 11, run by this Node; and pnpm 12 for the pnpm 12 install.
for (const [folder, major] of [['bin', 11], ['bin-pnpm12', 12]] as const) {
  mkdirSync(`${root}.e2e/${folder}`, { recursive: true })
  writeFileSync(`${root}.e2e/${folder}/pnpm`, `#!/bin/sh\nexec ${PNPMS[major].map(part => JSON.stringify(part)).join(' ')} "$@"\n`, { mode: 0o755 })
}
