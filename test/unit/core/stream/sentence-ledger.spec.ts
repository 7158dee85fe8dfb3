import { describe, expect, it } from 'vitest'
import { FoldedWindow } from '../../../../src/core/stream/folded-window.ts'
import { SentenceLedger, type ProseRun } from '../../../../src/core/stream/sentence-ledger.ts'

const options = { chars: 400, copies: 20, minCopies: 3, minChars: 64, maxUnit: 200, every: 64, edits: 0 }

/** A window and its ledger fed `text`, read at every look as the watch reads it; the last read. */
function ledgerOf(text: string): { window: FoldedWindow; ledger: SentenceLedger; run: ProseRun } {
  const window = new FoldedWindow(options)
  const ledger = new SentenceLedger(window.window, options.chars)
  for (let at = window.feed(text, 0); at >= 0; at = window.feed(text, at)) ledger.read(window)
  return { window, ledger, run: ledger.read(window) }
}

describe('the sentence ledger', () => {
  it('counts a sentence as come back from its third copy', () => {
    const three = ledgerOf('Some other words come first here. I will do it now. I will do it now. I will do it now. The end comes.\n')
    expect(three.run).toEqual({ prose: expect.any(Number) as number, back: 'I will do it now.'.length })
    expect(ledgerOf('Some other words come first here. I will do it now. I will do it now. The end comes.\n').run.back).toBe(0)
  })

  it('reads sentences and lines, Chinese ones too, by their numbers\' values', () => {
    expect(ledgerOf('Retry number 1 failed.\nRetry number 2 failed.\nRetry number 3 failed.\nRetry number 4 failed.\nok\n').run.back).toBe(0)
    expect(ledgerOf('Retry number 7 failed.\nRetry number 7 failed.\nRetry number 7 failed.\nok\n').run.back).toBe(22)
    expect(ledgerOf('我现在就去结束那个过期的进程。我现在就去结束那个过期的进程。我现在就去结束那个过期的进程。好\n').run.back).toBe(15)
  })

  it('counts prose only: not short sentences, code, data, numbers, tables, `key:` lines or fenced text', () => {
    const lines = ['Done.', 'x = compute(a, b);', 'items[0] holds it', '0.5 0.25 0.125 0.0625', '| a | row |', 'retry: connection refused', '- name: web', 'She said "hello there"']
    for (const line of lines) {
      expect(ledgerOf(`${line}\n`.repeat(6)).run, line).toEqual({ prose: 0, back: 0 })
    }
    expect(ledgerOf(`\`\`\`\n${'Waiting for the rollout now.\n'.repeat(6)}`).run).toEqual({ prose: 0, back: 0 })
    expect(ledgerOf('I\'ll start it now.\n'.repeat(6)).run.back).toBeGreaterThan(0)
  })

  it('sums up the run, the last characters, and forgets what leaves the window', () => {
    const sentence = 'The same sentence again.\n'
    const { run } = ledgerOf(sentence.repeat(100))
    // The run: 400 folded characters, whole sentences of 24 (the line break between them is not prose).
    expect(run.prose).toBeLessThanOrEqual(400)
    expect(run.prose).toBeGreaterThan(400 - 2 * 25)
    expect(run.back).toBe(run.prose)
    // A new sentence every line, long past the window: nothing comes back.
    expect(ledgerOf(Array.from({ length: 400 }, (_, i) => `Sentence ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26) % 26)} is new.\n`).join('')).run.back).toBe(0)
  })

  it('reads from the window\'s start when what came before it was never read, counting no sentence cut in two', () => {
    const window = new FoldedWindow(options)
    const ledger = new SentenceLedger(window.window, options.chars)
    const text = Array.from({ length: 60 }, (_, i) => `Line number ${i} is here.\n`).join('') + 'The same sentence again.\n'.repeat(40)
    for (let at = window.feed(text, 0); at >= 0; at = window.feed(text, at));
    const run = ledger.read(window)
    expect(run.back).toBe(run.prose)
    expect(run.prose).toBeGreaterThan(300)
  })

  it('names the sentences that came back in the run, each once, in the order they first did there, as last written', () => {
    const { window, ledger } = ledgerOf(`Plan first.\n${'I will do it.  I  will start.\n'.repeat(30)}`)
    // The run begins in the middle of a line; each sentence is read from its latest copy, its spacing as written.
    expect(ledger.returning((from, to) => window.text(from, to), window.folded).unit).toBe('I  will start.\nI will do it. ')
  })
})
