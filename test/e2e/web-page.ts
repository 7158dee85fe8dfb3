/**
 * DSH's web UI as a person uses it, for the web tests: the real `dsh --profile web` served on a loopback port against
 * the scripted model, and a real browser (Debian's chromium, headless, driven by playwright-core) opened on it in the
 * language the person's browser asks for.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { PACKAGE_ROOT } from '../../scripts/paths.ts'
import { CLI, cleanUp, homeWithBrake } from './dsh-cli.ts'
import { startModelServer, type Answer } from './model-server.ts'

const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium'

/** Where the web tests keep their screenshots. */
export const SHOTS = join(PACKAGE_ROOT, '.test-results/web')

/**
 * For the test file that calls it: a fresh DSH_HOME whose web profile has this checkout added, as a user adds it
 * (made before its tests, removed after them), read through the function returned.
 */
export function webHomeWithBrake(): () => string {
  let home = ''
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's \`chromium\` (apt-get install -y chromium, as .ci/run does) or set CHROMIUM`)
    mkdirSync(SHOTS, { recursive: true })
    home = await homeWithBrake('web')
  }, 120_000)
  afterAll(() => {
    cleanUp()
  })
  return () => home
}

/** The web UI of `home` served against a model playing `script`, open in a browser asking for `locale`. */
export async function openWeb(
  home: string, script: Answer[], cwd: string, locale = 'en-US',
): Promise<{ page: Page; close: () => Promise<void> }> {
  const server = await startModelServer(script)
  const web = await serveWeb(home, server.url, cwd)
  const { page, close } = await openPage(web.url, locale)
  return {
    page,
    close: async () => {
      await close()
      web.stop()
      await server.close()
    },
  }
}

/** A `dsh --profile web` serving: its address, a way to stop it, and what it printed so far (stdout and stderr). */
export interface WebServer {
  readonly url: string
  readonly stop: () => void
  readonly output: () => string
}

/**
 * `dsh --profile web` of `home` on a free loopback port, against `baseUrl`; resolves once it prints its address, with
 * what it has printed so far on stdout and stderr, read as it runs.
 */
export async function serveWeb(home: string, baseUrl: string, cwd: string): Promise<WebServer> {
  const child: ChildProcess = spawn(process.execPath, [CLI, '--profile', 'web', '--no-open', '--host', '127.0.0.1', '--port', '0'], {
    cwd,
    env: {
      ...process.env,
      PATH: [dirname(process.execPath), join(PACKAGE_ROOT, '.e2e/bin'), process.env['PATH'] ?? ''].join(':'),
      DSH_HOME: home, DSH_TELEMETRY_DISABLED: '1', DEEPSEEK_API_KEY: 'sk-scripted', DEEPSEEK_BASE_URL: baseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dsh web did not start: ${out}`)), 60_000)
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const found = /dsh web: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (found !== null) {
        clearTimeout(timer)
        resolve(found[1]!)
      }
    })
    child.stderr!.on('data', (chunk: Buffer) => void (out += chunk.toString()))
    child.on('exit', code => reject(new Error(`dsh web exited (${String(code)}): ${out}`)))
  })
  return { url, stop: () => void child.kill(), output: () => out }
}

/**
 * Open the web UI at `url` in a browser that asks for `locale` (DSH's web UI starts in that language when it has it),
 * past the first-visit notice about internal testing, which a person reads and continues.
 */
export async function openPage(url: string, locale = 'en-US'): Promise<{ page: Page; close: () => Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale, timezoneId: 'UTC' })
  await page.goto(url, { waitUntil: 'load' })
  await page.locator('textarea').first().waitFor({ state: 'visible', timeout: 60_000 })
  const proceed = page.getByRole('button', { name: /^(Continue|继续)$/ })
  await proceed.waitFor({ timeout: 5_000 }).then(() => proceed.click(), () => undefined)
  return { page, close: () => browser.close() }
}

/** Choose the workspace `cwd` if the page asks for one, send `prompt` as a person does, and wait for `answer`. */
export async function sendPrompt(page: Page, cwd: string, prompt: string, answer: string): Promise<void> {
  const box = page.locator('textarea').first()
  if (await box.getAttribute('aria-label') === 'Choose workspace') {
    await box.click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Edit path' }).click()
    await dialog.locator('input').first().fill(cwd)
    await dialog.locator('input').first().press('Enter')
    await dialog.getByRole('button', { name: 'Open', exact: true }).click()
    await page.waitForFunction('document.querySelector("textarea")?.getAttribute("aria-label") !== "Choose workspace"')
  }
  await box.fill(prompt)
  await page.getByRole('button', { name: 'Send message' }).click()
  await page.getByText(answer).last().waitFor({ timeout: 90_000 })
}

/** The text of each red tool row of the page. */
export async function failedRows(page: Page): Promise<string[]> {
  return Promise.all((await page.locator('[data-state=error]').all()).map(row => row.innerText()))
}
