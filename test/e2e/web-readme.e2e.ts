/**
 * The README's picture of DSH's web UI (docs/web-ui.png), taken as a person sees it: the real `dsh --profile web`,
 * with a home of its own (the sidebar shows this one session), and a real browser. A deny-mode turn with
 * repeat-tool-reminder turned off, so that what shows is the brake's alone, as the README's ladder has it: its notices
 * at the 4th and 9th identical run, each a row "Context injection · dsh-brake · <summary>", the 11th and 12th refused,
 * red tool rows that say dsh-brake refused them, then the model's answer.
 *
 * The screenshot is kept as .test-results/web/readme.png; `npm run readme:shot` runs this file alone and copies it to
 * docs/web-ui.png.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repeat } from '../../scripts/dsh-loop.ts'
import { workspace, writeUserPatch } from './dsh-cli.ts'
import type { Answer } from './model-server.ts'
import { failedRows, openWeb, sendPrompt, SHOTS, webHomeWithBrake } from './web-page.ts'

const home = webHomeWithBrake()

/** Where the README's picture is kept, for `npm run readme:shot` (scripts/readme-shot.ts) to copy. */
const README_SHOT = join(SHOTS, 'readme.png')

describe('the README\'s picture of DSH\'s web UI', () => {
  it('a deny-mode turn: the brake\'s notices at the 4th and 9th run, the 11th and 12th refused, as the README says', async () => {
    writeUserPatch(home(), '- id: repeat-tool-reminder\n  disabled: true\n- id: dsh-brake\n  config:\n    mode: deny\n', 'web')
    const cwd = workspace({ 'test.sh': '#!/bin/sh\necho "FAIL server test: connection refused"; exit 1\n' })
    const test: Answer = { calls: [{ name: 'bash', args: { command: 'sh test.sh', description: 'Run the test' } }] }
    const answer = 'The server is not listening: start it, then run the test again.'
    const { page, close } = await openWeb(home(), [...repeat(12, test), { text: answer }], cwd)
    try {
      await sendPrompt(page, cwd, 'Make the server test pass.', answer)
      const rows = page.locator('[data-context-source]', { hasText: 'dsh-brake' })
      const notices = await Promise.all((await rows.all()).map(row => row.locator('xpath=..').innerText()))
      // The README: "A notice is a row Context injection · dsh-brake · {summary}, a refused call a red tool row".
      expect(notices.map(text => text.replace(/\s*\n\s*/g, ' · '))).toEqual([
        'Context injection · dsh-brake · bash × 4, same failure',
        'Context injection · dsh-brake · bash × 9, same failure',
      ])
      const refused = (await failedRows(page)).filter(text => text.includes('dsh-brake refused this call'))
      expect(refused).toHaveLength(2)
      expect(refused[0]).toMatch(/^Failed\s+Bash\s+Error: dsh-brake refused this call: `bash` has already run 10 times/)
      await page.getByText(answer).last().scrollIntoViewIfNeeded()
      await page.screenshot({ path: README_SHOT })
    } finally {
      await close()
    }
  })
})
