/**
 * The doctor's look at the Node that `dsh` runs on. dsh-brake's command runs on Node 20 as well, so on a machine
 * whose Node is too old for DSH the rest of the doctor passes, and then every boot of dsh fails on the first API
 * Node 20 lacks. The Node a `dsh` started from this environment runs on is the one its launcher names: a script's
 * `#!/usr/bin/env node` line, or a pnpm or npm shim (`exec node …`), find the `node` first on PATH; a shim with a
 * `node` beside it (`"$basedir/node"`) runs that one; a `#!/path/to/node` line, that path.
 * Design: docs/design.md#source-layout; what the doctor checks: docs/install.md
 * @module dsh-brake/cli/doctor-node
 */
import { execFileSync } from 'node:child_process'
import { accessSync, constants, readFileSync, statSync } from 'node:fs'
import { delimiter, dirname, isAbsolute, join } from 'node:path'
import { DSH_NODE, DSH_RELEASE, fitsDshNode } from '../dsh-files/dsh-release.js'
import type { SettingsFindings } from './doctor-settings.js'

/** What the doctor says of the Node dsh runs on. */
export type NodeFindings = Pick<SettingsFindings, 'ok' | 'note' | 'problem'>

/** How long `node --version` may take before the Node is called unusable. */
const VERSION_TIMEOUT_MS = 10_000

/** Check the Node that a `dsh` started with `env`'s PATH would run on, and say what is found. */
export function checkDshNode(env: Readonly<Record<string, string | undefined>>, findings: NodeFindings): void {
  const path = pathOf(env)
  const dsh = onPath(path, process.platform === 'win32' ? ['dsh.cmd', 'dsh.exe', 'dsh'] : ['dsh'])
  const node = (dsh === undefined ? undefined : nodeNamedBy(dsh)) ?? onPath(path, process.platform === 'win32' ? ['node.exe'] : ['node'])
  const who = dsh === undefined ? 'dsh runs on the Node first on PATH,' : `the dsh on PATH (${dsh}) runs on`
  if (node === undefined) {
    findings.note(`no \`node\` on PATH, so the Node dsh runs on is not checked: DSH ${DSH_RELEASE} needs Node ${DSH_NODE} or later`)
    return
  }
  const version = versionOf(node, env)
  if (version === undefined) {
    findings.problem(`${who} ${node}, which does not answer \`--version\`: DSH ${DSH_RELEASE} needs a working Node ${DSH_NODE} or later`)
  } else if (!fitsDshNode(version)) {
    findings.problem(`${who} Node ${version} (${node}), and DSH ${DSH_RELEASE} needs Node ${DSH_NODE} or later: on an older Node every `
      + `boot fails (\`Promise.withResolvers is not a function\`). Install Node ${DSH_NODE} or later (https://nodejs.org, or \`nvm install 22\`) `
      + 'and put it first on PATH')
  } else {
    findings.ok(`${who} Node ${version} (${node}): DSH ${DSH_RELEASE} needs ${DSH_NODE} or later`)
  }
}

/** The environment's PATH (Windows spells it `Path`), as folders. */
function pathOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const key = Object.keys(env).find(name => name.toUpperCase() === 'PATH')
  return (key === undefined ? '' : env[key] ?? '').split(delimiter).filter(dir => dir !== '')
}

/** The first of `names` in the first folder of `path` that holds it as a file that can be run. */
function onPath(path: readonly string[], names: readonly string[]): string | undefined {
  for (const dir of path) {
    for (const name of names) {
      const file = join(dir, name)
      if (isRunnable(file)) return file
    }
  }
  return undefined
}

function isRunnable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false
    if (process.platform !== 'win32') accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The Node a `dsh` launcher names itself, if it names one: an absolute `#!` line, or a shim's `"$basedir/node"` that
 * is there beside it. Undefined for one that looks `node` up on PATH.
 */
function nodeNamedBy(launcher: string): string | undefined {
  let head: string
  try {
    head = readFileSync(launcher, 'utf8').slice(0, 4096)
  } catch {
    return undefined
  }
  const shebang = /^#!\s*(\S+)/.exec(head)?.[1]
  if (shebang !== undefined && isAbsolute(shebang) && /(^|[/\\])node(\.exe)?$/.test(shebang)) return shebang
  // pnpm's and npm's shims run the node beside them when there is one: `if [ -x "$basedir/node" ]`.
  if (/"\$basedir\/node"/.test(head)) {
    const beside = join(dirname(launcher), process.platform === 'win32' ? 'node.exe' : 'node')
    if (isRunnable(beside)) return beside
  }
  return undefined
}

/** What `node --version` answers (`v22.19.0`), or undefined when it does not run or answers something else. */
function versionOf(node: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  try {
    const answer = execFileSync(node, ['--version'], {
      encoding: 'utf8', timeout: VERSION_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ...env },
    }).trim()
    return /^v\d+\.\d+\.\d+/.test(answer) ? answer : undefined
  } catch {
    return undefined
  }
}
