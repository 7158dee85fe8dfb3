/**
 * Token arithmetic: estimates from text size, a step's usage shared among its calls, sums, scaling, and how a figure
 * is written, an estimate marked.
 */
import { describe, expect, it } from 'vitest'
import {
  CHARS_PER_TOKEN, charsAsTokens, estimateTokens, figure, figureOf, NO_TOKENS, outputTokens, proportion, reportedTokens, rounded, scale,
  sum, tokenCount, tokensOf,
} from '../../../src/analyze/tokens.ts'

describe('estimates from text size', () => {
  it('counts about four characters per token, a partial token as a whole one', () => {
    expect(CHARS_PER_TOKEN).toBe(4)
    expect([0, 1, 4, 5, 8, 9].map(charsAsTokens)).toEqual([0, 1, 1, 2, 2, 3])
  })

  it('estimates a call from the result it read in and the arguments the model wrote, and says it is an estimate', () => {
    expect(estimateTokens(401, 17)).toEqual({ input: 101, output: 5, total: 106, estimated: true })
    expect(estimateTokens(0, 0)).toEqual({ input: 0, output: 0, total: 0, estimated: true })
  })
})

describe('reported usage', () => {
  it('takes a step\'s usage as the provider reported it', () => {
    expect(reportedTokens({ inputTokens: 1000, outputTokens: 20 })).toEqual({ input: 1000, output: 20, total: 1020, estimated: false })
  })

  it('gives each of a step\'s calls an equal share, fractions kept until the figures are added up', () => {
    const share = reportedTokens({ inputTokens: 1000, outputTokens: 20 }, 3)
    expect(share).toEqual({ input: 1000 / 3, output: 20 / 3, total: 1020 / 3, estimated: false })
    expect(sum([share, share, share])).toEqual({ input: 1000, output: 20, total: 1020, estimated: false })
  })

  it('builds output-only figures and figures from parts, the total their sum', () => {
    expect(outputTokens(250, true)).toEqual({ input: 0, output: 250, total: 250, estimated: true })
    expect(tokensOf(3, 4, false)).toEqual({ input: 3, output: 4, total: 7, estimated: false })
  })
})

describe('sums and scaling', () => {
  it('adds parts up, an estimate anywhere making the sum one; nothing adds up to no tokens', () => {
    const parts = [tokensOf(10, 1, false), tokensOf(5, 2, true), tokensOf(1, 0, false)]
    expect(sum(parts)).toEqual({ input: 16, output: 3, total: 19, estimated: true })
    expect(sum([tokensOf(10, 1, false), tokensOf(5, 2, false)]).estimated).toBe(false)
    expect(sum([])).toEqual(NO_TOKENS)
    expect(NO_TOKENS).toEqual({ input: 0, output: 0, total: 0, estimated: false })
  })

  it('rounds a sum once, after adding, not each part', () => {
    expect(sum([tokensOf(0.4, 0, false), tokensOf(0.4, 0, false)]).input).toBe(1)
  })

  it('scales by a share, each part rounded and the total made of the rounded parts', () => {
    expect(scale(tokensOf(101, 7, true), 0.5)).toEqual({ input: 51, output: 4, total: 55, estimated: true })
    expect(scale(tokensOf(100, 10, false), 0)).toEqual({ input: 0, output: 0, total: 0, estimated: false })
  })

  it('scales by a count of copies', () => {
    expect(scale(estimateTokens(90, 0), 3)).toEqual({ input: 69, output: 0, total: 69, estimated: true })
  })

  it('takes the part of a count that a part of a whole stands for, rounded', () => {
    expect(proportion(2000, 1000, 3000)).toBe(667)
    expect(proportion(2000, 0, 3000)).toBe(0)
    expect(proportion(3, 1, 2)).toBe(2)
  })

  it('rounds a fractional figure to whole numbers, each part and the total on its own', () => {
    const share = reportedTokens({ inputTokens: 1000, outputTokens: 20 }, 3)
    expect(rounded(share)).toEqual({ input: 333, output: 7, total: 340, estimated: false })
  })
})

describe('writing a figure', () => {
  it('marks an estimate with ~', () => {
    expect(figure(tokensOf(1200, 34, false))).toBe('1234')
    expect(figure(tokensOf(1200, 34, true))).toBe('~1234')
    expect([figureOf(61000, true), figureOf(0, false)]).toEqual(['~61000', '0'])
  })

  it('says how an estimate was made, and nothing of a reported count', () => {
    expect(tokenCount(tokensOf(10, 2, true), 'estimated from text size')).toBe('~12 tokens (estimated from text size)')
    expect(tokenCount(tokensOf(10, 2, false), 'estimated from text size')).toBe('12 tokens')
  })
})
