/**
 * The READMEs say what the code does: every model-facing template is quoted verbatim, the config table matches the
 * defaults, and the Chinese file mirrors the English one (DSH's bilingual convention: same structure, byte-identical
 * code fences, a readme-translation.yaml recording the git blob hash of each side as last confirmed equivalent).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import yaml from 'js-yaml'
import { configProblems } from '../../src/config/check.ts'
import { KEY_ENTRIES, type Rule } from '../../src/config/keys.ts'
import type { NearDuplicateFinding, RereadingFinding } from '../../src/core/types.ts'
import * as messages from '../../src/messages.ts'
import { RECIPE_FILES, recipeFile, recipeManifest } from '../../scripts/dsh-recipe.ts'
import { CORDIS_PINS, DSH_RELEASE } from '../../src/dsh-files/dsh-release.ts'
import { PACKAGE_ROOT } from '../../scripts/dsh-loop.ts'

const read = (file: string): string => readFileSync(join(PACKAGE_ROOT, file), 'utf8')
const english = read('README.md')
const chinese = read('README.zh.md')

const fences = (text: string): string[] => [...text.matchAll(/^```[^\n]*\n[\s\S]*?^```$/gm)].map(m => m[0])
const headingLevels = (text: string): number[] =>
  text.replace(/^```[\s\S]*?^```$/gm, '').split('\n').filter(line => /^#{1,6} /.test(line)).map(line => line.indexOf(' '))
/** Every model-facing string messages.ts exports, tables of them included (`CALL_ADVICE.poll`, …). */
const templates = (Object.entries(messages) as [string, unknown][]).flatMap(([name, value]): [string, string][] => {
  if (typeof value === 'string') return [[name, value]]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, inner]): [string, string][] => typeof inner === 'string'
    ? [[`${name}.${key}`, inner]]
    : Object.entries(inner as Record<string, string>).map(([leaf, text]) => [`${name}.${key}.${leaf}`, text]))
})

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
  readonly integer: string
  readonly range: (min: number, max: number) => string
  readonly boolean: string
  /** A list of patterns, by what one item is. */
  readonly patterns: Readonly<Record<string, string>>
  readonly pattern: string
}

const WORDS: Readonly<Record<'en' | 'zh', Words>> = {
  en: {
    comma: ', ', or: ' or ', integer: 'integer', range: (min, max) => `integer, ${min} to ${max}`, boolean: 'boolean',
    patterns: { 'tool-name pattern': 'tool-name patterns, none empty', 'command pattern': 'command patterns, none empty' },
    pattern: 'pattern',
  },
  zh: {
    comma: '、', or: ' 或 ', integer: '整数', range: (min, max) => `整数，${min} 到 ${max}`, boolean: '布尔值',
    patterns: { 'tool-name pattern': '工具名模式，非空', 'command pattern': '命令模式，非空' },
    pattern: '模式',
  },
}

const code = (text: string | undefined): string => `\`${text}\``

/** What a key accepts, in a README's words, made from its rule. */
function accepts(rule: Rule, words: Words): string {
  switch (rule.kind) {
    case 'choice': return `${rule.values.slice(0, -1).map(code).join(words.comma)}${words.or}${code(rule.values.at(-1))}`
    case 'integer':
      if (rule.above !== undefined) return `${words.integer} > ${code(rule.above)}`
      return rule.max === undefined ? `${words.integer} ≥ ${rule.min}` : words.range(rule.min, rule.max)
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
  it('opens with the two commands a newcomer runs: the demo and the tests', () => {
    const opening = english.split('\n').slice(0, 8).join('\n')
    expect(opening).toMatch(/^npm install && npm run demo/m)
    expect(opening).toMatch(/^npm test/m)
  })

  it.each(templates)('quotes the model-facing template %s verbatim', (_, template) => {
    // Multi-line texts stand whole in a code fence; one-line templates (summaries) may stand as inline code.
    const quoted = fences(english).some(fence => fence.includes(`\n${template}\n`)) || english.includes(`\`${template}\``)
    expect(quoted).toBe(true)
  })

  it('points to the rendered examples, which docs/notices.md quotes exactly as the plugin renders them', () => {
    expect(english).toContain('[docs/notices.md](docs/notices.md)')
    const page = read('docs/notices.md')
    const examples = [
      messages.repeatedCallNotice({ kind: 'identical-calls', tool: 'read', toolClass: 'read', args: '{"file_path":"src/app.ts"}', count: 4, evidence: 'same-result' }, 10).text,
      messages.sequenceNotice({ kind: 'cycle', tools: ['grep', 'curl', 'read', 'bash'], laps: 3, sameResults: true }).text,
      messages.repeatedErrorNotice({
        kind: 'same-error', tool: 'read', count: 3, variants: 3, error: 'Error: cannot read "src/missing-2.ts": not found', cause: 'environment',
      }).text,
      messages.duplicateTextNotice({
        kind: 'duplicate-text', threshold: 3, windowMs: 120_000,
        blocks: [{ count: 3, sources: ['plugin hooks-claude-code'], head: 'Stop hook: the task is not finished until the linter and the full test suite pass. Keep working.', length: 96 }],
      }).text,
      messages.cutNotice({ kind: 'runaway', part: 'reasoning', unit: 'I\'ll kill the stale process now. ', copies: 243, cuts: 1 }).text,
      messages.repeatedResponseNotice({
        kind: 'same-response', count: 3, whole: true, head: 'I cannot reach the registry from here, so the install cannot finish. Please check the network settings.',
      }).text,
      ...NO_NEWS_EXAMPLES.map(finding => finding.kind === 'rereading' ? messages.rereadingNotice(finding).text : messages.nearDuplicateNotice(finding).text),
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
    expect(read('docs/notices.md')).toContain(`\`\`\`text\n${messages.loopNotice(told, 10).text}\n\`\`\``)
  })

  it('gives every config key, its default, what it accepts and what it does in the key table, as the table of keys says', () => {
    expect(readmeKeyRows(english)).toEqual(keyRows('en'))
  })

  it('shows a config row the plugin accepts', () => {
    const row = fences(english).find(fence => fence.startsWith('```yaml\n- id: dsh-brake\n'))
    const [entry] = yaml.load(row!.replace(/^```yaml\n|```$/g, '')) as [{ config: unknown }]
    expect(configProblems(entry.config)).toEqual([])
  })

  it('would notice its key table drifting from the table of keys', () => {
    expect(readmeKeyRows(english.replace('| `callWarnCount` | `4` | integer ≥ 2 |', '| `callWarnCount` | `4` | integer ≥ 3 |'))).not.toEqual(keyRows('en'))
    expect(readmeKeyRows(english.replace(/^\| `exclude` .*\n/m, ''))).not.toEqual(keyRows('en'))
  })
})

describe('the READMEs\' size', () => {
  // The README is the contract a user reads through; deeper material belongs in docs/. It quotes the first notice of
  // every kind of loop verbatim (about 1 KB a kind in each language), which the bound leaves room for.
  it.each(['README.md', 'README.zh.md'])('%s is at most 24 KB', (file) => {
    expect(readFileSync(join(PACKAGE_ROOT, file)).length).toBeLessThanOrEqual(24_000)
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

  it('gives the same key table, in its own words', () => {
    expect(readmeKeyRows(chinese)).toEqual(keyRows('zh'))
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

  it('installs with pnpm install, as the end-to-end setup does with both pnpm majors, and names the version it gets', () => {
    const commands = fences(page).find(fence => fence.includes('\npnpm install '))
    expect(commands).toContain('dsh --version                              # 0.1.0-rc.8')
    const setup = read('scripts/e2e-setup.ts')
    expect(setup).toContain("'install', '--frozen-lockfile'")
    expect(setup).toContain('pnpm11')
  })
})
