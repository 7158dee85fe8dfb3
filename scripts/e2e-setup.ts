/**
 * `npm run test:e2e` runs this first: install the real dsh CLI the end-to-end tests drive into test/e2e/cli, the way
 * docs/install.md's "Get dsh" tells a user to (its package.json, then `pnpm install`), with test/e2e/cli/pnpm-lock.yaml
 * holding every version still, unless that install is already there and current. It stops first if that page's
 * recipe and test/e2e/cli/package.json have drifted apart. pnpm comes from this
 * project's dev dependencies; the tests also put it on the CLI's PATH, because `dsh plugin add` runs pnpm.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { recipeManifest } from './dsh-recipe.ts'

const dir = fileURLToPath(new URL('../test/e2e/cli/', import.meta.url))
const pnpm = fileURLToPath(new URL('../node_modules/.bin/pnpm', import.meta.url))
const stamp = `${dir}node_modules/.dsh-brake-stamp`
const want = createHash('sha1').update(readFileSync(`${dir}pnpm-lock.yaml`)).update(readFileSync(`${dir}package.json`)).digest('hex')

const page = readFileSync(new URL('../docs/install.md', import.meta.url), 'utf8')
if (recipeManifest(page) !== readFileSync(`${dir}package.json`, 'utf8')) {
  console.error('e2e: the "Get dsh" package.json of docs/install.md and test/e2e/cli/package.json differ: make them the same file')
  process.exit(1)
}

if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want && existsSync(`${dir}node_modules/@deepseek-ai/dsh/package.json`)) {
  console.log('e2e: the dsh CLI is installed and current')
} else {
  console.log('e2e: installing the dsh CLI (pnpm install --frozen-lockfile in test/e2e/cli)…')
  execFileSync(pnpm, ['install', '--frozen-lockfile', '--reporter=append-only'], { cwd: dir, stdio: 'inherit' })
  writeFileSync(stamp, want)
}
