/**
 * The READMEs say what the code does: the first notice of each kind is quoted verbatim (docs/notices.md quotes every
 * model-facing template), the config table matches the defaults, every link leads somewhere, and the Chinese file
 * mirrors the English one (DSH's bilingual convention: same structure, byte-identical code fences, a
 * readme-translation.yaml recording the git blob hash of each side as last confirmed equivalent).
 */
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import yaml from 'js-yaml'
import { configProblems } from '../../src/config/check.ts'
import { KEY_ENTRIES, type Rule } from '../../src/config/keys.ts'
import type { NearDuplicateFinding, RereadingFinding } from '../../src/core/kinds.ts'
import * as messages from '../../src/messages/notices.ts'
import * as TEMPLATES from '../../src/messages/templates.ts'
import { RECIPE_FILES, recipeFile, recipeManifest } from '../../scripts/dsh-recipe.ts'
import { CORDIS_PINS, DSH_RELEASE } from '../../src/dsh-files/dsh-release.ts'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'

const read = (file: string): string => readFileSync(join(PACKAGE_ROOT, file), 'utf8')
const english = read('README.md')
const chinese = read('README.zh.md')
const notices = read('docs/notices.md')

const fences = (text: string): string[] => [...text.matchAll(/^```[^\n]*\n[\s\S]*?^```$/gm)].map(m => m[0])
const headingLevels = (text: string): number[] =>
  text.replace(/^```[\s\S]*?^```$/gm, '').split('\n').filter(line => /^#{1,6} /.test(line)).map(line => line.indexOf(' '))
/** Every model-facing string of the templates module, tables of them included (`IDENTICAL_CALLS_ADVICE.poll`, …). */
const templates = (Object.entries(TEMPLATES) as [string, unknown][]).flatMap(([name, value]): [string, string][] => {
  if (typeof value === 'string') return [[name, value]]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]): [string, string][] => typeof inner === 'string'
    ? [[`${name}.${key}`, inner]]
    : Object.entries(inner as Record<string, string>).map(([leaf, text]) => [`${name}.${key}.${leaf}`, text]))
})

/**
 * Whether `text` quotes `template` verbatim: a multi-line text stands whole in a code fence; a one-line template (a
 * summary, a line of a list) may stand as inline code.
 */
const quotes = (text: string, template: string): boolean =>
  fences(text).some(fence => fence.includes(`\n${template}\n`)) || text.includes(`\`${template}\``)

/** Notices that are another wording of their kind's first notice: docs/notices.md quotes them with it. */
const VARIANTS = new Set(['SAME_INPUT_ERROR_NOTICE', 'EDIT_REVERT_BACK_NOTICE', 'SAME_FAILURE_COMMANDS_NOTICE', 'SAME_OUTPUT_NOTICE'])
/** The first notice of each kind, which the README quotes: every whole notice but the variants, and the refusal. */
const firstNotices = templates.filter(([name]) => (name.endsWith('_NOTICE') && !VARIANTS.has(name)) || name === 'DENIAL_REASON')
/** The notices about calls that brought no news that docs/notices.md shows: one per advice, and a rereading. */
const NO_NEWS_EXAMPLES: readonly (NearDuplicateFinding | RereadingFinding)[] = [
  {
    kind: 'near-duplicate', count: 6, variants: 5, mostly: 'nothing',
    calls: [
      { tool: 'grep', args: '{"path":"tests/test_qs.py","pattern":"test_exists_exclude"}', returned: 'repeat' },
      { tool: 'bash', args: '{"command":"grep -n \\"test_\\" tests/test_qs.py | grep -i outerref"}', returned: 'nothing' },
      { tool: 'bash', args: '{"command":"grep -n \\"test_\\" tests/test_qs.py | grep -i exists"}', returned: 'nothing' },
      { tool: 'grep', args: '{"path":"tests/test_qs.py","pattern":"def test_exists"}', returned: 'nothing' },
    ],
  },
  {
    kind: 'near-duplicate', count: 5, variants: 5, mostly: 'same-output',
    calls: ['foo bar', 'foo,,bar', 'foo, bar', 'foo,bar'].map(names => ({
      tool: 'bash', args: `{"command":"pylint --bad-names-rgxs=\\"${names}\\" foo.py"}`, returned: 'same-output' as const,
    })),
  },
  {
    kind: 'near-duplicate', count: 5, variants: 4, mostly: 'seen',
    calls: [
      { tool: 'read', args: '{"file_path":"src/matrices/sparse.py","limit":6,"offset":1155}', returned: 'seen' },
      { tool: 'grep', args: '{"path":"src/matrices/sparse.py","pattern":"def row_join"}', returned: 'repeat' },
      { tool: 'bash', args: '{"command":"grep \\"def _eval_row_join\\" src/matrices/sparse.py"}', returned: 'nothing' },
      { tool: 'bash', args: '{"command":"sed -n \'1159p\' src/matrices/sparse.py"}', returned: 'seen' },
    ],
  },
  { kind: 'rereading', file: 'pylint/lint/pylinter.py', count: 4, ranges: [{ first: 390, last: 430 }, { first: 450, last: 470 }, { first: 690, last: 710 }] },
]

/** A default as the README writes it: `[]`, `{}`, `remind`, `4`. */
const shown = (value: unknown): string => typeof value === 'string' ? value : JSON.stringify(value)

/** The words each README gives a rule in its key table. */
interface Words {
  readonly comma: string
  readonly or: string
  /** An integer from `min` to `max` (the table says once that numbers are integers). */
  readonly range: (min: number, max: number) => string
  readonly boolean: string
  /** A list of patterns, by what one item is. */
  readonly patterns: Readonly<Record<string, string>>
  readonly pattern: string
}

const WORDS: Readonly<Record<'en' | 'zh', Words>> = {
  en: {
    comma: ', ', or: ' or ', range: (min, max) => `${min} to ${max}`, boolean: 'boolean',
    patterns: { 'tool-name pattern': 'tool-name patterns', 'command pattern': 'command patterns' },
    pattern: 'pattern',
  },
  zh: {
    comma: '、', or: ' 或 ', range: (min, max) => `${min} 到 ${max}`, boolean: '布尔值',
    patterns: { 'tool-name pattern': '工具名模式', 'command pattern': '命令模式' },
    pattern: '模式',
  },
}

const code = (text: string | undefined): string => `\`${text}\``

/** What a key accepts, in a README's words, made from its rule. */
function accepts(rule: Rule, words: Words): string {
  switch (rule.kind) {
    case 'choice': return `${rule.values.slice(0, -1).map(code).join(words.comma)}${words.or}${code(rule.values.at(-1))}`
    case 'integer':
      if (rule.above !== undefined) return `> ${code(rule.above)}`
      return rule.max === undefined ? `≥ ${rule.min}` : words.range(rule.min, rule.max)
    case 'boolean': return words.boolean
    case 'patterns': return words.patterns[rule.item] ?? rule.item
    case 'policies': return `${words.pattern} → \`{ class, identity, byArgument, shellCommand }\``
  }
}

/** The README's key table as the table of keys makes it: one row a key, in the table's order, with what it does. */
const keyRows = (language: 'en' | 'zh'): string[] =>
  KEY_ENTRIES.map(([key, entry]) => `| ${code(key)} | ${code(shown(entry.default))} | ${accepts(entry.rule, WORDS[language])} | ${entry[language]} |`)

/** The rows of the README's key table: from the first key's row to the table's end. */
function readmeKeyRows(text: string): string[] {
  const lines = text.split('\n')
  const first = lines.findIndex(line => line.startsWith(`| ${code(KEY_ENTRIES[0]?.[0])} |`))
  const end = lines.findIndex((line, index) => index > first && !line.startsWith('|'))
  return lines.slice(first, end === -1 ? undefined : end)
}

/** `git hash-object` of a file's bytes. */
function blob(file: string): string {
  const bytes = readFileSync(join(PACKAGE_ROOT, file))
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

describe('README.md', () => {
  it('opens with the two commands a newcomer runs, the demo and the tests, after the Node they need', () => {
    const opening = english.split('\n').slice(0, 11).join('\n')
    expect(opening).toMatch(/^npm install && npm run demo/m)
    expect(opening).toMatch(/^npm test/m)
  })

  it.each([['README.md', english], ['README.zh.md', chinese]])('%s says before its first command that DSH needs Node 22.19 or later, and how to get it', (_, text) => {
    const head = text.slice(0, text.indexOf('```'))
    expect(head).toContain('Node 22.19')
    expect(head).toContain('`node --version`')
    expect(head).toContain('`nvm install 22`')
    expect(head).toContain('https://nodejs.org')
  })

  it.each([['README.md', english, '## Configuration'], ['README.zh.md', chinese, '## 配置']])('%s says where a row goes: in place of the `[]` a fresh patch file ends in', (_, text, heading) => {
    const section = text.slice(text.indexOf(heading), text.indexOf('```yaml', text.indexOf(heading)))
    expect(section).toContain('`cordis.patch.yml`')
    expect(section).toContain('`[]`')
  })

  it.each(firstNotices)('quotes the first notice of its kind, %s, verbatim', (_, template) => {
    expect(quotes(english, template)).toBe(true)
  })

  it('takes for first notices each kind\'s notice and the refusal, and leaves the variants to docs/notices.md', () => {
    const names = firstNotices.map(([name]) => name)
    expect(names).toEqual(expect.arrayContaining(['IDENTICAL_CALLS_NOTICE', 'CYCLE_NOTICE', 'STOP_NOTICE', 'DENIAL_REASON']))
    expect(names).not.toContain('SAME_INPUT_ERROR_NOTICE')
    expect(names).not.toContain('IDENTICAL_CALLS_ADVICE.poll')
  })

  it('gives the doctor command that works where a user stands before the package is on the registry: the profile\'s own bin', () => {
    // `npx dsh-brake` works only inside a checkout until the package is published (npm answers E404 elsewhere).
    const doctor = fences(english).find(fence => fence.includes(' doctor '))
    expect(doctor).toMatch(/^\S*\/profiles\/headless\/node_modules\/\.bin\/dsh-brake doctor --profile headless(?: |$)/m)
    expect(doctor).not.toMatch(/^npx dsh-brake/m)
    const { version } = JSON.parse(read('package.json')) as { version: string }
    const page = read('docs/install.md')
    expect(page).toContain('"${DSH_HOME:-$HOME/.dsh}"/profiles/NAME/node_modules/.bin/dsh-brake doctor --profile NAME')
    expect(page).toContain(`npx --package ./dsh-brake-${version}.tgz dsh-brake doctor --profile NAME`)
  })

  it('gives a doctor command that finds the profile\'s bin in the DSH home, whether DSH_HOME is set or not', () => {
    const line = fences(english).find(fence => fence.includes(' doctor '))!.split('\n').find(text => text.includes(' doctor '))!.replace(/\s+#.*$/, '')
    const root = mkdtempSync(join(tmpdir(), 'dsh-brake-readme-'))
    try {
      /** A DSH home under `dir` whose headless profile has the command, which says how it was run. */
      const homeAt = (dir: string): void => {
        mkdirSync(join(dir, 'profiles/headless/node_modules/.bin'), { recursive: true })
        writeFileSync(join(dir, 'profiles/headless/node_modules/.bin/dsh-brake'), '#!/bin/sh\necho "ran $*"\n', { mode: 0o755 })
      }
      const run = (env: Record<string, string>): string => execFileSync('/bin/sh', ['-c', line], { env: { PATH: '/usr/bin:/bin', ...env }, encoding: 'utf8' })
      homeAt(join(root, 'elsewhere'))
      expect(run({ HOME: join(root, 'me'), DSH_HOME: join(root, 'elsewhere') })).toBe('ran doctor --profile headless\n')
      homeAt(join(root, 'me/.dsh'))
      expect(run({ HOME: join(root, 'me') })).toBe('ran doctor --profile headless\n')
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('says where it shows `npx dsh-brake analyze` that npx finds the command in a checkout only, and what runs it elsewhere', () => {
    const section = english.slice(english.indexOf('## Analyze your sessions'), english.indexOf('## Events and telemetry'))
    expect(section).toContain('npx dsh-brake analyze')
    expect(section).toMatch(/checkout/)
    expect(section).toContain('node_modules/.bin/dsh-brake')
  })

  it('points to docs/notices.md, which quotes every variant and the notices exactly as the plugin renders them', () => {
    expect(english).toContain('[docs/notices.md](docs/notices.md)')
    const page = notices
    const examples = [
      messages.loopNotice({
        finding: { kind: 'identical-calls', tool: 'read', toolClass: 'read', args: '{"file_path":"src/app.ts"}', count: 4, evidence: 'same-result' },
        also: [], again: false, exactBefore: false,
      }, 10).text,
      messages.findingNotice({ kind: 'cycle', tools: ['grep', 'curl', 'read', 'bash'], laps: 3, sameResults: true }).text,
      messages.findingNotice({
        kind: 'same-error', tool: 'read', count: 3, variants: 3, error: 'Error: cannot read "src/missing-2.ts": not found', cause: 'environment',
      }).text,
      messages.duplicateTextNotice({
        kind: 'duplicate-text', threshold: 3, windowMs: 120_000,
        blocks: [{ count: 3, sources: ['plugin hooks-claude-code'], head: 'Stop hook: the task is not finished until the linter and the full test suite pass. Keep working.', length: 96 }],
      }).text,
      messages.findingNotice({ kind: 'runaway', part: 'reasoning', unit: 'I\'ll kill the stale process now. ', copies: 22, cuts: 1 }).text,
      messages.findingNotice({
        kind: 'same-response', count: 3, whole: true, head: 'I cannot reach the registry from here, so the install cannot finish. Please check the network settings.',
      }).text,
      messages.findingNotice({
        kind: 'edit-revert', evidence: 'redo', tool: 'bash', args: '{"command":"python reproduce.py"}', file: 'app/models.py', count: 2,
        failure: 'SyntaxError: invalid syntax. Perhaps you forgot a comma?',
      }).text,
      messages.findingNotice({
        kind: 'edit-revert', evidence: 'back', tool: 'bash', args: '{"command":"cd reproduction && python3 reproduce.py"}', file: '', count: 3,
        failure: 'IndentationError: unexpected indent',
      }).text,
      messages.findingNotice({
        kind: 'same-failure', tool: 'bash', args: '{"command":"cd /repo && python reproduce.py"}', count: 3, failure: "NameError: name 'connection' is not defined",
        origin: '/repo/django/db/backends/sqlite3/base.py', edited: ['reproduce.py'], script: '', evidence: 'failure', commands: 1,
      }).text,
      ...NO_NEWS_EXAMPLES.map(finding => messages.findingNotice(finding).text),
    ]
    for (const example of examples) expect(page).toContain(`\`\`\`text\n${example}\n\`\`\``)
  })

  it('shows, in docs/notices.md, a notice that carries more than one finding, as the plugin renders it', () => {
    const told = {
      finding: {
        kind: 'same-ground', count: 10, calls: [
          { tool: 'read', args: '{"file_path":"src/server.ts"}', count: 4 }, { tool: 'bash', args: '{"command":"npm test"}', count: 3 },
          { tool: 'bash', args: '{"command":"npm start"}', count: 3 },
        ],
      },
      also: [{ kind: 'same-error', tool: 'bash', count: 6, variants: 2, error: 'Error: connect ECONNREFUSED 127.0.0.1:5432', cause: 'environment' }],
      again: false,
      exactBefore: false,
    } as const
    expect(notices).toContain(`\`\`\`text\n${messages.loopNotice(told, 10).text}\n\`\`\``)
  })

  it('gives the keys most set in its key table, each row as the table of keys says, and links to every key', () => {
    const rows = readmeKeyRows(english)
    expect(rows.length).toBeGreaterThanOrEqual(5)
    expect(keyRows('en').filter(row => rows.includes(row))).toEqual(rows)
    expect(english).toContain('[docs/configuration.md](docs/configuration.md)')
  })

  it('gives every config key, its default, what it accepts and what it does in docs/configuration.md, as the table of keys says', () => {
    expect(readmeKeyRows(read('docs/configuration.md'))).toEqual(keyRows('en'))
  })

  it('shows a config row the plugin accepts', () => {
    const row = fences(english).find(fence => fence.startsWith('```yaml\n- id: dsh-brake\n'))
    const [entry] = yaml.load(row!.replace(/^```yaml\n|```$/g, '')) as [{ config: unknown }]
    expect(configProblems(entry.config)).toEqual([])
  })

  it('would notice its key table drifting from the table of keys', () => {
    const page = read('docs/configuration.md')
    expect(readmeKeyRows(page.replace('| `callWarnCount` | `4` | ≥ 2 |', '| `callWarnCount` | `4` | ≥ 3 |'))).not.toEqual(keyRows('en'))
    expect(readmeKeyRows(page.replace(/^\| `exclude` .*\n/m, ''))).not.toEqual(keyRows('en'))
    const drifted = readmeKeyRows(english.replace('| `callWarnCount` | `4` | ≥ 2 |', '| `callWarnCount` | `4` | ≥ 3 |'))
    expect(keyRows('en').filter(row => drifted.includes(row))).not.toEqual(drifted)
  })
})

describe('docs/notices.md', () => {
  it.each(templates)('quotes the model-facing template %s verbatim', (_, template) => {
    expect(quotes(notices, template)).toBe(true)
  })
})

describe('the READMEs\' size', () => {
  // The README is the contract a user reads through in minutes; deeper material belongs in docs/.
  it.each(['README.md', 'README.zh.md'])('%s is at most 12 KB', (file) => {
    expect(readFileSync(join(PACKAGE_ROOT, file)).length).toBeLessThanOrEqual(12 * 1024)
  })
})

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens. */
const anchor = (heading: string): string => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
/** The anchors of a Markdown file's headings (code fences skipped). */
const anchorsOf = (text: string): Set<string> =>
  new Set(text.replace(/^```[\s\S]*?^```$/gm, '').split('\n').filter(line => /^#{1,6} /.test(line)).map(line => anchor(line.replace(/^#+ /, ''))))
/** The relative links of a Markdown file, outside code: `[text](target)`. */
const linksOf = (text: string): string[] =>
  [...text.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/\]\(([^)\s]+)\)/g)].map(m => m[1]!).filter(target => !/^[a-z]+:/.test(target))
const markdown = ['README.md', 'README.zh.md', 'CHANGELOG.md', ...readdirSync(join(PACKAGE_ROOT, 'docs')).filter(file => file.endsWith('.md')).map(file => `docs/${file}`)]

describe('links', () => {
  it.each(markdown)('every relative link of %s leads to a file, and to a heading of it where it names one', (file) => {
    for (const target of linksOf(read(file))) {
      const [path, fragment] = target.split('#') as [string, string | undefined]
      const linked = path === '' ? file : join(dirname(file), path)
      expect(existsSync(join(PACKAGE_ROOT, linked)), `${file} → ${target}`).toBe(true)
      if (fragment !== undefined) expect(anchorsOf(read(linked)), `${file} → ${target}`).toContain(fragment)
    }
  })

  it('would notice a link to a heading that is not there', () => {
    expect(anchorsOf(read('docs/install.md'))).toContain('the-plugin-in-a-profile')
    expect(anchorsOf(read('docs/install.md'))).not.toContain('the-plugin-in-a-folder')
    expect(anchor('`dsh-brake analyze`: the brake on your own sessions')).toBe('dsh-brake-analyze-the-brake-on-your-own-sessions')
  })
})

describe('README.zh.md mirrors README.md', () => {
  it('links back to the English file', () => {
    expect(chinese.split('\n').slice(0, 3)).toEqual(['# dsh-brake', '', '[English](README.md) | 中文'])
  })

  it('has byte-identical code fences, in the same order', () => {
    expect(fences(chinese)).toEqual(fences(english))
  })

  it('has the same heading structure', () => {
    expect(headingLevels(chinese)).toEqual(headingLevels(english))
  })

  it('gives the same key table, in its own words, and every key in docs/configuration.zh.md', () => {
    const rows = readmeKeyRows(chinese)
    expect(rows.map(row => row.split(' | ')[0])).toEqual(readmeKeyRows(english).map(row => row.split(' | ')[0]))
    expect(keyRows('zh').filter(row => rows.includes(row))).toEqual(rows)
    expect(readmeKeyRows(read('docs/configuration.zh.md'))).toEqual(keyRows('zh'))
  })

  it('has the same table rows', () => {
    const rows = (text: string): number => text.split('\n').filter(line => line.startsWith('|')).length
    expect(rows(chinese)).toBe(rows(english))
  })

  it('was confirmed equivalent for exactly these two versions (update with `npm run readme:record`)', () => {
    const record = read('readme-translation.yaml')
    expect(record).toContain(`README.md: ${blob('README.md')}`)
    expect(record).toContain(`README.zh.md: ${blob('README.zh.md')}`)
  })
})

describe('the "Get dsh" recipe of docs/install.md', () => {
  const page = read('docs/install.md')
  const project = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> }

  it.each(RECIPE_FILES)('its %s is, byte for byte, the one the end-to-end tests install the dsh CLI from', (file, language) => {
    expect(recipeFile(page, language)).toBe(read(`test/e2e/cli/${file}`))
  })

  it('would notice them drifting apart', () => {
    const fixture = read('test/e2e/cli/pnpm-workspace.yaml')
    expect(recipeFile(page.replace("'@deepseek-ai/cordis': 4.0.1", "'@deepseek-ai/cordis': 4.0.4"), 'yaml')).not.toBe(fixture)
    expect(recipeManifest(page.replace('\n## Get dsh\n', '\n## Getting it\n'))).toBeUndefined()
  })

  it('pins the release the project builds against, and the framework packages it was published with, as the doctor checks them', () => {
    const manifest = JSON.parse(recipeManifest(page)!) as { dependencies: Record<string, string>; pnpm?: unknown }
    const workspace = yaml.load(recipeFile(page, 'yaml')!) as { overrides: Record<string, string>; allowBuilds: Record<string, boolean> }
    expect(manifest.dependencies['@deepseek-ai/dsh']).toBe(DSH_RELEASE)
    expect(DSH_RELEASE).toBe(project.devDependencies['@deepseek-ai/dsh-agent'])
    // pnpm 11 no longer reads the `pnpm` field: the settings live in pnpm-workspace.yaml, which both majors read.
    expect(manifest.pnpm).toBeUndefined()
    expect(workspace.overrides).toEqual(CORDIS_PINS)
    for (const name of ['@deepseek-ai/cordis', '@deepseek-ai/cordis-plugin-include', '@deepseek-ai/cordis-plugin-loader', '@deepseek-ai/cosmokit', '@deepseek-ai/schemastery']) {
      expect(CORDIS_PINS[name], name).toBe(project.devDependencies[name])
    }
    expect(Object.values(workspace.allowBuilds).every(allowed => !allowed)).toBe(true)
  })

  it('installs with pnpm install, as the end-to-end setup does with each pnpm major it names, and names the version it gets', () => {
    const commands = fences(page).find(fence => fence.includes('\npnpm install '))
    expect(commands).toContain('dsh --version                              # 0.1.0-rc.8')
    // `npm install -g pnpm` gives pnpm 12 today: the page says the recipe works with it, and the setup installs with it.
    expect(commands).toContain('npm install -g pnpm                        # 12, 11 or 10 (10.26 or later)')
    const setup = read('scripts/e2e-setup.ts')
    expect(setup).toContain("'install', '--frozen-lockfile'")
    expect(setup).toContain('pnpm11')
    expect(setup).toContain("'pnpm@12'")
    expect(setup).toContain('install(12, ')
  })
})
