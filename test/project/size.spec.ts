/**
 * A module a maintainer can read in one sitting: no file of src/ over 400 lines, no function of 100 lines or more.
 * A kind's detector, its wording and its config each have their own file, so a file that grows past this is two
 * concepts in one; the check keeps that from drifting back in unseen.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'

const MAX_FILE_LINES = 400
const MAX_FUNCTION_LINES = 99

/** The TypeScript files under src/, as paths from the package's root. */
function sources(folder = 'src'): string[] {
  return readdirSync(join(PACKAGE_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** Every function of a source (declarations, expressions, arrows, methods, constructors) with its length in lines. */
function functionLengths(path: string, text: string): { name: string; line: number; lines: number }[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const found: { name: string; line: number; lines: number }[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = file.getLineAndCharacterOfPosition(node.getStart()).line
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line
      const name = 'name' in node && node.name !== undefined ? (node.name as ts.Node).getText(file) : '(anonymous)'
      found.push({ name, line: first + 1, lines: last - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

describe('the size of a module', () => {
  const files = sources().map(path => ({ path, text: readFileSync(join(PACKAGE_ROOT, path), 'utf8') }))

  it('finds the sources and measures their functions', () => {
    expect(files.length).toBeGreaterThan(50)
    const long = `function long(): void {\n${'  call()\n'.repeat(120)}}\nconst short = (): number => 1\n`
    expect(functionLengths('x.ts', long)).toEqual([
      { name: 'long', line: 1, lines: 122 },
      { name: '(anonymous)', line: 123, lines: 1 },
    ])
  })

  it(`keeps every file of src/ within ${MAX_FILE_LINES} lines`, () => {
    const over = files.filter(({ text }) => lineCount(text) > MAX_FILE_LINES).map(({ path, text }) => `${path}: ${lineCount(text)}`)
    expect(over).toEqual([])
  })

  it(`keeps every function of src/ under ${MAX_FUNCTION_LINES + 1} lines`, () => {
    const over = files.flatMap(({ path, text }) => functionLengths(path, text)
      .filter(fn => fn.lines > MAX_FUNCTION_LINES)
      .map(fn => `${path}:${fn.line} ${fn.name}: ${fn.lines} lines`))
    expect(over).toEqual([])
  })
})
