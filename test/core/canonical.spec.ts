import { describe, expect, it } from 'vitest'
import { identifyCall } from '../../src/core/canonical.ts'

describe('call identity', () => {
  it('ignores key order, deeply', () => {
    expect(identifyCall('read', { a: 1, b: { y: [1, { q: 1, p: 2 }], x: null } }))
      .toEqual(identifyCall('read', { b: { x: null, y: [1, { p: 2, q: 1 }] }, a: 1 }))
  })

  it('gives the canonical arguments as key-sorted JSON', () => {
    expect(identifyCall('read', { b: 1, a: [2, 1] })!.args).toBe('{"a":[2,1],"b":1}')
  })

  it.each([
    ['array order', ['read', [1, 2]], ['read', [2, 1]]],
    ['tool name', ['read', {}], ['grep', {}]],
    ['number vs string', ['read', { n: 1 }], ['read', { n: '1' }]],
    ['raw string vs object', ['read', '{"a":1'], ['read', { a: 1 }]],
    ['two raw strings', ['read', '{"a":1'], ['read', '{"a":2']],
    ['name/argument boundary', ['ab', 'c'], ['a', 'bc']],
    ['separator inside the name', ['a"b', {}], ['a', '"b']],
  ] as const)('tells calls apart by %s', (_, [toolA, argsA], [toolB, argsB]) => {
    expect(identifyCall(toolA, argsA)!.key).not.toBe(identifyCall(toolB, argsB)!.key)
  })

  it('treats an unparseable raw-string argument as its own value', () => {
    expect(identifyCall('bash', '{"command": "ls')!.args).toBe('"{\\"command\\": \\"ls"')
    expect(identifyCall('bash', '{"command": "ls')!.key).toBe(identifyCall('bash', '{"command": "ls')!.key)
  })
})

describe('arguments that cannot be serialized', () => {
  it('gives no identity for arguments nested too deeply to serialize, instead of failing', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(identifyCall('read', deep)).toBeUndefined()
  })
})
