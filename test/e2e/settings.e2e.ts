/**
 * The brake configured where a DSH user configures: the real `dsh --profile web` with dsh-brake added, and a real
 * browser used as a person uses it. Settings → Plugins → Plugin configuration shows the brake's card beside DSH's own;
 * a value the brake refuses is refused at the save with the brake's own words on the card, and the settings in force
 * stay; switching to deny mode and saving applies at once: the next looping turn has its exact repeats refused. The
 * card speaks the web UI's language: English and Chinese.
 *
 * Each scenario keeps a screenshot in .test-results/web/.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { repeat } from '../../scripts/dsh-loop.ts'
import { workspace, writeUserPatch } from './dsh-cli.ts'
import type { Answer } from './model-server.ts'
import { failedRows, openWeb, sendPrompt, SHOTS, webHomeWithBrake } from './web-page.ts'

const home = webHomeWithBrake()

/** The web UI's words a person follows to the card, in each language it offers. */
const UI = {
  en: { locale: 'en-US', settings: 'Settings', plugins: 'Plugins', close: 'Close' },
  zh: { locale: 'zh-CN', settings: '设置', plugins: '插件', close: '关闭' },
} as const

/** Open Settings → Plugins (its first tab is Plugin configuration), find the brake's card and open it. */
async function openCard(page: Page, words: (typeof UI)[keyof typeof UI]): Promise<Locator> {
  await page.getByRole('button', { name: words.settings, exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: words.plugins, exact: true }).click()
  const card = page.locator('[data-plugin-card=dsh-brake]')
  await card.waitFor({ timeout: 30_000 })
  const header = card.locator('button[aria-expanded=false]')
  // A chevron as the stock cards draw theirs, pointing down, then up once the card is open; no text arrow.
  expect(await header.locator('svg[data-chevron=closed]').count()).toBe(1)
  await header.click()
  await card.locator('button[aria-expanded=true] svg[data-chevron=open]').waitFor()
  expect(await card.locator('button[aria-expanded]').innerText()).not.toMatch(/[▴▾]/)
  return card
}

/** The settings document the stock profiles keep, and the web UI writes. */
const settingsDocument = (): string => {
  try {
    return readFileSync(join(home(), 'settings.yaml'), 'utf8')
  } catch {
    return ''
  }
}

const read = (file: string): Answer => ({ calls: [{ name: 'read', args: { file_path: file } }] })

describe('the brake\'s card in DSH\'s web UI, Settings → Plugins', () => {
  it('refuses a value the brake refuses, saying why; switched to deny mode, the next looping turn is refused', async () => {
    writeUserPatch(home(), '[]\n', 'web')
    const cwd = workspace({ 'notes.txt': 'the answer is 42\n' })
    const { page, close } = await openWeb(home(), [...repeat(12, read('notes.txt')), { text: 'The answer is 42.' }], cwd, UI.en.locale)
    try {
      const card = await openCard(page, UI.en)
      expect(await card.innerText()).toContain('Remind — Tells the model what it saw and what to do instead; never blocks a call.')
      // A deny count at or below the notice count (4) is refused, in the brake's words; nothing is stored.
      const denyCount = card.getByLabel('Refuse after')
      expect(await denyCount.inputValue()).toBe('10')
      await denyCount.fill('3')
      await card.getByRole('button', { name: 'Save', exact: true }).click()
      const alert = card.getByRole('alert')
      await alert.waitFor()
      // The brake's names show as code, not between backticks.
      expect(await alert.innerText()).toBe('Not saved — dsh-brake keeps its current settings: callDenyCount must be greater than callWarnCount (4), got 3')
      expect(await alert.locator('code').allInnerTexts()).toEqual(['callDenyCount', 'callWarnCount'])
      await page.screenshot({ path: join(SHOTS, 'settings-refused.png'), fullPage: true })
      expect(settingsDocument()).not.toContain('dsh-brake')
      await card.getByRole('button', { name: 'Discard', exact: true }).click()
      expect(await denyCount.inputValue()).toBe('10')
      expect(await card.locator('[data-overridden]').count()).toBe(0)

      // Deny mode, chosen: unsaved (the header says so), and no override yet, as nothing is stored.
      await card.getByRole('radio', { name: /^Deny/ }).check()
      await card.getByText('Unsaved', { exact: true }).waitFor()
      expect(await card.locator('[data-overridden]').count()).toBe(0)
      // Saved: marked overridden, with a reset to cordis.patch.yml's value, and stored in the document.
      await card.getByRole('button', { name: 'Save', exact: true }).click()
      await card.getByText('Saved: dsh-brake runs with these settings now, counting afresh.').waitFor()
      const marks = await card.locator('[data-overridden]').all()
      expect(await Promise.all(marks.map(mark => mark.getAttribute('data-overridden')))).toEqual(['mode'])
      await expect.poll(settingsDocument).toMatch(/dsh-brake:\n\s+mode: deny/)
      await page.screenshot({ path: join(SHOTS, 'settings-deny.png'), fullPage: true })
      await page.getByRole('dialog').getByRole('button', { name: UI.en.close, exact: true }).click()

      // The same dsh, not restarted: the looping turn has its eleventh and twelfth identical reads refused.
      await sendPrompt(page, cwd, 'Read the notes.', 'The answer is 42.')
      const refused = (await failedRows(page)).filter(text => text.includes('dsh-brake refused this call'))
      expect(refused).toHaveLength(2)
      expect(refused[0]).toContain('dsh-brake refused this call: `read` has already run 10 times')
      await page.screenshot({ path: join(SHOTS, 'settings-deny-turn.png'), fullPage: true })
    } finally {
      await close()
    }
  })

  it('speaks Chinese in a browser that asks for it, a refusal included', async () => {
    writeUserPatch(home(), '[]\n', 'web')
    const { page, close } = await openWeb(home(), [{ text: '好' }], workspace(), UI.zh.locale)
    try {
      const card = await openCard(page, UI.zh)
      const text = await card.innerText()
      expect(text).toContain('模式')
      expect(text).toContain('拒绝 — 另外在完全相同的调用超过拒绝次数后拒绝它。')
      const warnCount = card.getByLabel('提醒于')
      await warnCount.fill('1')
      await card.getByRole('button', { name: '保存', exact: true }).click()
      const alert = card.getByRole('alert')
      await alert.waitFor()
      // The card's words are Chinese; the brake's own message, as every config message it gives, is English.
      expect(await alert.innerText()).toBe('未保存——dsh-brake 继续使用当前设置：callWarnCount must be an integer >= 2, got 1')
      await page.screenshot({ path: join(SHOTS, 'settings-zh.png'), fullPage: true })
    } finally {
      await close()
    }
  })
})
