import { describe, expect, it } from 'vitest'
import { classOf } from '../../src/core/policies.ts'
import { STOCK_TOOL_POLICIES } from '../../src/dsh/stock-tools.ts'

describe('shell commands that change files', () => {
  const bash = STOCK_TOOL_POLICIES['bash']!
  it.each([
    ['git commit -m "fix"', 'mutating'],
    ['  sed -i s/a/b/ file.ts', 'mutating'],
    ['npm install left-pad', 'mutating'],
    ['npm test', 'default'],
    ['git status', 'default'],
    ['cat file.ts', 'default'],
  ])('%s is %s', (command, expected) => {
    expect(classOf(bash, { command, description: 'x' })).toBe(expected)
  })
})
