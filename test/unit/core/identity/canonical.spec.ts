import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import stringify from 'fast-json-stable-stringify'
import { argumentsKey, callKey, canonicalJson, toolSeed } from '../../../../src/core/identity/canonical.ts'
import { fingerprint } from '../../../../src/core/tables/fingerprint.ts'

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300)

describe('call identity', () => {
  it('ignores key order, deeply', () => {
    expect(callKey('read', { a: 1, b: { y: [1, { q: 1, p: 2 }], x: null } }))
      .toBe(callKey('read', { b: { x: null, y: [1, { p: 2, q: 1 }] }, a: 1 }))
  })

  it('sees what JSON sees: one zero, no undefined members, null for what an array cannot hold', () => {
    const key = (args: unknown) => callKey('t', args)!
    expect(key({ n: -0 })).toBe(key({ n: 0 }))
    expect(key({ a: 1, b: undefined })).toBe(key({ a: 1 }))
    expect(key([undefined, Number.NaN])).toBe(key([null, null]))
  })

  it('keeps what came before a large argument in its identity', () => {
    const big = 'content '.repeat(300_000)
    const key = (args: unknown) => callKey('write', args)!
    const first = key({ a: 'x', b: big })
    expect(key({ a: 'y', b: big })).not.toBe(first)
    // Whatever the scratch memory held before (here: another large text), the identity is the same.
    fingerprint('z'.repeat(3_000_000))
    expect(key({ b: big, a: 'x' })).toBe(first)
  })

  it('gives one identity whether an argument name is seen for the first time or remembered', () => {
    const key = (args: unknown) => callKey('t', args)!
    const names = [...Array.from({ length: 1_100 }, (_, i) => `field_${i}`), 'x'.repeat(65)]
    const first = names.map(name => key({ [name]: 1, zeta: name }))
    expect(names.map(name => key({ zeta: name, [name]: 1 }))).toEqual(first)
    expect(new Set(first).size).toBe(names.length)
  })

  it('quotes arguments as key-sorted JSON', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: null, c: 'x' }] })).toBe('{"a":[2,{"c":"x","d":null}],"b":1}')
  })

  it.each([
    ['array order', ['read', [1, 2]], ['read', [2, 1]]],
    ['tool name', ['read', {}], ['grep', {}]],
    ['number vs string', ['read', { n: 1 }], ['read', { n: '1' }]],
    ['raw string vs object', ['read', '{"a":1'], ['read', { a: 1 }]],
    ['two raw strings', ['read', '{"a":1'], ['read', '{"a":2']],
    ['name/argument boundary', ['ab', 'c'], ['a', 'bc']],
    ['separator inside the name', ['a"b', {}], ['a', '"b']],
    ['string vs number', ['read', '1'], ['read', 1]],
    ['empty string vs null', ['read', ''], ['read', null]],
    ['nested boundary', ['read', ['ab', 'c']], ['read', ['a', 'bc']]],
    ['key vs value', ['read', { a: 'b' }], ['read', { b: 'a' }]],
    ['one-byte vs two-byte text', ['read', 'AB'], ['read', '\u4241']],
  ] as const)('tells calls apart by %s', (_, [toolA, argsA], [toolB, argsB]) => {
    expect(callKey(toolA, argsA)!).not.toBe(callKey(toolB, argsB)!)
  })

  it('treats an unparseable raw-string argument as its own value', () => {
    expect(canonicalJson('{"command": "ls')).toBe('"{\\"command\\": \\"ls"')
    expect(callKey('bash', '{"command": "ls')).toBe(callKey('bash', '{"command": "ls'))
  })

  /** The same JSON value with every object's keys in another order. */
  function shuffled(value: unknown, turn: number): unknown {
    if (Array.isArray(value)) return value.map(item => shuffled(item, turn))
    if (typeof value !== 'object' || value === null) return value
    const entries = Object.entries(value)
    const cut = entries.length === 0 ? 0 : turn % entries.length
    return Object.fromEntries([...entries.slice(cut), ...entries.slice(0, cut)].reverse().map(([k, v]) => [k, shuffled(v, turn + 1)]))
  }

  it('gives two calls one key exactly when their tool names and fast-json-stable-stringify texts are equal', () => {
    const json = fc.jsonValue({ maxDepth: 3 })
    const tool = fc.constantFrom('read', 'bash', 'b', 'a"b')
    fc.assert(fc.property(tool, json, tool, json, fc.nat(), (toolA, a, toolB, b, turn) => {
      expect(callKey(toolA, shuffled(a, turn))).toBe(callKey(toolA, a))
      expect(callKey(toolA, a) === callKey(toolB, b)).toBe(toolA === toolB && stringify(a) === stringify(b))
    }), { numRuns: RUNS * 10 })
  }, 60_000)

  it('gives the key a tool\'s seed and the arguments make, for a caller that took the seed once', () => {
    fc.assert(fc.property(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), (tool, args) => {
      expect(argumentsKey(toolSeed(tool), args)).toBe(callKey(tool, args))
    }), { numRuns: RUNS })
    expect(argumentsKey(toolSeed('read'), { a: 1 })).not.toBe(argumentsKey(toolSeed('bash'), { a: 1 }))
  })

  it('quotes exactly what fast-json-stable-stringify writes', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
      expect(canonicalJson(value)).toBe(stringify(value))
    }), { numRuns: RUNS })
  })
})

describe('arguments that cannot be serialized', () => {
  it('gives no key and no text for arguments nested too deeply to walk, instead of failing', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(callKey('read', deep)).toBeUndefined()
    expect(canonicalJson(deep)).toBeUndefined()
  })
})
