/**
 * The profile's cordis.patch.yml edited while a long-lived dsh runs (`dsh --profile web`; no browser needed). The file
 * is watched by DSH, not by the brake: dsh-app-boot's `watchUserPatches` registers it with cordis-plugin-hmr, whose
 * chokidar watcher reads it at the first change it reports and drops a second change within 50 ms. A save written in
 * place first empties the file, so DSH can read it empty and refuse it as a whole, then miss the content that follows;
 * stock dsh says nothing of it. The brake says it on dsh's terminal, and what brings DSH to read the file again: the
 * next change, a `touch`.
 */
import { truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanUp, homeWithBrake, workspace, writeUserPatch } from './dsh-cli.ts'
import { serveWeb } from './web-page.ts'

let home = ''

beforeAll(async () => {
  home = await homeWithBrake('web')
}, 120_000)

afterAll(() => {
  cleanUp()
})

/** How many times `pattern` occurs in `text`. */
const count = (text: string, pattern: RegExp): number => text.match(new RegExp(pattern.source, 'g'))?.length ?? 0

describe('cordis.patch.yml edited while dsh runs', () => {
  it('a save DSH reads emptied, as a write in place can be read, is said on dsh\'s terminal; a touch has DSH read the file again', async () => {
    writeUserPatch(home, '- id: dsh-brake\n  config:\n    callWarnCount: 7\n', 'web')
    const file = join(home, 'profiles/web/cordis.patch.yml')
    // No model is reached: nothing is prompted.
    const web = await serveWeb(home, 'http://127.0.0.1:9', workspace())
    try {
      // What a save written in place is at first (`cat > cordis.patch.yml`): the file emptied, its content yet to come.
      truncateSync(file)
      const unread = new RegExp(`dsh-brake: DSH could not read your edit of ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(it found no list of rows in it\\)`)
      await expect.poll(() => count(web.output(), unread), { timeout: 60_000, interval: 100 }).toBe(1)
      expect(web.output()).toContain(`save it again, or \`touch ${file}\``)
      // The content, written in place: a value the brake refuses, so that DSH reading it is seen. If DSH's watcher
      // dropped the write (within 50 ms of the emptying), it never reads it; a touch has it read the file again.
      writeFileSync(file, '- id: dsh-brake\n  config:\n    mode: stopp\n')
      const refused = /dsh-brake: your edit of .*cordis\.patch\.yml was not applied; .*`mode` must be one of `remind`, `deny`, `stop`, got "stopp"/
      /** Touch the file until the brake has said the refusal more than `told` times: DSH read the file again. */
      const touchUntilRead = (told: number): Promise<void> => expect.poll(() => {
        const seen = count(web.output(), refused)
        if (seen <= told) utimesSync(file, new Date(), new Date())
        return seen
      }, { timeout: 60_000, interval: 500 }).toBeGreaterThan(told)
      await touchUntilRead(0)
      // A touch alone, the content unchanged: DSH reads the file again, and the brake says again why it keeps its config.
      await touchUntilRead(count(web.output(), refused))
    } finally {
      web.stop()
    }
  })
})
