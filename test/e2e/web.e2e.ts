/**
 * What a person using DSH's web UI sees of the brake: the real `dsh --profile web` served on a loopback port against
 * the scripted model, a real browser (Debian's chromium, headless, driven by playwright-core) used as a person uses
 * it (the first-visit notice dismissed, a workspace chosen, the prompt typed and sent), then the rendered page read:
 *
 * - a notice is a collapsed row "Context injection · dsh-brake · <summary>", beside repeat-tool-reminder's, whose
 *   text opens on a click: plugin-sourced, never the person's own message;
 * - in deny mode a refused call is a red tool row whose first line says dsh-brake refused it;
 * - in stop mode the turn ends at the first refused read, and its last row tells the person why and what to do
 *   ("turn stopped in a loop (…); send a message to go on"): DSH's web UI draws a turn a hook ended with no answer
 *   and no marker of its own, so the brake's stop notice's row is what tells the person;
 * - a response cut while it repeated itself shows what was kept, short, and under it a row that tells the person the
 *   brake stopped it ("stopped this response, which kept repeating itself: court × 82").
 *
 * Each scenario keeps a screenshot in .test-results/web/. The README's picture, docs/web-ui.png, is taken by
 * test/e2e/web-readme.e2e.ts (`npm run readme:shot`).
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { repeat } from '../../scripts/dsh-loop.ts'
import { RESPONSES, tokens } from '../loop/corpus/responses.ts'
import { workspace, writeUserPatch } from './dsh-cli.ts'
import type { Answer } from './model-server.ts'
import { failedRows, openWeb, sendPrompt, SHOTS, webHomeWithBrake } from './web-page.ts'

const home = webHomeWithBrake()

/** What the person did and saw: the page after the turn, and how its rows read. */
interface Seen {
  readonly page: Page
  /** The text of each row a dsh-brake notice draws (label and summary). */
  readonly notices: string[]
  /** The text of each red tool row. */
  readonly failed: string[]
  readonly close: () => Promise<void>
}

/** Serve the web profile with `patch`, open it, send `prompt` as a person does, and wait for `answer`. */
async function visit(
  name: string, patch: string, script: Answer[], prompt: string, answer: string, files: Record<string, string>,
): Promise<Seen> {
  writeUserPatch(home(), patch, 'web')
  const cwd = workspace(files)
  const { page, close } = await openWeb(home(), script, cwd)
  await sendPrompt(page, cwd, prompt, answer)
  const rows = page.locator('[data-context-source]', { hasText: 'dsh-brake' })
  const notices = await Promise.all((await rows.all()).map(row => row.locator('xpath=..').innerText()))
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
  return {
    page, notices: notices.map(text => text.replace(/\s*\n\s*/g, ' · ')), failed: await failedRows(page), close,
  }
}

const read = (file: string): Answer => ({ calls: [{ name: 'read', args: { file_path: file } }] })

describe('the brake in DSH\'s web UI, as a person sees it', () => {
  it('a notice is a plugin row, "Context injection · dsh-brake · <summary>", that opens on the notice\'s text', async () => {
    const script = [...repeat(14, read('notes.txt')), { text: 'The answer is 42.' }]
    const seen = await visit('notice', '[]\n', script, 'Read the notes.', 'The answer is 42.', { 'notes.txt': 'the answer is 42\n' })
    try {
      expect(seen.notices).toEqual(['Context injection · dsh-brake · read × 14, same result'])
      // The stock reminder's rows stand beside it, each named by its own plugin.
      expect(await seen.page.locator('[data-context-source]', { hasText: 'repeat-tool-reminder' }).count()).toBe(3)
      await seen.page.locator('[data-context-source]', { hasText: 'dsh-brake' }).first().click()
      const body = seen.page.locator('[data-context-injection-body]').filter({ hasText: '[dsh-brake]' })
      await expect.poll(() => body.count()).toBe(1)
      expect(await body.innerText()).toContain('[dsh-brake] You have called `read` with these exact arguments 14 times and got the same result each time:')
    } finally {
      await seen.close()
    }
  })

  it('in deny mode, a refused call is a red tool row that says dsh-brake refused it', async () => {
    const test = { calls: [{ name: 'bash', args: { command: 'sh test.sh', description: 'Run the test' } }] } as const
    const script = [...repeat(12, test), { text: 'The server is not listening.' }]
    const seen = await visit('deny', '- id: dsh-brake\n  config:\n    mode: deny\n', script, 'Make the test pass.', 'The server is not listening.', {
      'test.sh': '#!/bin/sh\necho "FAIL server test: connection refused"; exit 1\n',
    })
    try {
      // The reminder's rows at 3, 5 and 8 leave no call before the refusals clear of them: the brake adds no row of its own.
      expect(seen.notices).toEqual([])
      const refused = seen.failed.filter(text => text.includes('dsh-brake refused this call'))
      expect(refused).toHaveLength(2)
      expect(refused[0]).toMatch(/^Failed\s+Bash\s+Error: dsh-brake refused this call: `bash` has already run 10 times/)
    } finally {
      await seen.close()
    }
  })

  it('in stop mode, the turn ends at the first refused read and its last row says why', async () => {
    const script = [...repeat(40, read('notes.txt')), { text: 'never reached' }]
    const seen = await visit('stop', '- id: dsh-brake\n  config:\n    mode: stop\n', script, 'Read the notes.', 'send a message to go on', { 'notes.txt': 'the answer is 42\n' })
    try {
      expect(seen.notices).toEqual([
        'Context injection · dsh-brake · turn stopped in a loop (read × 11, same result); send a message to go on',
      ])
      await seen.page.locator('[data-context-source]', { hasText: 'dsh-brake' }).last().click()
      const body = seen.page.locator('[data-context-injection-body]').filter({ hasText: 'The turn was stopped here' })
      await expect.poll(() => body.count()).toBe(1)
      expect(await body.innerText()).toContain('[dsh-brake] The turn was stopped here because a loop went on after its notice, with nothing changing.')
      expect(await seen.page.locator('[data-tool]').count()).toBe(11)
    } finally {
      await seen.close()
    }
  })

  it('a response that kept repeating itself: cut short on screen, and a row under it says the brake stopped it', async () => {
    const loop = RESPONSES.find(entry => entry.name === 'one token repeated 5,000 times')!
    const script: Answer[] = [{ text: [...tokens(loop.text)] }, { text: 'Sorry: the court ruled for the plaintiff.' }]
    const seen = await visit('cut', '[]\n', script, 'Who won?', 'Sorry: the court ruled for the plaintiff.', {})
    try {
      expect(seen.notices).toEqual([expect.stringMatching(/^Context injection · dsh-brake · stopped this response, which kept repeating itself: court × \d+$/) as string])
      // What stays on screen: the start and a few hundred characters of the repetition, not the 30,000 it would have run to.
      const kept = await seen.page.getByText(/^The verdict of the court court/).last().innerText()
      expect(kept.length).toBeLessThan(1000)
      expect(kept.match(/court/g)!.length).toBeLessThan(170)
      // The notice's text, opened, still speaks to the model.
      await seen.page.locator('[data-context-source]', { hasText: 'dsh-brake' }).first().click()
      const body = seen.page.locator('[data-context-injection-body]').filter({ hasText: '[dsh-brake]' })
      await expect.poll(() => body.count()).toBe(1)
      expect(await body.innerText()).toContain('[dsh-brake] Your last response fell into repeating itself, so it was cut off there')
    } finally {
      await seen.close()
    }
  })
})
