/**
 * Where the tests live, so a maintainer finds a module's test where the module is: test/unit/ mirrors src/ one to one
 * (the test of src/a/b.ts is test/unit/a/b.spec.ts), the suites that drive the real DSH loop are in test/loop/, checks
 * of the project itself (package, READMEs, platforms, demo, this layout) in test/project/, and the real CLI's in
 * test/e2e/.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'

/** The specs under `folder`, as paths from it; installed packages (the e2e suite's dsh CLI) are not walked. */
function under(folder: string, prefix = ''): string[] {
  return readdirSync(join(PACKAGE_ROOT, folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : under(folder, path)
    return path.endsWith('.spec.ts') ? [path] : []
  })
}

describe('the tests\' layout', () => {
  it.each(under('test/unit'))('test/unit/%s tests the module of the same path under src/', (spec) => {
    expect(existsSync(join(PACKAGE_ROOT, 'src', spec.replace(/\.spec\.ts$/, '.ts'))), `src/${spec.replace(/\.spec\.ts$/, '.ts')}`).toBe(true)
  })

  it('keeps every spec in one of the folders of its kind', () => {
    const kinds = new Set(['unit', 'loop', 'project'])
    const misplaced = under('test').filter(spec => !kinds.has(spec.split('/')[0]!))
    expect(misplaced).toEqual([])
  })
})
