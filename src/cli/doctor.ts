/**
 * `dsh-brake doctor [--profile NAME]`: whether dsh-brake will really run in a DSH profile, and if not, why. DSH's own
 * `--dump-config` shows the row even when the package cannot load or its config is wrong, so the doctor walks what a
 * boot does and names each problem with its file and line. It exits 1 on any problem, 0 otherwise.
 * Design: docs/design.md#source-layout; what it checks: docs/install.md
 * @module dsh-brake/cli/doctor
 */
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { configProblems } from '../config/check.js'
import { cannotBeRead } from '../errors/file-errors.js'
import { plural } from '../words/plural.js'
import { closestSpelling } from '../words/spelling.js'
import { CORDIS_PINS, DSH_RELEASE, installedCordis } from '../dsh-files/dsh-release.js'
import { dshHome, profileDir, profilesWith, readManifest } from '../dsh-files/home.js'
import { checkDshNode } from './doctor-node.js'
import { reminderNote, rowValues } from './doctor-reminder.js'
import { reportSettings, type SettingsFindings } from './doctor-settings.js'
import { ownVersion } from './own-version.js'
import { parseOptions } from './parse-options.js'
import { effectiveRow, readPatchFile, strayEmptyList, type PatchRow } from '../dsh-files/patch-file.js'
import { UsageError } from '../errors/usage-error.js'

/** Where the doctor writes, and what it reads of its environment (tests pass their own). */
export interface DoctorIo {
  readonly out: (line: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  /** The user's home folder, for `~` and the default DSH home. */
  readonly home?: string
}

const PLUGIN = 'dsh-brake'

export const DOCTOR_USAGE = `usage: dsh-brake doctor [--profile NAME]

Checks that dsh-brake will load and run in a DSH profile: the profile lists it, the package resolves and loads from
there, and every dsh-brake row of its cordis.patch.yml passes every config rule (each problem with its file and line);
shows the settings in force, each with where it comes from: the settings document the web UI writes, the row, or the
default; and that the Node dsh runs on (the first on PATH, unless its launcher names one) is 22.19 or later.
Without --profile, checks every profile under the DSH home that has dsh-brake. The DSH home is $DSH_HOME, or ~/.dsh.
Exits 1 when it finds a problem.`

const DEFAULT_IO: DoctorIo = {
  out: line => console.log(line),
  env: process.env,
}

/**
 * Run the doctor; resolves to the exit code.
 * @throws UsageError for a bad command line (main prints it as one line and exits 2, as for every subcommand).
 */
export async function runDoctor(argv: readonly string[], io: DoctorIo = DEFAULT_IO): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    profile: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values['help'] === true) {
    io.out(DOCTOR_USAGE)
    return 0
  }
  if (positionals.length > 0) throw new UsageError(`doctor takes no arguments, got ${JSON.stringify(positionals[0])} (a profile is named with --profile)`)
  const profile = values['profile'] as string | undefined
  if (profile !== undefined && !isProfileName(profile)) throw new UsageError(`\`--profile\`: not a profile name: ${JSON.stringify(profile)}`)
  const home = dshHome(io.env, io.home)
  const names = profile === undefined ? profilesWith(home.dir, PLUGIN) : [profile]
  if (names.length === 0) {
    io.out(`dsh-brake doctor: no profile under ${join(home.dir, 'profiles')} (the DSH home: ${home.from}) has dsh-brake.`)
    io.out('  problem  add it with `dsh plugin --profile NAME add <path to dsh-brake or its tarball>`, or name a profile with --profile.')
    io.out('1 problem found.')
    return 1
  }
  let problems = 0
  for (const name of names) problems += await checkProfile(home, name, io.env, io.out)
  io.out(problems === 0
    ? `No problems: dsh-brake loads in ${plural(names.length, 'profile')} checked.`
    : `${plural(problems, 'problem')} found: fix ${problems === 1 ? 'it' : 'them'} and run \`dsh-brake doctor\` again.`)
  return problems === 0 ? 0 : 1
}

/** A profile is a folder under `profiles/`: a name that would step out of it, or into node_modules, is not one. */
function isProfileName(name: string): boolean {
  return name !== '' && !/[/\\]/.test(name) && name !== '.' && name !== '..' && name !== 'node_modules'
}

/** How a check reports: a step that passed, a remark, or a problem (which makes the exit code 1), and a detail of one. */
interface Findings extends SettingsFindings {
  readonly ok: (text: string) => void
  readonly note: (text: string) => void
  readonly problem: (text: string) => void
}

/** Check one profile, printing a line per finding; resolves to the number of problems. */
async function checkProfile(
  home: { dir: string; from: string }, name: string, env: DoctorIo['env'], say: (line: string) => void,
): Promise<number> {
  const dir = profileDir(home.dir, name)
  let problems = 0
  const findings: Findings = {
    ok: text => say(`  ok       ${text}`),
    note: text => say(`  note     ${text}`),
    problem: (text) => {
      problems++
      say(`  problem  ${text}`)
    },
    detail: text => say(`             ${text}`),
  }
  say(`dsh-brake doctor: profile "${name}" in ${dir} (the DSH home: ${home.from})`)
  const manifest = readManifest(dir)
  if ('error' in manifest) {
    findings.problem(`no such profile: ${manifest.error}. \`dsh plugin --profile ${name} add <path to dsh-brake>\` makes it.`)
    return problems
  }
  const bundles = manifest.dsh?.profile?.bundles ?? []
  const listed = bundles.includes(PLUGIN)
  if (listed) findings.ok('dsh-brake is one of the profile\'s bundles')
  else findings.problem(`dsh-brake is not one of the profile's bundles (dsh.profile.bundles in ${join(dir, 'package.json')}), so DSH does not load it: add it with \`dsh plugin --profile ${name} add <path to dsh-brake>\``)
  await checkPackage(dir, name, findings)
  const { rows, unread } = patchRows([join(dir, 'cordis.patch.yml'), join(home.dir, 'cordis.patch.yml')], findings)
  checkRows(rows.filter(({ row }) => row.id === PLUGIN), listed, unread, findings)
  const inForce = reportSettings(home.dir, bundles, rows, findings)
  misspelledRows(rows, findings)
  rowsInRootConfig(dir, findings)
  reminderNote(bundles, rows, inForce ?? rowValues(effectiveRow(rows.map(({ row }) => row), PLUGIN).config), findings.note)
  checkCordis(home.dir, name, findings)
  checkDshNode(env, findings)
  return problems
}

/**
 * Whether the dsh that runs this home has the Cordis family its release needs: a plain install of the newest pnpm, or
 * a global one, pulls newer ones, and every boot then fails while `dsh --version` still answers.
 */
function checkCordis(home: string, name: string, findings: Findings): void {
  const found = installedCordis(home)
  const off = Object.entries(CORDIS_PINS).filter(([pkg, pin]) => found[pkg] !== undefined && found[pkg] !== pin)
  if (Object.values(found).every(version => version === undefined)) {
    findings.note(`dsh has not run with this home yet, so its Cordis packages are not checked: \`dsh --profile ${name} --dump-config\`, then the doctor again`)
  } else if (off.length > 0) {
    findings.problem(`the dsh that runs this home has Cordis packages off the versions DSH ${DSH_RELEASE} needs (${
      off.map(([pkg, pin]) => `${pkg.replace('@deepseek-ai/', '')} ${found[pkg]!}, needs ${pin}`).join('; ')}): every boot fails with "user patch-layer watching requires the Cordis HMR service". Install dsh with the recipe of docs/install.md (its pnpm-workspace.yaml pins them), then run it once`)
  } else {
    findings.ok(`the dsh that runs this home has the Cordis packages DSH ${DSH_RELEASE} needs`)
  }
}

/** The package as the profile resolves it, and whether it loads. */
async function checkPackage(dir: string, name: string, findings: Findings): Promise<void> {
  const found = locate(dir, name)
  if ('error' in found) {
    findings.problem(found.error)
    return
  }
  findings.ok(`the package resolves from the profile: ${found.dir} (version ${found.version})`)
  const own = ownVersion()
  if (own !== undefined && own !== found.version) findings.note(`this doctor is dsh-brake ${own}: the config below is checked by its rules, not by those of ${found.version}`)
  const failures = await loadProblems(found.dir)
  for (const text of failures) findings.problem(text)
  if (failures.length === 0) findings.ok('it loads: its entry exports name, Config and apply')
}

/**
 * The user's own dsh-brake rows: each one's config against every rule, and rows a removal left behind. `unread`: a
 * patch file could not be read as YAML, so its rows may be missing here.
 */
function checkRows(own: readonly { file: string; row: PatchRow }[], listed: boolean, unread: boolean, findings: Findings): void {
  if (own.length === 0 && !unread) findings.ok('no dsh-brake row of your own in cordis.patch.yml: every setting has its default')
  // The row that turns dsh-brake off, if the last that writes `disabled` does: the Loader then never imports it.
  const disabledBy = effectiveRow(own.map(({ row }) => row), PLUGIN).disabledBy
  const off = own.find(({ row }) => row === disabledBy)
  for (const { file, row } of own) {
    const at = `${file}:${row.line}`
    // What a removal leaves behind: `dsh plugin remove` takes the package, not the rows the user wrote.
    if (!listed) findings.problem(`${at}: a dsh-brake row, but the profile does not load dsh-brake, so every boot warns about it; if you removed dsh-brake, delete this row with its config`)
    if (row === disabledBy) findings.note(`${at}: this row turns dsh-brake off (disabled: true): DSH does not load it`)
    for (const key of row.expressions) findings.note(`${file}:${row.lineOf([key])}: \`${key}\` is a !!js expression: DSH computes it at load, so it is not checked here`)
    // In the order they stand in the file, as a person reads it to fix them.
    const found = configProblems(row.config)
      .map(({ path, message }) => ({ line: row.lineOf(path), message }))
      .sort((a, b) => a.line - b.line)
    for (const { line, message } of found) findings.problem(`${file}:${line}: ${message}`)
    if (found.length === 0 && row.hasConfig) findings.ok(`${at}: its config passes every rule`)
    // What the person saw of it: nothing, if they saved the edit while dsh ran (DSH keeps the last good tree). A plugin
    // turned off is not loaded, so its config is not checked until it is turned on.
    if (found.length > 0 && off !== undefined) {
      findings.note(`${at}: dsh starts this profile, as dsh-brake is off (${off.file}:${off.row.line}) and its config is not checked while it is; `
        + 'turned on with this config, dsh would not start the profile (it exits 1 naming the problem), and a dsh already running would refuse that edit')
    } else if (found.length > 0) {
      findings.note(`${at}: until this row is fixed, dsh does not start this profile (it exits 1 naming the problem), `
        + 'and a dsh already running keeps dsh-brake\'s previous config: the edit is not applied')
    }
  }
}

/**
 * Rows whose id is one slip from `dsh-brake` (`dsh-brakes`, `dsh_brake`): DSH applies a row to the entry of that id,
 * finds none, and skips it with a warning that stock dsh shows nowhere, so the config the person wrote never runs. A
 * row that names a module inserts an entry of its own, and is left alone.
 */
function misspelledRows(rows: readonly { file: string; row: PatchRow }[], findings: Findings): void {
  for (const { file, row } of rows) {
    if (row.id === PLUGIN || row.name !== undefined || closestSpelling(row.id, [PLUGIN]) === undefined) continue
    findings.problem(`${file}:${row.line}: a row with the id \`${row.id}\`: did you mean \`${PLUGIN}\`? No plugin has that id, `
      + 'so DSH skips the row and nothing in it applies')
  }
}

/**
 * dsh-brake rows in the profile's `cordis.yml`: dsh writes that file afresh (an empty list) at every boot, before it
 * reads it, so such a row is gone before it could apply. It belongs in `cordis.patch.yml`, beside it.
 */
function rowsInRootConfig(dir: string, findings: Findings): void {
  const file = join(dir, 'cordis.yml')
  if (!existsSync(file)) return
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return
  }
  // A row pasted under the `[]` dsh writes there is dropped all the same: read the rows under it.
  const read = readPatchFile(text)
  const rows = read.errors.length > 0 ? readPatchFile(strayEmptyList(text)?.without ?? text).rows : read.rows
  for (const row of rows) {
    if (row.id !== PLUGIN && row.name !== PLUGIN && closestSpelling(row.id, [PLUGIN]) === undefined) continue
    findings.problem(`${file}:${row.line}: a dsh-brake row in cordis.yml, which dsh rewrites at every boot, dropping it: `
      + `nothing in it applies. Move it to ${join(dir, 'cordis.patch.yml')} (\`- id: dsh-brake\` with its \`config\`)`)
  }
}

/** The dsh-brake package as the profile resolves it (its own folder first, then DSH's shared fallback above it). */
function locate(dir: string, name: string): { dir: string; version: string } | { error: string } {
  let manifestPath: string
  try {
    manifestPath = createRequire(join(dir, 'package.json')).resolve(`${PLUGIN}/package.json`)
  } catch (error) {
    // Only a package that is not there is "not installed"; anything else the resolver says is its own problem.
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') {
      return { error: `dsh-brake does not resolve from ${dir}: ${firstLine(error)}` }
    }
    const link = join(dir, 'node_modules', PLUGIN)
    const linked = existsSync(link) ? undefined : linkTarget(link)
    if (linked !== undefined) return { error: `${link} links to ${linked}, which does not exist (moved or deleted?): add dsh-brake to the profile again` }
    return { error: `dsh-brake does not resolve from ${dir}: it is not installed there. Add it with \`dsh plugin --profile ${name} add <path to dsh-brake>\`` }
  }
  let manifest: { version?: string }
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version?: string }
  } catch (error) {
    const problem = error instanceof SyntaxError ? `is not valid JSON (${error.message})` : cannotBeRead(error)
    return { error: `${manifestPath} ${problem}: the package is broken; add dsh-brake to the profile again` }
  }
  return { dir: dirname(realpathSync(manifestPath)), version: manifest.version ?? 'unknown' }
}

/** Where a dangling symbolic link points, if `path` is one. */
function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined
  } catch {
    return undefined
  }
}

/** What stops the package at `dir` from loading as a DSH plugin, if anything. */
async function loadProblems(dir: string): Promise<string[]> {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    main?: string
    exports?: { '.'?: { default?: string } }
    dsh?: { bundle?: { patch?: string } }
  }
  const problems: string[] = []
  const patch = manifest.dsh?.bundle?.patch
  if (patch === undefined) problems.push(`${join(dir, 'package.json')} declares no dsh.bundle.patch, so DSH refuses it as a bundle`)
  else if (!existsSync(join(dir, patch))) problems.push(`${join(dir, patch)} is missing: it is the bundle layer package.json names`)
  const entry = join(dir, manifest.exports?.['.']?.default ?? manifest.main ?? 'index.js')
  if (!existsSync(entry)) {
    problems.push(`${entry} is missing: the package is not built. Build it with \`npm install && npm run build\` in ${dir} `
      + '(a folder added with `dsh plugin add <dir>` is used as it is)')
    return problems
  }
  let loaded: Record<string, unknown>
  try {
    loaded = await import(pathToFileURL(entry).href) as Record<string, unknown>
  } catch (error) {
    problems.push(`${entry} does not load: ${firstLine(error)}`)
    return problems
  }
  const where = relative(dir, entry)
  if (typeof loaded['apply'] !== 'function') problems.push(`${where} does not export \`apply\`: DSH has nothing to run`)
  if (loaded['name'] !== PLUGIN) problems.push(`${where} exports the name ${JSON.stringify(loaded['name'])}, not "${PLUGIN}"`)
  if (loaded['Config'] === undefined) problems.push(`${where} does not export \`Config\`: DSH would not check or fill its settings`)
  if ('default' in loaded) problems.push(`${where} has a default export: the Loader would take it and drop the named exports`)
  return problems
}

/**
 * Every row of the patch files that exist, with its file; a file that is not valid YAML is one problem (its first
 * error), and `unread` says its rows may be missing. A `[]` left above pasted rows is named as such, and the rows under
 * it are read all the same, to be checked.
 */
function patchRows(files: readonly string[], findings: Findings): { rows: { file: string; row: PatchRow }[]; unread: boolean } {
  let unread = false
  const rows = files.filter(file => existsSync(file)).flatMap((file) => {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      findings.problem(`${file} ${cannotBeRead(error)}, so DSH cannot boot the profile`)
      unread = true
      return []
    }
    const read = readPatchFile(text)
    if (read.errors.length === 0) return read.rows.map(row => ({ file, row }))
    const stray = strayEmptyList(text)
    const under = stray === undefined ? undefined : readPatchFile(stray.without)
    if (stray !== undefined && under !== undefined && under.errors.length === 0) {
      findings.problem(`${file}:${stray.line}: the \`[]\` a fresh cordis.patch.yml ends in is still there, above your rows, so the file is `
        + 'not valid YAML and dsh does not start this profile: replace the `[]` with your rows')
      return under.rows.map(row => ({ file, row }))
    }
    const [first] = read.errors
    const more = read.errors.length > 1 ? ` (and ${read.errors.length - 1} more)` : ''
    findings.problem(`${file}:${first!.line}: not valid YAML, so DSH cannot boot the profile: ${first!.message}${more}`)
    unread = true
    return []
  })
  return { rows, unread }
}

/** The first line of an error's message: enough to say what went wrong on a finding's line. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
}
