/**
 * `dsh-brake doctor` on real profile layouts built on disk, the way `dsh plugin --profile NAME add <dir>` leaves them:
 * `$DSH_HOME/profiles/NAME/package.json` listing the bundles, `node_modules/dsh-brake` linking to the package, and the
 * user's `cordis.patch.yml`. A good install must be reported good, and each broken one with its cause, file and line.
 */
import { execFile } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runDoctor } from '../../../src/cli/doctor.ts'
import { CORDIS_PINS } from '../../../src/dsh-files/dsh-release.ts'
import { PACKAGE_ROOT } from '../../../scripts/paths.ts'

const ROOT = mkdtempSync(join(tmpdir(), 'dsh-brake-doctor-'))
afterAll(() => rmSync(ROOT, { recursive: true, force: true }))

const STOCK = ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless']
const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version

interface Layout {
  /** The profile's bundles; dsh-brake is added by `dsh plugin add`. */
  readonly bundles?: readonly string[]
  /** What node_modules/dsh-brake links to; null: nothing installed. */
  readonly target?: string | null
  /** The profile's cordis.patch.yml, if any. */
  readonly patch?: string
  readonly name?: string
}

/** A DSH home with one profile laid out as `dsh plugin add` leaves it. */
function home(layout: Layout = {}): { home: string; patchFile: string } {
  const dir = mkdtempSync(join(ROOT, 'home-'))
  const profile = join(dir, 'profiles', layout.name ?? 'headless')
  mkdirSync(join(profile, 'node_modules'), { recursive: true })
  const target = layout.target === undefined ? PACKAGE_ROOT : layout.target
  writeFileSync(join(profile, 'package.json'), JSON.stringify({
    name: 'dsh-profile-headless',
    private: true,
    dependencies: target === null ? {} : { 'dsh-brake': `link:${target}` },
    dsh: { profile: { bundles: layout.bundles ?? [...STOCK, 'dsh-brake'] } },
  }))
  if (target !== null) symlinkSync(target, join(profile, 'node_modules', 'dsh-brake'), 'junction')
  const patchFile = join(profile, 'cordis.patch.yml')
  if (layout.patch !== undefined) writeFileSync(patchFile, layout.patch)
  return { home: dir, patchFile }
}

/** Run the doctor against `dshHome` (with `path` as PATH, if given); what it printed, and its exit code. */
async function doctor(dshHome: string, ...argv: string[]): Promise<{ code: number; out: string }> {
  return doctorWith({ DSH_HOME: dshHome }, ...argv)
}

async function doctorWith(env: Record<string, string>, ...argv: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = []
  const code = await runDoctor(argv, { out: line => out.push(line), env, home: ROOT })
  return { code, out: out.join('\n') }
}

/** A folder holding an executable script `name` with `body`. */
function script(dir: string, name: string, body: string): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, name)
  writeFileSync(file, body)
  chmodSync(file, 0o755)
  return file
}

/** A `node` that answers `--version` with `version`, as the one first on PATH would. */
const fakeNode = (dir: string, version: string): string => script(dir, 'node', `#!/bin/sh\necho ${version}\n`)

/** Run the built command (`dist/cli/main.js`, built by `npm test`): how a bad command line reaches the user. */
function command(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(PACKAGE_ROOT, 'dist/cli/main.js'), ...args], { env: { ...process.env, DSH_HOME: ROOT } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr })
    })
  })
}

const row = (config: string): string => `# my settings\n- id: dsh-brake\n  config:\n${config}`

describe('dsh-brake doctor on a good install', () => {
  it('reports it good: bundle, package, load, rows, and exits 0', async () => {
    const { home: dir } = home()
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain("ok       dsh-brake is one of the profile's bundles")
    expect(out).toContain(`ok       the package resolves from the profile: ${PACKAGE_ROOT.replace(/\/$/, '')} (version ${VERSION})`)
    expect(out).toContain('ok       it loads: its entry exports name, Config and apply')
    expect(out).toContain('ok       no dsh-brake row of your own in cordis.patch.yml: every setting has its default')
    expect(out).not.toContain('  problem  ')
    expect(out.split('\n').at(-1)).toBe('No problems: dsh-brake loads in 1 profile checked.')
    expect(code).toBe(0)
  })

  it('passes a row whose config keeps every rule', async () => {
    const { home: dir, patchFile } = home({ patch: row('    mode: deny\n    callWarnCount: 6\n    exclude: [todo_write]\n') })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`ok       ${patchFile}:2: its config passes every rule`)
    expect(code).toBe(0)
  })

  it('finds the profiles that have dsh-brake when none is named', async () => {
    const { home: dir } = home()
    mkdirSync(join(dir, 'profiles', 'web'))
    writeFileSync(join(dir, 'profiles', 'web', 'package.json'), JSON.stringify({ dsh: { profile: { bundles: STOCK } } }))
    const { code, out } = await doctor(dir)
    expect(out).toContain(`profile "headless" in ${join(dir, 'profiles', 'headless')} (the DSH home: DSH_HOME)`)
    expect(out).not.toContain('profile "web"')
    expect(code).toBe(0)
  })

  it('looks in ~/.dsh when DSH_HOME is not set', async () => {
    const out: string[] = []
    const code = await runDoctor([], { out: line => out.push(line), env: {}, home: join(ROOT, 'nobody') })
    expect(out[0]).toBe(`dsh-brake doctor: no profile under ${join(ROOT, 'nobody', '.dsh', 'profiles')} (the DSH home: the default, as DSH_HOME is not set) has dsh-brake.`)
    expect(code).toBe(1)
  })
})

describe('dsh-brake doctor on a broken install names the cause', () => {
  it('dist missing: the package is not built', async () => {
    const unbuilt = mkdtempSync(join(ROOT, 'unbuilt-'))
    copyFileSync(join(PACKAGE_ROOT, 'package.json'), join(unbuilt, 'package.json'))
    copyFileSync(join(PACKAGE_ROOT, 'cordis.patch.yml'), join(unbuilt, 'cordis.patch.yml'))
    const { home: dir } = home({ target: unbuilt })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${join(unbuilt, 'dist/index.js')} is missing: the package is not built. Build it with \`npm install && npm run build\` in ${unbuilt}`)
    expect(out).not.toContain('it loads')
    expect(code).toBe(1)
  })

  it('a bad row: the key, the rule, the value, the file and the line', async () => {
    const { home: dir, patchFile } = home({ patch: row('    mode: deny\n    callWarnCount: 1\n') })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${patchFile}:5: \`callWarnCount\` must be an integer >= 2, got 1`)
    expect(out.split('\n').at(-1)).toBe('1 problem found: fix it and run `dsh-brake doctor` again.')
    expect(code).toBe(1)
  })

  it('a bad value saved while dsh runs: the problem, and that a running dsh keeps the previous config', async () => {
    const { home: dir, patchFile } = home({ patch: row('    mode: stopp\n') })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${patchFile}:4: \`mode\` must be one of \`remind\`, \`deny\`, \`stop\`, got "stopp"`)
    expect(out).toContain(`note     ${patchFile}:2: until this row is fixed, dsh does not start this profile (it exits 1 naming the problem), `
      + 'and a dsh already running keeps dsh-brake\'s previous config: the edit is not applied')
    expect(code).toBe(1)
  })

  it('a bad value in a row that turns dsh-brake off: dsh starts, and turning it on would stop the boot', async () => {
    const { home: dir, patchFile } = home({ patch: '- id: dsh-brake\n  disabled: true\n  config:\n    mode: stopp\n' })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`note     ${patchFile}:1: this row turns dsh-brake off (disabled: true): DSH does not load it`)
    expect(out).toContain(`problem  ${patchFile}:4: \`mode\` must be one of \`remind\`, \`deny\`, \`stop\`, got "stopp"`)
    expect(out).toContain(`note     ${patchFile}:1: dsh starts this profile, as dsh-brake is off (${patchFile}:1) and its config is not checked `
      + 'while it is; turned on with this config, dsh would not start the profile (it exits 1 naming the problem), and a dsh '
      + 'already running would refuse that edit')
    expect(out).not.toContain('until this row is fixed')
    expect(code).toBe(1)
  })

  it('a row turned off and back on by a later one is checked as one that loads', async () => {
    const patch = '- id: dsh-brake\n  disabled: true\n- id: dsh-brake\n  disabled: false\n  config:\n    mode: stopp\n'
    const { out } = await doctor(home({ patch }).home, '--profile', 'headless')
    expect(out).toContain('until this row is fixed, dsh does not start this profile')
    expect(out).not.toContain('DSH does not load it')
  })

  it('a row whose id is one slip from dsh-brake, which DSH skips', async () => {
    const { home: dir, patchFile } = home({ patch: '- id: dsh-brakes\n  config:\n    mode: deny\n- id: dsh_brake\n  disabled: true\n' })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${patchFile}:1: a row with the id \`dsh-brakes\`: did you mean \`dsh-brake\`? No plugin has that id, so DSH skips the row and nothing in it applies`)
    expect(out).toContain(`problem  ${patchFile}:4: a row with the id \`dsh_brake\`: did you mean \`dsh-brake\`?`)
    expect(out).toContain('2 problems found')
    expect(code).toBe(1)
  })

  it('leaves alone rows of other plugins and a row that inserts an entry of its own', async () => {
    const patch = '- id: repeat-tool-reminder\n  disabled: true\n- insert:\n    - id: dsh-brake2\n      name: dsh-brake\n'
    const { code, out } = await doctor(home({ patch }).home, '--profile', 'headless')
    expect(out).not.toContain('did you mean')
    expect(code).toBe(0)
  })

  it('a dsh-brake row in cordis.yml, which dsh rewrites at boot: it belongs in cordis.patch.yml', async () => {
    const { home: dir, patchFile } = home()
    const rootFile = join(dir, 'profiles', 'headless', 'cordis.yml')
    writeFileSync(rootFile, '# dsh profile root\n- id: dsh-brake\n  name: dsh-brake\n  config:\n    mode: deny\n')
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${rootFile}:2: a dsh-brake row in cordis.yml, which dsh rewrites at every boot, dropping it: nothing in it applies. `
      + `Move it to ${patchFile} (\`- id: dsh-brake\` with its \`config\`)`)
    expect(code).toBe(1)
  })

  it('an empty cordis.yml, as dsh writes it, is no problem', async () => {
    const { home: dir } = home()
    writeFileSync(join(dir, 'profiles', 'headless', 'cordis.yml'), '# dsh profile root — an empty entry list.\n[]\n')
    const { code } = await doctor(dir, '--profile', 'headless')
    expect(code).toBe(0)
  })

  it('an unknown key', async () => {
    const { home: dir, patchFile } = home({ patch: row('    callWarnCnt: 6\n') })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${patchFile}:4: unknown config key \`callWarnCnt\`: did you mean \`callWarnCount\`? (valid keys: mode, callWarnCount,`)
    expect(code).toBe(1)
  })

  it('two problems at once, each on its own line', async () => {
    const { home: dir, patchFile } = home({ patch: row('    callWarnCount: "6"\n    callDenyCount: 3\n    toolPolicies:\n      deploy_status: { class: pollr }\n') })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${patchFile}:4: \`callWarnCount\` must be a number, got the string "6": write it without quotes`)
    expect(out).toContain(`problem  ${patchFile}:7: \`toolPolicies.deploy_status.class\` must be one of \`default\`, \`read\`, \`poller\`, \`mutating\`, \`bookkeeping\`, got "pollr"`)
    expect(out).toContain('2 problems found: fix them')
    expect(code).toBe(1)
  })

  it('a row inside an insert list, and one in the home\'s own patch file', async () => {
    const { home: dir, patchFile } = home({ patch: '- insert:\n    - id: dsh-brake\n      name: dsh-brake\n      config: { sequenceLength: 40 }\n' })
    writeFileSync(join(dir, 'cordis.patch.yml'), row('    revisitCount: 2\n'))
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${patchFile}:4: \`sequenceLength\` must be an integer from 2 to 32, got 40`)
    expect(out).toContain(`problem  ${join(dir, 'cordis.patch.yml')}:4: \`revisitCount\` must be an integer >= 3, got 2`)
    expect(code).toBe(1)
  })

  /** The patch file a fresh profile gets (DSH's own words), ending in `[]`. */
  const FRESH = '# Your patch layer for this dsh profile, applied after every bundle layer:\n'
    + '# a top-level YAML array of loader patch entries (id-targeted config\n'
    + '# overrides, disables, and insert lists; `!!js` expressions allowed).\n[]\n'

  it('the README\'s row pasted under a fresh file\'s `[]`: one line saying to replace it, and the row checked all the same', async () => {
    const { home: dir, patchFile } = home({ patch: `${FRESH}- id: dsh-brake\n  config:\n    mode: deny\n    callWarnCount: 1\n` })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    const problems = out.split('\n').filter(line => line.startsWith('  problem  '))
    expect(problems).toEqual([
      `  problem  ${patchFile}:4: the \`[]\` a fresh cordis.patch.yml ends in is still there, above your rows, so the file is not valid YAML `
      + 'and dsh does not start this profile: replace the `[]` with your rows',
      `  problem  ${patchFile}:8: \`callWarnCount\` must be an integer >= 2, got 1`,
    ])
    expect(out).not.toContain('Unexpected')
    expect(out).not.toContain('no dsh-brake row of your own')
    expect(code).toBe(1)
  })

  it('a patch file that is not valid YAML: its first error, and no word on rows it could not read', async () => {
    const { home: dir, patchFile } = home({ patch: '- id: dsh-brake\n  config:\n    include: [read\n    exclude: [x\n' })
    const { out } = await doctor(dir, '--profile', 'headless')
    expect(out.split('\n').filter(line => line.includes('not valid YAML'))).toHaveLength(1)
    expect(out).toMatch(new RegExp(`problem  ${patchFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: not valid YAML, so DSH cannot boot the profile: .+ \\(and \\d+ more\\)`))
    expect(out).not.toContain('no dsh-brake row of your own')
  })

  it('a dsh-brake row pasted under cordis.yml\'s `[]`: a row dsh drops, as in one that parses', async () => {
    const { home: dir } = home()
    const rootFile = join(dir, 'profiles', 'headless', 'cordis.yml')
    writeFileSync(rootFile, '# dsh profile root — an empty entry list.\n[]\n- id: dsh-brake\n  config:\n    mode: deny\n')
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${rootFile}:3: a dsh-brake row in cordis.yml, which dsh rewrites at every boot, dropping it: nothing in it applies.`)
    expect(code).toBe(1)
  })

  it('a patch file that is not valid YAML', async () => {
    const { home: dir, patchFile } = home({ patch: '- id: dsh-brake\n  config:\n    include: [read\n' })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toMatch(new RegExp(`problem  ${patchFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: not valid YAML, so DSH cannot boot the profile`))
    expect(code).toBe(1)
  })

  it('not one of the profile\'s bundles', async () => {
    const { home: dir } = home({ bundles: STOCK })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain("problem  dsh-brake is not one of the profile's bundles")
    expect(code).toBe(1)
  })

  it('rows left behind by a removal', async () => {
    const { home: dir, patchFile } = home({ bundles: STOCK, target: null, patch: row('    mode: deny\n') })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${patchFile}:2: a dsh-brake row, but the profile does not load dsh-brake, so every boot warns about it; if you removed dsh-brake, delete this row with its config`)
    expect(code).toBe(1)
  })

  it('not installed in the profile', async () => {
    const { home: dir } = home({ target: null })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  dsh-brake does not resolve from ${join(dir, 'profiles', 'headless')}: it is not installed there`)
    expect(code).toBe(1)
  })

  it('a package whose package.json is broken is not called "not installed"', async () => {
    const broken = mkdtempSync(join(ROOT, 'broken-'))
    writeFileSync(join(broken, 'package.json'), '{ "name": "dsh-brake", ')
    const { code, out } = await doctor(home({ target: broken }).home, '--profile', 'headless')
    expect(code).toBe(1)
    expect(out).toMatch(/problem {2}.*(invalid package config|is not valid JSON).*package\.json/i)
    expect(out).not.toContain('not installed')
  })

  it('a patch file that cannot be read is a problem line, not a crash', async () => {
    const { home: dir, patchFile } = home()
    mkdirSync(patchFile)
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(code).toBe(1)
    expect(out).toContain(`problem  ${patchFile} cannot be read (EISDIR), so DSH cannot boot the profile`)
  })

  it('a link to a checkout that moved', async () => {
    const gone = join(ROOT, 'moved-away')
    const { home: dir } = home({ target: gone })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`links to ${gone}, which does not exist (moved or deleted?)`)
    expect(code).toBe(1)
  })

  it('a profile that does not exist', async () => {
    const { home: dir } = home()
    const { code, out } = await doctor(dir, '--profile', 'web')
    expect(out).toContain('problem  no such profile:')
    expect(code).toBe(1)
  })
})

describe('dsh-brake doctor on the Cordis packages of the dsh that runs the home', () => {
  /** The links DSH makes in `profiles/node_modules` at a boot: the Cordis family of its install, at `versions`. */
  function booted(dir: string, versions: Readonly<Record<string, string>>): void {
    for (const [name, version] of Object.entries(versions)) {
      mkdirSync(join(dir, 'profiles', 'node_modules', name), { recursive: true })
      writeFileSync(join(dir, 'profiles', 'node_modules', name, 'package.json'), JSON.stringify({ name, version }))
    }
  }

  it('says they are the ones DSH 0.1.0-rc.8 needs, when the recipe was followed', async () => {
    const { home: dir } = home()
    booted(dir, CORDIS_PINS)
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain('ok       the dsh that runs this home has the Cordis packages DSH 0.1.0-rc.8 needs')
    expect(code).toBe(0)
  })

  it('names each one off the pins, what every boot then fails with, and what to do', async () => {
    const { home: dir } = home()
    booted(dir, { ...CORDIS_PINS, '@deepseek-ai/cordis': '4.0.4', '@deepseek-ai/cordis-plugin-hmr': '1.0.19' })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain('problem  the dsh that runs this home has Cordis packages off the versions DSH 0.1.0-rc.8 needs (cordis 4.0.4, needs 4.0.1; '
      + 'cordis-plugin-hmr 1.0.19, needs 1.0.16): every boot fails with "user patch-layer watching requires the Cordis HMR service". '
      + 'Install dsh with the recipe of docs/install.md (its pnpm-workspace.yaml pins them), then run it once')
    expect(code).toBe(1)
  })

  it('notes that dsh has not run with the home yet, without calling it a problem', async () => {
    const { home: dir } = home()
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain('note     dsh has not run with this home yet, so its Cordis packages are not checked: `dsh --profile headless --dump-config`, then the doctor again')
    expect(code).toBe(0)
  })
})

describe('dsh-brake doctor on repeat-tool-reminder', () => {
  it('says it runs beside dsh-brake in a stock profile, and when each speaks', async () => {
    const { home: dir } = home({ patch: row('    callWarnCount: 6\n') })
    const { out } = await doctor(dir, '--profile', 'headless')
    // 6 and 11 fall within five calls of the reminder's 5th and 8th: dsh-brake's first notice on such a call is the 16th.
    expect(out).toContain('note     repeat-tool-reminder runs beside it (@deepseek-ai/dsh-base mounts it): it tells the model of the 3rd, 5th and 8th '
      + 'identical call in a row, and dsh-brake, which hears it, does not say the same again: on such a call dsh-brake speaks at the 16th, '
      + 'and of any other loop on its own schedule.')
  })

  it('counts from the last dsh-brake row that writes a config, as DSH applies the rows in order', async () => {
    const { home: dir } = home({ patch: `${row('    callWarnCount: 5\n')}- id: dsh-brake\n  config:\n    callWarnCount: 6\n- id: dsh-brake\n  disabled: false\n` })
    const { out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain('dsh-brake speaks at the 16th,')
  })

  it('says that in deny mode beside it dsh-brake gives no notice before its refusals, as a real run shows', async () => {
    const { home: dir } = home({ patch: row('    mode: deny\n') })
    const { out } = await doctor(dir, '--profile', 'headless')
    // The 4th, 9th and 14th: the first two within five calls of the reminder's, the third after the refusals began.
    expect(out).toContain('does not say the same again: on such a call dsh-brake gives no notice of its own before it refuses, '
      + 'from the 11th identical attempt on, and of any other loop it speaks on its own schedule.')
    expect(out).not.toContain('speaks at the 4th')
  })

  it('says that in stop mode beside it the first refusal ends the turn', async () => {
    const { home: dir } = home({ patch: row('    mode: stop\n') })
    const { out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain('on such a call dsh-brake gives no notice of its own before it refuses, from the 11th identical attempt on, '
      + 'and that first refusal ends the turn; of any other loop it speaks on its own schedule.')
  })

  it('in deny mode with a deny count past its first notice, says both: the notice, then the refusals', async () => {
    const { home: dir } = home({ patch: row('    mode: deny\n    callDenyCount: 20\n') })
    const { out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain('on such a call dsh-brake speaks at the 14th and refuses from the 21st identical attempt on, and of any other loop')
  })

  it('reads the mode and the counts in force: a value of the settings document over the row', async () => {
    const { home: dir } = home({ patch: row('    mode: remind\n    callWarnCount: 6\n') })
    writeFileSync(join(dir, 'settings.yaml'), 'dsh-brake:\n  mode: stop\n  callWarnCount: 5\n')
    const { out } = await doctor(dir, '--profile', 'headless')
    // 5, 10 and 15 after the reminder's 3, 5 and 8: the 15th, past the refusals from the 11th; stop mode.
    expect(out).toContain('on such a call dsh-brake gives no notice of its own before it refuses, from the 11th identical attempt on, '
      + 'and that first refusal ends the turn')
  })

  it('is not turned off by a row a later one turns back on', async () => {
    const { home: dir } = home({ patch: '- id: repeat-tool-reminder\n  disabled: true\n- id: repeat-tool-reminder\n  disabled: false\n' })
    const { out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain('note     repeat-tool-reminder runs beside it')
  })

  it('says when the user turned it off', async () => {
    const { home: dir, patchFile } = home({ patch: '- id: repeat-tool-reminder\n  disabled: true\n' })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`note     repeat-tool-reminder is turned off (${patchFile}:1): only dsh-brake tells the model about repeats`)
    expect(code).toBe(0)
  })

  it('notes a disabled dsh-brake row and a !!js value, without calling them problems', async () => {
    const { home: dir, patchFile } = home({ patch: '- id: dsh-brake\n  disabled: true\n  config:\n    callWarnCount: !!js 2 + 3\n' })
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`note     ${patchFile}:1: this row turns dsh-brake off (disabled: true): DSH does not load it`)
    expect(out).toContain(`note     ${patchFile}:4: \`callWarnCount\` is a !!js expression: DSH computes it at load, so it is not checked here`)
    expect(code).toBe(0)
  })
})

describe('dsh-brake doctor on a bad command line: one line naming what was wrong, exit code 2, as analyze', () => {
  it.each([
    [['--profle', 'x'], 'dsh-brake: unknown option `--profle`'],
    [['--profile'], 'dsh-brake: `--profile` needs a value'],
    [['--profile', '-x'], 'dsh-brake: `--profile` needs a value'],
    [['--profile', '../x'], 'dsh-brake: `--profile`: not a profile name: "../x"'],
    [['headless'], 'dsh-brake: doctor takes no arguments, got "headless" (a profile is named with --profile)'],
  ])('%j', async (argv, message) => {
    const { code, stdout, stderr } = await command('doctor', ...argv)
    expect([code, stdout, stderr]).toEqual([2, '', `${message}\n`])
  })

  it('--help shows the usage and exits 0', async () => {
    const { code, out } = await doctor(ROOT, '--help')
    expect(out).toMatch(/^usage: dsh-brake doctor \[--profile NAME\]/)
    expect(code).toBe(0)
    const built = await command('doctor', '-h')
    expect([built.code, built.stderr]).toEqual([0, ''])
    expect(built.stdout).toMatch(/^usage: dsh-brake doctor \[--profile NAME\]/)
  })
})

describe('dsh-brake doctor on the settings in force', () => {
  const lines = (out: string): string[] => out.split('\n').filter(line => /^ {13}\S/.test(line)).map(line => line.trim().replace(/\s+/g, ' '))

  it('shows each setting with the layer it comes from: the settings document, the row, or the default', async () => {
    const { home: dir, patchFile } = home({ patch: row('    callWarnCount: 6\n    exclude: [todo_write]\n') })
    writeFileSync(join(dir, 'settings.yaml'), '# mine\nllm-deepseek:\n  model: x\ndsh-brake:\n  mode: deny\n  exclude: []\n')
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`ok       settings in force as the files set them (the web UI's Settings → Plugins card writes the \`dsh-brake:\` section of ${join(dir, 'settings.yaml')}; a reset there returns to cordis.patch.yml):`)
    // A running dsh has them only if it read each save: DSH's watcher can miss one written in place.
    expect(out).toContain('note     these are what dsh starts with; a dsh already running has them only if it read each save of cordis.patch.yml: '
      + 'DSH 0.1.0-rc.8 can miss a save written in place (`cat >`, `cp`, some editors), which dsh-brake then says on dsh\'s terminal; '
      + '`touch` the file to have it read again')
    expect(lines(out)).toEqual([
      `mode deny settings ${join(dir, 'settings.yaml')}:5`,
      `callWarnCount 6 cordis.patch.yml ${patchFile}:4`,
      'callDenyCount 10 default',
      'streamCut true default',
      'include [] default',
      `exclude [] settings ${join(dir, 'settings.yaml')}:6`,
    ])
    expect(code).toBe(0)
  })

  it('keeps the table in line whatever the values\' length: each column starts where the one above it does', async () => {
    const { home: dir } = home({ patch: row('    include: [read, grep, glob, bash, str_replace_editor]\n    exclude: [todo_write]\n') })
    const { out } = await doctor(dir, '--profile', 'headless')
    const table = out.split('\n').filter(line => /^ {13}\S/.test(line))
    expect(table).toHaveLength(6)
    // Where the value and its source start, after the key, each after a gap of two spaces or more.
    const columns = (line: string): number[] => [...line.slice(13).matchAll(/ {2,}(?=\S)/g)].map(match => match.index + match[0].length)
    const starts = columns(table[0]!)
    expect(starts).toHaveLength(2)
    for (const line of table) expect(columns(line).slice(0, 2), line).toEqual(starts)
  })

  it('names a section the brake refuses with its file and line, and shows the row\'s config in force', async () => {
    const { home: dir } = home({ patch: row('    callWarnCount: 6\n') })
    writeFileSync(join(dir, 'settings.yaml'), 'dsh-brake:\n  mode: deny\n  callDenyCount: 5\n')
    const { code, out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain(`problem  ${join(dir, 'settings.yaml')}:3: \`callDenyCount\` must be greater than \`callWarnCount\` (6), got 5; DSH refuses such a value from the web UI, so it was written by hand: until it is fixed, dsh-brake runs with its cordis.patch.yml config`)
    expect(lines(out)[0]).toBe('mode remind default')
    expect(code).toBe(1)
  })

  it('says when the profile has no settings service, and the row alone applies', async () => {
    const { home: dir } = home({ bundles: ['@deepseek-ai/dsh-headless', 'dsh-brake'] })
    writeFileSync(join(dir, 'settings.yaml'), 'dsh-brake:\n  mode: deny\n')
    const { out } = await doctor(dir, '--profile', 'headless')
    expect(out).toContain('settings in force as the files set them (this profile does not load @deepseek-ai/dsh-base, so it has no settings service and the web UI\'s card does not show: cordis.patch.yml alone):')
    expect(lines(out)[0]).toBe('mode remind default')
  })
})

describe('dsh-brake doctor on the Node dsh runs on', () => {
  /** The shell that runs the shims, and nothing else, so a `node` in a test folder is the first one found. */
  const SYSTEM = '/usr/bin:/bin'

  it('names an older Node than DSH needs, where it is, what fails, and how to get one', async () => {
    const bin = mkdtempSync(join(ROOT, 'bin-'))
    const node = fakeNode(bin, 'v20.20.2')
    const dsh = script(bin, 'dsh', '#!/usr/bin/env node\nimport("./lib/bin.js")\n')
    const { code, out } = await doctorWith({ DSH_HOME: home().home, PATH: `${bin}:${SYSTEM}` }, '--profile', 'headless')
    expect(out).toContain(`problem  the dsh on PATH (${dsh}) runs on Node v20.20.2 (${node}), and DSH 0.1.0-rc.8 needs Node 22.19 or later: `
      + 'on an older Node every boot fails (`Promise.withResolvers is not a function`). Install Node 22.19 or later '
      + '(https://nodejs.org, or `nvm install 22`) and put it first on PATH')
    expect(out).not.toContain('No problems')
    expect(code).toBe(1)
  })

  it('finds the Node a pnpm shim runs, one beside it first', async () => {
    const bin = mkdtempSync(join(ROOT, 'bin-'))
    fakeNode(join(bin, 'path'), 'v22.19.0')
    const beside = fakeNode(join(bin, 'install'), 'v18.20.4')
    const shim = script(join(bin, 'install'), 'dsh', '#!/bin/sh\nbasedir=$(dirname "$0")\nif [ -x "$basedir/node" ]; then\n  exec "$basedir/node"  "$basedir/../@deepseek-ai/dsh/lib/bin.js" "$@"\nelse\n  exec node  "$basedir/../@deepseek-ai/dsh/lib/bin.js" "$@"\nfi\n')
    const { out } = await doctorWith({ DSH_HOME: home().home, PATH: `${join(bin, 'install')}:${join(bin, 'path')}:${SYSTEM}` }, '--profile', 'headless')
    expect(out).toContain(`problem  the dsh on PATH (${shim}) runs on Node v18.20.4 (${beside})`)
  })

  it('says it is recent enough, when it is', async () => {
    const bin = mkdtempSync(join(ROOT, 'bin-'))
    const node = fakeNode(bin, 'v22.19.0')
    const { code, out } = await doctorWith({ DSH_HOME: home().home, PATH: `${bin}:${SYSTEM}` }, '--profile', 'headless')
    expect(out).toContain(`ok       dsh runs on the Node first on PATH, Node v22.19.0 (${node}): DSH 0.1.0-rc.8 needs 22.19 or later`)
    expect(code).toBe(0)
  })

  it('notes a PATH with no Node on it, without calling it a problem of the profile', async () => {
    const { code, out } = await doctorWith({ DSH_HOME: home().home, PATH: mkdtempSync(join(ROOT, 'empty-')) }, '--profile', 'headless')
    expect(out).toContain('note     no `node` on PATH, so the Node dsh runs on is not checked: DSH 0.1.0-rc.8 needs Node 22.19 or later')
    expect(code).toBe(0)
  })
})
