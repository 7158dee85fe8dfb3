/**
 * Token arithmetic for `dsh-brake analyze`, in one place: a figure is made from a provider's reported usage or
 * estimated from text size (about {@link CHARS_PER_TOKEN} characters per token), then added up, scaled, rounded and
 * written here. An estimate anywhere in a figure makes the figure an estimate, and it is written with a `~`.
 * @module dsh-brake/analyze/tokens
 */
import type { Tokens } from './analysis.js'

/** About four characters of text per token: what a figure is estimated with where a log has no usage for it. */
export const CHARS_PER_TOKEN = 4

/** No tokens. */
export const NO_TOKENS: Tokens = { input: 0, output: 0, total: 0, estimated: false }

/** `chars` characters of text as tokens, rounded up. */
export function charsAsTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN)
}

/** Input and output tokens, with their total. */
export function tokensOf(input: number, output: number, estimated: boolean): Tokens {
  return { input, output, total: input + output, estimated }
}

/** Tokens estimated from text: the characters that went into the context, and those the model wrote. */
export function estimateTokens(inputChars: number, outputChars: number): Tokens {
  return tokensOf(charsAsTokens(inputChars), charsAsTokens(outputChars), true)
}

/** A model step's usage as the provider reported it, or one call's share of it when the step asked for `calls` calls. */
export function reportedTokens(usage: { readonly inputTokens: number; readonly outputTokens: number }, calls = 1): Tokens {
  return {
    input: usage.inputTokens / calls,
    output: usage.outputTokens / calls,
    total: (usage.inputTokens + usage.outputTokens) / calls,
    estimated: false,
  }
}

/** Output tokens alone: a response's, or what a cut spares of it. */
export function outputTokens(output: number, estimated: boolean): Tokens {
  return tokensOf(0, output, estimated)
}

/** Tokens added up; an estimate anywhere makes the sum one. */
export function sum(parts: readonly Tokens[]): Tokens {
  let input = 0
  let output = 0
  let estimated = false
  for (const part of parts) {
    input += part.input
    output += part.output
    estimated ||= part.estimated
  }
  return { input: Math.round(input), output: Math.round(output), total: Math.round(input + output), estimated }
}

/** Tokens times `factor` (a share of them, or so many copies), each part rounded. */
export function scale(tokens: Tokens, factor: number): Tokens {
  return tokensOf(Math.round(tokens.input * factor), Math.round(tokens.output * factor), tokens.estimated)
}

/** The part of `count` tokens that `part` of `whole` characters (or any unit) stands for, rounded. */
export function proportion(count: number, part: number, whole: number): number {
  return Math.round(count * part / whole)
}

/** Tokens as whole numbers (a call's share of its step's usage is a fraction). */
export function rounded({ input, output, total, estimated }: Tokens): Tokens {
  return { input: Math.round(input), output: Math.round(output), total: Math.round(total), estimated }
}

/** A count of tokens in a sentence of figures: `12345`, or `~12345` for an estimate. */
export function figureOf(count: number, estimated: boolean): string {
  return `${estimated ? '~' : ''}${count}`
}

/** Tokens in a sentence of figures: their total, `~` marking an estimate. */
export function figure(value: Tokens): string {
  return figureOf(value.total, value.estimated)
}

/** Tokens as a count: `12345 tokens`, or for an estimate `~12345 tokens`, with `how` in parentheses after it. */
export function tokenCount(value: Tokens, how: string): string {
  return value.estimated ? `${figure(value)} tokens (${how})` : `${figure(value)} tokens`
}
