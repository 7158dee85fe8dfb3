/**
 * The HTML report as a browser draws it: the page is rendered by headless Chromium (Debian's `chromium`; .ci/run
 * installs it) and the screenshot's pixels are read where the timeline's grid puts each call and mark: the loop's
 * calls in the loop colour and the others not, the notice's dot and the refusal's square over the calls they follow.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyzeSessions } from '../../../src/analyze/analyze-sessions.ts'
import { htmlReport, TIMELINE } from '../../../src/analyze/report-html.ts'
import { readPng, type Image } from '../../support/png.ts'
import { brakeNotice, header, SessionScript, writeLog } from '../../support/session-logs.ts'

const dir = mkdtempSync(join(tmpdir(), 'dsh-brake-html-'))
const { cell, pitch, rowHeight, cellHeight, colors } = TIMELINE

/** Where Chromium is: Debian's package, or one named by CHROMIUM. */
function chromium(): string {
  const path = process.env['CHROMIUM'] ?? '/usr/bin/chromium'
  try {
    execFileSync(path, ['--version'], { stdio: 'ignore' })
  } catch {
    throw new Error(`no Chromium at ${path}: install Debian's \`chromium\` (apt-get install -y chromium, as .ci/run does) or set CHROMIUM`)
  }
  return path
}

/** Render `html` at 1400×900 and read the screenshot. */
function render(html: string): Image {
  const page = join(dir, 'report.html')
  const shot = join(dir, 'shot.png')
  writeFileSync(page, html)
  execFileSync(chromium(), [
    '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--force-device-scale-factor=1',
    '--window-size=1400,900', `--user-data-dir=${join(dir, 'profile')}`, `--screenshot=${shot}`, pathToFileURL(page).href,
  ], { stdio: 'ignore', timeout: 60_000 })
  return readPng(readFileSync(shot))
}

/** The top-left pixel of call 1's cell: the first cell-sized run of the call colour (the legend's swatch is wider). */
function firstCell(image: Image): { x: number; y: number } {
  for (let y = 1; y < image.height - cellHeight; y++) {
    for (let x = 1; x < image.width - cell; x++) {
      if (image.color(x, y) !== colors.call || image.color(x - 1, y) === colors.call || image.color(x, y - 1) === colors.call) continue
      if (image.color(x + cell - 1, y + cellHeight - 1) === colors.call && image.color(x + cell, y) !== colors.call) return { x, y }
    }
  }
  throw new Error('no call cell on the page')
}

let image: Image
let origin: { x: number; y: number }
let html: string
/** The colour at the middle of call `call`'s place in row `row` (0: the calls, 1: the config's marks, 2: the session's). */
function at(call: number, row: number): string {
  return image.color(origin.x + (call - 1) * pitch + cell / 2, origin.y + row * rowHeight + cellHeight / 2)
}

beforeAll(async () => {
  // Three calls of work, then six identical reads: a loop from call 4 to call 9; the live brake's notice after call 7.
  const read = { name: 'read', args: { file_path: 'a.txt' }, result: 'same' }
  const script = new SessionScript(header('session-html')).prompt('go')
  ;['b.txt', 'c.txt', 'd.txt'].forEach((file, index) => {
    if (index > 0) script.openStep()
    script.respond([{ name: 'read', args: { file_path: file }, result: file }])
  })
  const notice = brakeNotice('read × 4, same result')
  for (let call = 4; call <= 9; call++) {
    script.openStep(call === 8 ? [notice] : [])
    script.respond([call === 7 ? { ...read, notice } : read])
  }
  const file = writeLog(dir, 'session-html', script.end().bytes())
  // Deny mode with refusals from the sixth identical call: the ninth call is refused.
  const analysis = await analyzeSessions([file], [{ name: 'deny.yml', config: { mode: 'deny', callDenyCount: 5 } }])
  html = htmlReport(analysis)
  image = render(html)
  origin = firstCell(image)
}, 90_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the timeline, as Chromium draws it', () => {
  it('shades the loop\'s calls, and only those', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(call => at(call, 0))).toEqual([
      colors.call, colors.call, colors.call, colors.loop, colors.loop, colors.loop, colors.loop, colors.loop, colors.loop, '#ffffff',
    ])
  })

  it('marks the config\'s notice and refusal over the calls they follow, and the notice the session itself got', () => {
    expect([6, 7, 8, 9].map(call => at(call, 1))).toEqual(['#ffffff', colors.notice, '#ffffff', colors.refusal])
    expect([6, 7, 8, 9].map(call => at(call, 2))).toEqual(['#ffffff', colors.notice, '#ffffff', '#ffffff'])
  })

  it('counts in words that agree with the number', () => {
    expect(html).toContain('<h1>dsh-brake analyze: 1 session, config deny.yml</h1>')
  })
})

describe('the overview, first', () => {
  it('comes before the sessions, and Chromium draws it above the first timeline', () => {
    expect(html.indexOf('<h2>Overview</h2>')).toBeGreaterThan(0)
    expect(html.indexOf('<h2>Overview</h2>')).toBeLessThan(html.indexOf('<section class="session"'))
    // The overview's tables (figures, kinds, costliest loops) take the top of the page: the calls row lies well below.
    expect(origin.y).toBeGreaterThan(400)
  })

  it('names the costliest loop with its kind and cost, linking to its session', () => {
    expect(html).toContain('<td>identical calls (read a.txt)</td><td class="nowrap">calls 4–9</td><td><a href="#session-session-html">session-html</a></td>')
    expect(html).toContain('<section class="session" id="session-session-html">')
  })
})

describe('marks that fall on one call, as Chromium draws them', () => {
  let crowded: Image
  let crowdedHtml: string
  let corner: { x: number; y: number }
  /** Every colour drawn in call `call`'s place in row `row`, the cell and the gap after it. */
  const colorsAt = (call: number, row: number): Set<string> => {
    const found = new Set<string>()
    const x0 = corner.x + (call - 1) * pitch
    const y0 = corner.y + row * rowHeight
    for (let y = y0; y < y0 + cellHeight; y++) for (let x = x0; x < x0 + pitch; x++) found.add(crowded.color(x, y))
    return found
  }

  beforeAll(() => {
    // Live in stop mode: the 9th identical read (call 12) refused, with a notice riding its result, and the turn stopped there.
    const read = { name: 'read', args: { file_path: 'a.txt' }, result: 'same' }
    const script = new SessionScript(header('session-crowded')).prompt('go')
    // Three calls of work first, so that call 1 is drawn in the calls' own colour, where the test finds the grid.
    ;['b.txt', 'c.txt', 'd.txt'].forEach((other, index) => {
      if (index > 0) script.openStep()
      script.respond([{ name: 'read', args: { file_path: other }, result: other }])
    })
    for (let call = 4; call <= 11; call++) script.openStep().respond([read])
    const notice = brakeNotice('read × 9, same result')
    script.openStep().respond([{
      ...read, isError: true, notice,
      result: 'Error: dsh-brake refused this call: `read` has already run 8 times with these exact arguments while nothing changed; another identical call will not give a different answer.',
    }])
    script.openStep([notice])
    script.raw({ type: 'turn/end', data: { turn: 1, reason: { kind: 'aborted', reason: { kind: 'hook', reason: 'dsh-brake stopped the turn: a loop went on after its notice, with nothing changing. `read` was called 9 times.' } } } })
    return (async () => {
      const file = writeLog(dir, 'session-crowded', script.bytes())
      crowdedHtml = htmlReport(await analyzeSessions([file], [{ name: 'remind.yml', config: {} }]))
      crowded = render(crowdedHtml)
      corner = firstCell(crowded)
    })()
  }, 90_000)

  it('shows the notice, the refusal and the stop the session gave at call 12, none under another', () => {
    const seen = colorsAt(12, 2)
    expect(seen.has(colors.notice), 'the notice').toBe(true)
    expect(seen.has(colors.refusal), 'the refusal').toBe(true)
    expect(seen.has(colors.stop), 'the stop').toBe(true)
  })

  it('names each on hover as what it is: a notice after the call, the call refused, a stop after it', () => {
    expect(crowdedHtml).toContain('<title>notice after call 12: read × 9, same result</title>')
    expect(crowdedHtml).toContain('<title>call 12 refused: dsh-brake refused this call:')
    expect(crowdedHtml).toContain('<title>stop after call 12: dsh-brake stopped the turn:')
    expect(crowdedHtml).not.toContain('refusal after call')
  })
})
