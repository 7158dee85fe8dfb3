import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULTS as CONFIG } from '../../../../src/config/keys.ts'
import { resolveOptions } from '../../../../src/config/resolve.ts'
import { createWatchMemory } from '../../../../src/core/stream/folded-window.ts'
import type { RunawayOptions } from '../../../../src/core/stream/runaway-rules.ts'
import { RunawayWatch, type Repetition } from '../../../../src/core/stream/runaway-watch.ts'
import { foldText } from '../../../../src/core/stream/fold.ts'
import { createQuotedRun } from '../../../../src/core/stream/quotes.ts'
import { unitKind } from '../../../../src/core/stream/unit-kind.ts'
import { RUNAWAYS, TEXTS } from '../../../loop/corpus/real-texts.ts'
import { RESPONSES, tokens, type ResponseCase } from '../../../loop/corpus/responses.ts'

/** The defaults a brake runs with. */
const DEFAULTS = resolveOptions(CONFIG).stream!

/**
 * Stream `text` through a watch in token-sized deltas (with the request it may quote): the first repetition found, and
 * the characters fed by then.
 */
function watch(text: string, options: RunawayOptions = DEFAULTS, request?: string): { found: Repetition | undefined; fed: number } {
  const watcher = new RunawayWatch(options, request === undefined ? undefined : createQuotedRun(() => foldText(request)))
  let fed = 0
  for (const delta of tokens(text)) {
    fed += delta.length
    const found = watcher.push(delta)
    if (found !== undefined) return { found, fed }
  }
  return { found: undefined, fed }
}

/**
 * The longest a repetition of `unit` streams before it is found: the rule's threshold for the unit (a run of symbols
 * needs `chars`), one look's stride and one unit, all counted on the folded text, in characters as streamed.
 */
function latest(unit: string): number {
  const folded = foldText(unit).length
  const threshold = unitKind(foldText(unit)) === 'symbols'
    ? Math.max(DEFAULTS.chars, DEFAULTS.minCopies * folded)
    : Math.min(Math.max(DEFAULTS.minChars, DEFAULTS.copies * folded), Math.max(DEFAULTS.chars, DEFAULTS.minCopies * folded))
  return Math.ceil((threshold + DEFAULTS.every + folded) * unit.length / folded)
}

const traps = (entries: readonly ResponseCase[]): (readonly [string, ResponseCase])[] => entries.filter(entry => entry.kind === 'trap').map(entry => [entry.name, entry] as const)
const loops = (entries: readonly ResponseCase[]): (readonly [string, ResponseCase])[] => entries.filter(entry => entry.kind === 'loop').map(entry => [entry.name, entry] as const)

describe('the repetition watch on the response corpus', () => {
  it('runs with the documented defaults: 20 copies or 3,200 characters, 3 copies and 256 characters at least, looked at every 256', () => {
    expect(DEFAULTS).toEqual({ chars: 3200, copies: 20, minCopies: 3, minChars: 256, maxUnit: 2000, every: 256, edits: 8 })
  })

  it.each(traps(RESPONSES))('never cuts %s', (_, entry) => {
    // Each trap is long enough that the threshold alone does not spare it.
    expect(entry.text.length).toBeGreaterThan(DEFAULTS.chars)
    expect(watch(entry.text, DEFAULTS, entry.request).found).toBeUndefined()
  })

  it.each(RESPONSES.filter(entry => entry.request !== undefined).map(entry => [entry.name, entry] as const))('cuts %s when the request does not hold what it quotes', (_, entry) => {
    expect(watch(entry.text).found).toBeDefined()
  })

  it.each(loops(RESPONSES))('cuts %s soon after it begins', (_, entry) => {
    const { found, fed } = watch(entry.text)
    const { from, unit, within } = entry.loop!
    expect(found).toBeDefined()
    // Found at the first look once the repetition reaches the rule's threshold for its unit: never later than that
    // plus one look's stride and one unit (the repetition may begin mid-unit); a form the copies rule does not bound,
    // by its own rule.
    expect(fed - from).toBeLessThanOrEqual(within ?? latest(unit))
    // The unit reads as the model wrote it, and the count is of whole copies.
    expect(found!.unit).toBe(unit)
    if (within === undefined) expect(found!.copies).toBe(Math.floor(found!.span / foldText(unit).length))
    expect(found!.copies).toBeGreaterThanOrEqual(DEFAULTS.minCopies)
    // The look falls inside the delta that completed the stride: the whole delta has streamed.
    expect(found!.seen).toBeLessThanOrEqual(fed)
    expect(found!.seen).toBeGreaterThan(fed - 8)
  })
})

describe('the repetition watch on real texts', () => {
  it.each(loops(RUNAWAYS))('cuts %s, keeping at most 4,000 characters', (_, entry) => {
    const { found, fed } = watch(entry.text)
    expect(found).toBeDefined()
    expect(fed).toBeLessThanOrEqual(4000)
    expect(fed - entry.loop!.from).toBeLessThanOrEqual(entry.loop!.within ?? latest(entry.loop!.unit))
    // The unit quoted is the one repeated, turned perhaps, its white space and numbers as one of its copies had them.
    const unit = foldText(entry.loop!.unit).trim()
    expect(`${unit} ${unit}`.replace(/\s+/g, ' ')).toContain(foldText(found!.unit).trim().replace(/\s+/g, ' '))
  })

  it('keeps a median of at most 1,500 characters of the runaways', () => {
    const kept = RUNAWAYS.map(entry => watch(entry.text).fed).sort((a, b) => a - b)
    expect(kept[Math.floor(kept.length / 2)]).toBeLessThanOrEqual(1500)
  })

  it.each(traps(TEXTS))('never cuts %s', (_, entry) => {
    expect(watch(entry.text, DEFAULTS, entry.request).found).toBeUndefined()
  })
})

/** A word of letters for `i`, in no cycle (digits would fold to one and make a list of them repeat). */
function wordOf(i: number): string {
  let n = Math.imul(i + 1, 2_654_435_761) >>> 0
  let word = ''
  for (let k = 0; k < 5; k++, n = Math.floor(n / 26)) word += String.fromCharCode(97 + n % 26)
  return word
}

describe('what counts as repeating', () => {
  it('takes the shortest unit: a token repeated is the token, not two of it', () => {
    expect(watch('ab'.repeat(5000)).found?.unit).toBe('ab')
  })

  it('needs the characters of a long unit: a passage of 1,000 characters three times is not cut, four times is', () => {
    const passage = Array.from({ length: 200 }, (_, i) => wordOf(i)).join(' ').slice(0, 999) + ' '
    expect(watch(passage.repeat(3)).found).toBeUndefined()
    expect(watch(passage.repeat(4)).found?.unit.length).toBe(1000)
  })

  it('needs 256 characters of a short unit, and 3 copies of a long one, whatever the thresholds', () => {
    const low = { ...DEFAULTS, chars: 256, copies: 3 }
    expect(watch('no. '.repeat(63), low).found).toBeUndefined()
    expect(watch('no. '.repeat(70), low).found?.unit).toBe('no. ')
    const passage = Array.from({ length: 60 }, (_, i) => wordOf(i)).join(' ') + '. '
    expect(watch(passage.repeat(2), low).found).toBeUndefined()
    expect(watch(passage.repeat(3) + passage.slice(0, 300), low).found?.unit).toBe(passage)
  })

  it('never looks for a unit longer than the longest it is told to', () => {
    const passage = Array.from({ length: 500 }, (_, i) => wordOf(i)).join(' ').slice(0, 2500)
    expect(watch(passage.repeat(6)).found).toBeUndefined()
  })

  it('counts a number counting up in prose, not in code or data, nor in a code block', () => {
    const prose = Array.from({ length: 60 }, (_, i) => `Retrying the request (attempt ${i}).`).join(' ')
    expect(watch(prose).found?.unit).toMatch(/^Retrying the request \(attempt \d+\)\. ?$/)
    expect(watch(Array.from({ length: 60 }, (_, i) => `retry(${i});`).join('\n')).found).toBeUndefined()
    expect(watch('```\n' + prose).found).toBeUndefined()
    expect(watch('```\nlog\n```\n' + prose).found).toBeDefined()
  })

  it('follows a unit through a dropped or changed letter now and then, not through a different word each time', () => {
    const dropped = Array.from({ length: 200 }, (_, i) => (i % 30 === 29 ? 'ISI-' : 'ISIS-')).join('')
    expect(watch(dropped).found?.unit).toBe('ISIS-')
    expect(watch(dropped, { ...DEFAULTS, edits: 0 }).found).toBeUndefined()
    const words = Array.from({ length: 200 }, (_, i) => `I will ${wordOf(i)} it. `).join('')
    expect(watch(words).found).toBeUndefined()
  })

  it('folds white space: drifting spaces and line breaks do not make copies differ', () => {
    const drifting = Array.from({ length: 100 }, (_, i) => `Let me${' '.repeat(1 + (i % 3))}check.${i % 4 === 0 ? '\n' : ' '}`).join('')
    expect(watch(drifting).found).toBeDefined()
  })

  it('takes a run of symbols or of one character for a rule until 3,200 characters, and lines of one symbol for text', () => {
    for (const rule of ['=', '*', '-', ' =', '/']) {
      expect(watch(`Title\n${rule.repeat(3000 / rule.length)}`).found).toBeUndefined()
      expect(watch(`Title\n${rule.repeat(3600 / rule.length)}`).found).toBeDefined()
    }
    expect(watch('x'.repeat(3000)).found).toBeUndefined()
    expect(watch('  }\n'.repeat(200)).found?.unit).toBe('  }\n')
  })

  it('never counts data within a line: base64 and hex runs, fields of equal values, a row of numbers', () => {
    for (const data of ['/wD/AP8A', 'gICA', 'ff00', '0,', '"N/A",', 'NULL;', '0, ', '0.0 ', '-1.5 ']) {
      expect(watch(data.repeat(12_000 / data.length)).found).toBeUndefined()
    }
    // A run of one character counts as a rule, unless it goes on a base64 token.
    expect(watch(`src="data:image/bmp;base64,Qk02MAAAAAAAADYAAAAoAAAAQAAAAEAAAAABABgAAAAAAAAw${'A'.repeat(12_000)}`).found).toBeUndefined()
    expect(watch(`The letter: ${'A'.repeat(12_000)}`).found).toBeDefined()
    for (const text of ['Yes,\n', 'court, ', 'ny', 'ISIS', '<s>']) expect(watch(text.repeat(2000 / text.length)).found).toBeDefined()
  })

  it('takes a table\'s border or empty cells within a line for a rule, counted from 3,200 characters', () => {
    for (const border of ['| --- ', '|  ', '+-----']) {
      const folded = foldText(`x${border}`).length - 1
      expect(watch(`Table:\n${border.repeat(Math.floor(3000 / folded))}`).found).toBeUndefined()
      expect(watch(`Table:\n${border.repeat(Math.ceil(3700 / folded))}`).found).toBeDefined()
    }
  })

  it('spares a repetition the request holds, as long as it runs there, and not past it', () => {
    const line = 'Waiting for rollout to finish: 0 of 3 updated replicas are available...\n'
    const request = `kubectl said:\n${line.repeat(100)}done\n`
    expect(watch(`Quoting:\n${line.repeat(100)}done`, DEFAULTS, request).found).toBeUndefined()
    expect(watch(`Quoting:\n${line.repeat(100)}`).found).toBeDefined()
    expect(watch(`Quoting:\n${line.repeat(200)}`, DEFAULTS, request).found).toBeDefined()
    // A run the request holds with glitches in it (a test runner's dots, its progress at each line's end) is one run.
    const dots = `tests ${Array.from({ length: 6 }, (_, i) => `${'\u001b[32m.'.repeat(70)} [ ${i * 14}%]\n`).join('')}done`
    expect(watch(dots).found).toBeDefined()
    expect(watch(dots, DEFAULTS, dots).found).toBeUndefined()
    const listing = Array.from({ length: 90 }, (_, i) => `1.${Math.floor(i / 20)}.${i % 20 === 0 ? '' : `${i % 20}.`}txt\n`).join('')
    expect(watch(listing, DEFAULTS, `ls:\n${listing}`).found).toBeUndefined()
    // A run that opens the request (a log that is nothing but its repeated line) is followed to its first copy, and no
    // further: the look-up ends, and the whole run is the quote's.
    const log = 'DEBUG: Rectangle _update_patch_limits max_y=1.0\n'.repeat(112)
    expect(watch(log, DEFAULTS, log).found).toBeUndefined()
    // A tool's output cut short in its middle shows the run twice, short in its head and long in its tail: a response
    // quoting it whole quotes the longer one.
    const join = 'DEBUG: join table=django_content_type parent=None reuse=None\n'
    const output = `Found 1 test(s).\n${join.repeat(23)}</output_head>\n<elided_chars>\n1281 characters elided\n</elided_chars>\n<output_tail>\n${join.repeat(70)}FAILED (failures=1)\n`
    expect(watch(output).found).toBeDefined()
    expect(watch(output, DEFAULTS, output).found).toBeUndefined()
    // A few copies in the request do not make a runaway of hundreds a quote.
    expect(watch(`court ${'court '.repeat(500)}`, DEFAULTS, 'the court court court said').found).toBeDefined()
  })

  it('honours its thresholds when configured', () => {
    // 495 characters, looked at once, at 256.
    const text = 'try again. '.repeat(45)
    expect(watch(text).found?.unit).toBe('try again. ')
    expect(watch(text, { ...DEFAULTS, copies: 40 }).found).toBeUndefined()
    expect(watch(text, { ...DEFAULTS, copies: 40, chars: 250 }).found?.unit).toBe('try again. ')
  })

  // Property: whatever came before, a unit of text repeated well past the threshold is found, and no text shorter than
  // the fewest characters ever is.
  it('finds any unit repeated past the threshold, and nothing in text shorter than the fewest characters', () => {
    const options = { chars: 600, copies: 12, minCopies: 3, minChars: 256, maxUnit: 200, every: 64, edits: 0 }
    const unitOfText = fc.string({ unit: fc.constantFrom(...'abcdefgh .!?'.split('')), minLength: 2, maxLength: 150 })
      .filter(unit => /^\S(?:.*\S)?$/s.test(unit) && !/\s\s/.test(unit) && /[a-h]/.test(unit) && new Set(unit.replace(/\s/g, '')).size > 1)
    fc.assert(fc.property(fc.string({ maxLength: 300 }), unitOfText, (before, word) => {
      const unit = `${word} `
      const { minChars, copies: enough, chars, minCopies } = options
      const needed = Math.min(Math.max(minChars, enough * unit.length), Math.max(chars, minCopies * unit.length))
      const copies = Math.ceil((needed + options.every + 2 * unit.length) / unit.length)
      expect(watch(`${before} ${unit.repeat(copies)}`, options).found).toBeDefined()
      expect(watch(`${before} ${unit.repeat(copies)}`.slice(0, options.minChars - 1), options).found).toBeUndefined()
    }), { numRuns: 300 })
  })
})

/** Streams `text` in deltas of `size` characters: the repetition found and the characters fed by then. */
function inDeltas(text: string, size: number, request?: string): { found: Repetition | undefined; fed: number } {
  const watcher = new RunawayWatch(DEFAULTS, request === undefined ? undefined : createQuotedRun(() => foldText(request)))
  for (let at = 0; at < text.length; at += size) {
    const found = watcher.push(text.slice(at, at + size))
    if (found !== undefined) return { found, fed: Math.min(text.length, at + size) }
  }
  return { found: undefined, fed: text.length }
}

describe('an identical line of data, come 100 times', () => {
  const row = '  |                  |\n'

  it('cuts a diagram\'s row or a table\'s empty row from its 100th copy, within a look of it', () => {
    for (const line of [row, '|      |          |        |\n', '+------+\n', '0,0,0,0\n', '7\n', '0.0 0.0 0.0\n']) {
      const { found, fed } = watch(`Here:\n\n${line.repeat(2000)}`)
      // A candidate once it spans 256 folded characters; then counted from the 100th copy, at a look.
      const period = foldText(`x\n${line}`).length - 2
      const stride = Math.ceil(DEFAULTS.every / period)
      expect(found?.copies, JSON.stringify(line)).toBeGreaterThanOrEqual(100)
      expect(found!.copies).toBeLessThanOrEqual(Math.max(100, Math.ceil(DEFAULTS.minChars / period)) + stride)
      expect(fed).toBeLessThan(16 + (found!.copies + 1) * line.length)
    }
    expect(watch(row.repeat(2000)).found?.unit).toBe(row)
  })

  it('spares fewer copies, rows whose values change, rows too long for 100 to fit its window, and the run the request holds', () => {
    expect(watch(`Here:\n\n${row.repeat(99)}`).found).toBeUndefined()
    expect(watch(`Weights:\n${`${Array.from({ length: 24 }, () => '0.0').join(' ')}\n`.repeat(90)}`).found).toBeUndefined()
    expect(watch(Array.from({ length: 500 }, (_, i) => `${i},0,0,0\n`).join('')).found).toBeUndefined()
    const table = `| id |\n| --- |\n${'|    |\n'.repeat(300)}`
    expect(watch(table).found).toBeDefined()
    expect(watch(`Quoting:\n${table}`, DEFAULTS, table).found).toBeUndefined()
  })
})

describe('a run of white space', () => {
  it('is cut at 800 line breaks, however they stream', () => {
    for (const size of [1, 3, 8]) {
      const { found, fed } = inDeltas(`The answer.\n${'\n'.repeat(15_000)}`, size)
      expect(found).toMatchObject({ unit: '\n', copies: 800 })
      expect(fed - 'The answer.\n'.length).toBeLessThan(800 + size)
    }
    // Blank lines with spaces in them, from the text's start.
    expect(inDeltas(' \n'.repeat(2000), 4).found).toMatchObject({ unit: '\n', copies: 800, span: 1600 })
  })

  it('is cut at 3,200 spaces or tabs', () => {
    expect(inDeltas(`Aligned:${' '.repeat(10_000)}`, 5).found).toMatchObject({ unit: ' ', copies: 3200, span: 3200 })
    expect(inDeltas(`Aligned:${'\t'.repeat(3199)}x`, 5).found).toBeUndefined()
  })

  it('spares the longest runs of the real tool outputs (1,256 characters, 227 line breaks), and runs that end', () => {
    expect(inDeltas(`Cleared:${'\n'.repeat(227)}$ ${' '.repeat(1256)}done`, 4).found).toBeUndefined()
    // Thousands of line breaks, four at a time between words.
    expect(inDeltas(Array.from({ length: 2000 }, (_, i) => `${wordOf(i)}\n\n\n\n`).join(''), 4).found).toBeUndefined()
  })
})

describe('prose that keeps coming back', () => {
  const SENTENCES = ['I\'ll do it.', 'I\'ll implement it.', 'I\'ll start.', 'I\'ll begin coding.', 'Let me write the code.']
  /** The `i`th of `count` in an order with no cycle (a hash's finalizer): a model drifting between sentences. */
  const scramble = (i: number, count: number): number => {
    let x = Math.imul(i + 0x9e3779b9, 0x85ebca6b)
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
    return ((x ^ (x >>> 16)) >>> 0) % count
  }
  /** `count` of `sentences`, in an order with no cycle, as a model drifting between them writes them. */
  const drift = (sentences: readonly string[], count: number, join = ' '): string =>
    Array.from({ length: count }, (_, i) => sentences[scramble(i, sentences.length)]!).join(join)

  it('cuts sentences that come back in any order, quoting each once', () => {
    const { found, fed } = watch(`Plan: change the parser.\n\n${drift(SENTENCES, 2000)}`)
    expect(found).toBeDefined()
    expect(fed).toBeLessThan(4600)
    expect(new Set(found!.unit.trim().split(/(?<=\.) /))).toEqual(new Set(SENTENCES))
    expect(found!.span).toBeGreaterThanOrEqual(DEFAULTS.chars / 2)
  })

  it('cuts lines that come back, and a paragraph re-printed in fragments', () => {
    expect(watch(`Steps:\n${drift(['- Check the config file.', '- Check the server logs.', '- Restart the worker.', '- Check the config again.'], 2000, '\n')}`).found).toBeDefined()
    const paragraph = ['The cache is rebuilt on every deploy.', 'It holds the compiled templates.', 'Warming it would move that cost.', 'Render every route once at start.']
    const fragments = Array.from({ length: 400 }, (_, i) => paragraph.slice(0, 1 + scramble(i, 4)).join(' ')).join('\n\n')
    const { found } = watch(fragments)
    expect(found).toBeDefined()
    expect(new Set(found!.unit.trim().split(/(?<=\.)\s/))).toEqual(new Set(paragraph))
  })

  it('spares a passage said twice, sentences that are new, and code, data and fenced text that comes back', () => {
    const passage = Array.from({ length: 40 }, (_, i) => `Sentence ${wordOf(i)} says something of its own about ${wordOf(i + 50)}.`).join(' ')
    expect(watch(`${passage}\n\nAgain:\n\n${passage}`).found).toBeUndefined()
    expect(watch(Array.from({ length: 200 }, (_, i) => `I\'ll ${wordOf(i)} it.`).join(' ')).found).toBeUndefined()
    const lines = ['Waiting for the rollout to finish now', 'Still waiting on the rollout here', 'The pod is not ready yet']
    expect(watch(drift(lines, 2000, '\n')).found).toBeDefined()
    expect(watch(`\`\`\`\n${drift(lines, 2000, '\n')}`).found).toBeUndefined()
    expect(watch(drift(['const result = parse(input);', 'items.push(next);', 'cache[key] = value'], 2000, '\n')).found).toBeUndefined()
    expect(watch(drift(['retry: connection refused', 'key: value here', 'name: the same again'], 2000, '\n')).found).toBeUndefined()
    expect(watch(drift(['| a row of a table |', 'said "the same" here', 'a value <unknown>'], 2000, '\n')).found).toBeUndefined()
  })

  it('spares a response quoting its request, until it goes past what the request holds', () => {
    const text = `Plan.\n\n${drift(SENTENCES, 2000)}`
    expect(watch(text, DEFAULTS, text).found).toBeUndefined()
    expect(watch(text, DEFAULTS, text.slice(0, 2000)).found).toBeDefined()
  })
})

/** Whether `unit` is one character over and over (the watch takes it for a rule). */
const oneCharacter = (unit: string): boolean => new Set(unit).size === 1

/**
 * The repetition at the tail of `text`, found the slow and obvious way, by the watch's rule on text with nothing to
 * fold: for each period from the shortest, its span; a period spanning the lesser threshold is a candidate, and counts
 * if it reaches its own (a run of one character needs `chars`); a candidate that does not count passes its multiples
 * over, and a look weighs 8 candidates at most.
 */
function reference(text: string, options: RunawayOptions): { period: number; span: number } | undefined {
  const { chars, copies, minCopies, minChars, maxUnit } = options
  const window = text.slice(-Math.max(chars, minCopies * maxUnit))
  if (window.length < minChars) return undefined
  const passed: number[] = []
  for (let period = 1; period <= Math.min(maxUnit, Math.floor(window.length / minCopies)); period++) {
    if (passed.some(shorter => period % shorter === 0)) continue
    let span = period
    while (span < window.length && window[window.length - 1 - span] === window[window.length - 1 - span + period]) span++
    if (span < Math.min(Math.max(minChars, copies * period), Math.max(chars, minCopies * period))) continue
    const counts = span >= chars || (!oneCharacter(window.slice(-period)) && span >= Math.max(minChars, copies * period))
    if (counts) return { period, span }
    passed.push(period)
    if (passed.length === 8) return undefined
  }
  return undefined
}

describe('the look agrees with the obvious way', () => {
  // Text made of few letters and of stretches that repeat: many periods match for a while, so looks often spend
  // their budget and finish with the Z-array; either way the answer must be the obvious one.
  const options = { chars: 300, copies: 12, minCopies: 3, minChars: 100, maxUnit: 120, every: 1, edits: 0 }
  const piece = fc.oneof(
    fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 40 }),
    fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 40 }))
      .map(([unit, times]) => unit.repeat(times)),
  )
  it('on every look, for text that nearly repeats', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('')
      const watcher = new RunawayWatch(options)
      for (let i = 0; i < text.length; i++) {
        const found = watcher.push(text[i]!)
        const expected = reference(text.slice(0, i + 1), options)
        expect(found === undefined ? undefined : { period: found.unit.length, span: found.span }).toEqual(expected)
        if (found !== undefined) break
      }
    }), { numRuns: 200 })
  })

  it('when many shorter periods match for a while before the one that repeats (a look that spends its budget)', () => {
    // Every look lands at the end of a run of 50 `a`s: periods 1 to 49 each match part of it, over twice the window of
    // comparisons before period 51.
    const watcher = new RunawayWatch({ ...options, every: 51 })
    expect(watcher.push(`b${'a'.repeat(50)}`.repeat(8))?.unit).toBe(`b${'a'.repeat(50)}`)
  })

  it('after a long run of one character that stops just short', () => {
    const text = `x${'a'.repeat(298)}b${'a'.repeat(298)}`
    const watcher = new RunawayWatch(options)
    expect(watcher.push(text)).toBeUndefined()
    expect(watcher.push('a'.repeat(3))?.unit).toBe('a')
  })
})

describe('memory handed from one watch to the next', () => {
  // A small window, so that texts wrap around it; glitches followed, so that a look reads far back.
  const options = { chars: 200, copies: 6, minCopies: 3, minChars: 40, maxUnit: 60, every: 7, edits: 4 }
  const piece = fc.oneof(
    fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '1'), maxLength: 80 }),
    fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '7'), minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 30 }))
      .map(([unit, times]) => unit.repeat(times)),
  )
  /** The first repetition a watch finds in `text`, fed in deltas of 5, with where it was found. */
  const first = (text: string, memory?: ReturnType<typeof createWatchMemory>): [Repetition, number] | undefined => {
    const watcher = new RunawayWatch(options, undefined, memory)
    for (let i = 0; i < text.length; i += 5) {
      const found = watcher.push(text.slice(i, i + 5))
      if (found !== undefined) return [found, i]
    }
    return undefined
  }

  it('answers every text as a watch with memory of its own does, whatever the texts before it left there', () => {
    fc.assert(fc.property(fc.array(fc.array(piece, { maxLength: 20 }).map(pieces => pieces.join('')), { minLength: 2, maxLength: 6 }), (texts) => {
      const memory = createWatchMemory(options)
      for (const text of texts) expect(first(text, memory)).toEqual(first(text))
    }), { numRuns: 300 })
  })

  it('does not count what an earlier text left before this one began', () => {
    const memory = createWatchMemory(options)
    expect(first(`${'a'.repeat(38)}${'b7aaaaaa'.repeat(20)}b7aa`, memory)).toBeUndefined()
    // Fewer than six copies have streamed when the watch looks; the earlier text's tail, read as if it came before
    // this one, would make them six.
    const short = 'a aaaab7'.repeat(6)
    expect(first(short)).toBeUndefined()
    expect(first(short, memory)).toBeUndefined()
  })

  it('refuses memory made for other options', () => {
    expect(() => new RunawayWatch(options, undefined, createWatchMemory({ ...options, maxUnit: 61 }))).toThrow(/other options/)
  })
})

describe('bounded cost', () => {
  it('keeps at most its window, however long the response: 64,000 tokens of text that never repeats', () => {
    const watcher = new RunawayWatch(DEFAULTS)
    let longest = 0
    for (let i = 0; i < 64_000; i++) {
      expect(watcher.push(` ${wordOf(i)}`)).toBeUndefined()
      longest = Math.max(longest, watcher.size)
    }
    expect(longest).toBe(Math.max(DEFAULTS.chars, DEFAULTS.minCopies * DEFAULTS.maxUnit))
  })
})
