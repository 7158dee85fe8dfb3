import { describe, expect, it } from 'vitest'
import { callKey } from '../../../../src/core/identity/canonical.ts'
import { classOf, createPolicyResolver, identityOf } from '../../../../src/core/identity/policies.ts'
import { STOCK_TOOL_POLICIES as DEFAULT_POLICIES } from '../../../../src/dsh/stock-tools.ts'

describe('tool policies', () => {
  const resolve = createPolicyResolver({ 'my_*': { class: 'poller' }, 'bash': { class: 'read' } }, DEFAULT_POLICIES)

  it.each([
    ['my_status', 'poller'],
    ['bash', 'read'], // the user's entry wins over the default
    ['write', 'mutating'],
    ['job_output', 'poller'],
    ['todo_write', 'bookkeeping'],
    ['something_else', 'default'],
  ])('%s is %s', (tool, expected) => {
    expect(resolve(tool).class).toBe(expected)
  })

  it('picks a class by argument value', () => {
    const policy = DEFAULT_POLICIES['str_replace_editor']!
    expect(classOf(policy, { command: 'view', path: '/a' })).toBe('read')
    expect(classOf(policy, { command: 'str_replace', path: '/a' })).toBe('mutating')
    expect(classOf(policy, 'not an object')).toBe('mutating')
  })

  it('keeps only the identity fields, so descriptions and timeouts do not make two calls different', () => {
    const bash = DEFAULT_POLICIES['bash']!
    expect(identityOf(bash, { command: 'npm test', description: 'Run tests', timeoutMs: 5000 })).toEqual({ command: 'npm test' })
    expect(identityOf(DEFAULT_POLICIES['job_output']!, { job_id: 'bash-1', wait: true, timeout_ms: 30_000 })).toEqual({ job_id: 'bash-1' })
    expect(identityOf(bash, 'raw')).toBe('raw')
    expect(identityOf({ class: 'default', identity: [] }, { a: 1 })).toEqual({ a: 1 })
  })
})

describe('identity fields', () => {
  it('keeps a field named __proto__ as a plain field, as parsed JSON has it', () => {
    const policy = { class: 'default' as const, identity: ['__proto__', 'a'] }
    const one = identityOf(policy, JSON.parse('{"__proto__":"x","a":1,"b":2}')) as Record<string, unknown>
    expect(Object.keys(one)).toEqual(['__proto__', 'a'])
    expect(Object.getPrototypeOf(one)).toBe(Object.prototype)
    const other = identityOf(policy, JSON.parse('{"__proto__":"y","a":1}'))
    expect(callKey('t', one)).not.toBe(callKey('t', other))
    expect(callKey('t', one)).toBe(callKey('t', identityOf(policy, JSON.parse('{"a":1,"__proto__":"x"}'))))
  })
})
