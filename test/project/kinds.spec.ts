/**
 * docs/design.md's "Adding a loop kind" kept true: every kind of the registry has its detector and its test, its
 * section in docs/notices.md, its row in each README's ladder and in design.md's table of kinds, and every call detector
 * of the list is a kind of the registry, in a file named by its id.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KINDS, LOOP_KINDS } from '../../src/core/kinds.ts'
import { CALL_DETECTORS } from '../../src/core/detectors/call-detectors.ts'
import { WORDINGS } from '../../src/messages/wording.ts'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'

const read = (file: string): string => readFileSync(join(PACKAGE_ROOT, file), 'utf8')
const design = read('docs/design.md')

/** design.md's table of kinds: its rows, each a kind's id and the file that finds it live. */
function kindsTable(): { kind: string; live: string }[] {
  const start = design.indexOf('| kind | what it is | found live by')
  const rows = design.slice(start).split('\n').slice(2)
  return rows.slice(0, rows.findIndex(line => !line.startsWith('|'))).map((line) => {
    const cells = line.split(' | ')
    return { kind: /`([\w-]+)`/.exec(cells[0]!)![1]!, live: /`([\w./-]+\.ts)`/.exec(cells[2]!)![1]! }
  })
}

describe('a loop kind has a home', () => {
  it('lists every kind in the registry once, and words every kind', () => {
    expect(new Set(LOOP_KINDS).size).toBe(LOOP_KINDS.length)
    expect(Object.keys(WORDINGS).sort()).toEqual([...LOOP_KINDS].sort())
    // Each strength ranks one kind: two at one call never tie.
    expect(new Set(LOOP_KINDS.map(kind => KINDS[kind].strength)).size).toBe(LOOP_KINDS.length)
  })

  it('gives every kind a row in design.md\'s table of kinds, in the registry\'s order', () => {
    expect(kindsTable().map(row => row.kind)).toEqual(LOOP_KINDS)
  })

  it.each(LOOP_KINDS)('finds %s live in the file the table names, with its test beside it', (kind) => {
    const { live } = kindsTable().find(row => row.kind === kind)!
    const source = ['src/core/detectors', 'src/core/stream'].map(folder => join(folder, live)).find(path => existsSync(join(PACKAGE_ROOT, path)))
    expect(source, `${kind}: ${live}`).toBeDefined()
    expect(existsSync(join(PACKAGE_ROOT, source!.replace(/^src\//, 'test/unit/').replace(/\.ts$/, '.spec.ts'))), `${kind}: the test of ${source}`).toBe(true)
  })

  it.each(LOOP_KINDS)('quotes %s in docs/notices.md under a heading that names its id', (kind) => {
    expect(read('docs/notices.md')).toMatch(new RegExp(`^## .*\\(\`${kind}\`\\)$`, 'm'))
  })

  it.each(LOOP_KINDS)('gives %s a row of the ladder in both READMEs', (kind) => {
    for (const file of ['README.md', 'README.zh.md']) {
      expect(read(file).split('\n').some(line => line.startsWith('|') && line.includes(`\`${kind}\``)), file).toBe(true)
    }
  })

  it.each(CALL_DETECTORS.map(entry => entry.kind))('finds the call detector of %s in the file named by its id', (kind) => {
    expect(LOOP_KINDS).toContain(kind)
    expect(existsSync(join(PACKAGE_ROOT, 'src/core/detectors', `${kind}.ts`))).toBe(true)
  })

  it('exports every finding type from the package\'s face, for a listener of the events', () => {
    const findings = [...read('src/core/kinds.ts').matchAll(/^export interface (\w+Finding)\b/gm)].map(match => match[1]!)
    expect(findings.length).toBeGreaterThanOrEqual(LOOP_KINDS.length)
    const face = read('src/index.ts')
    const exported = new Set([...face.matchAll(/export type \{([^}]*)\} from '\.\/core\/kinds\.js'/g)].flatMap(match => match[1]!.split(',').map(name => name.trim())))
    expect(findings.filter(name => !exported.has(name))).toEqual([])
  })
})

describe('docs/analyze.md speaks of every kind the command reports', () => {
  const page = read('docs/analyze.md')

  it('shows every kind in its JSON example\'s count of loops, in the registry\'s order, as the command writes it', () => {
    const counts = /"loops": (\{[^}]*\})/.exec(page)
    expect(counts, 'the overview\'s "loops" in the JSON example').not.toBeNull()
    expect(Object.keys(JSON.parse(counts![1]!) as Record<string, number>)).toEqual(LOOP_KINDS)
  })

  it('names every kind in its account of loops and their kinds', () => {
    const start = page.indexOf('**Loops and their kinds**')
    const section = page.slice(start, page.indexOf('\n- **', start + 1))
    for (const kind of LOOP_KINDS) expect(section, kind).toContain(`\`${kind}\``)
  })
})
