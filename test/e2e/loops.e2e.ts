/**
 * The loops a person sees and no exact repeat shows, on the real `dsh` CLI: searches under other spellings that all
 * come back empty, windows of a file paged over again, a debug line inserted, removed and inserted again with the same
 * SyntaxError, and the same NameError from another file after every edit. Only the model is scripted; the stock
 * headless tools run for real in a temporary workspace (python3 from the machine's PATH), with the stock
 * repeat-tool-reminder off so only the brake speaks. Each loop is told once, at the call a person would say it; the
 * work that looks like them (exploring different files, one pass through a long file, refinements down to a hit) is
 * left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cleanUp, homeWithBrake, noticesSent, play, sessionEvents, storedNotices } from './dsh-cli.ts'
import type { Answer, ModelServer } from './model-server.ts'

const call = (name: string, args: unknown): Answer => ({ calls: [{ name, args }] })
/** The README's way to hear only dsh-brake: the stock repeat-tool-reminder turned off. */
const BRAKE_ALONE = '- id: repeat-tool-reminder\n  disabled: true\n'

let home: string

/** Play `script` in a fresh workspace with `files`, the brake alone. */
const alone = (script: Answer[], files: Record<string, string>): ReturnType<typeof play> => play(home, script, BRAKE_ALONE, files)

/** Each notice the model was sent: the request it first came in, and its first line. */
const heard = (model: ModelServer): [number, string][] => noticesSent(model).map(n => [n.request, n.text.split('\n')[0]!])

beforeAll(async () => {
  home = await homeWithBrake()
})

afterAll(() => {
  cleanUp()
})

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i)
/** A short source file, for searches. */
const PARSER = 'import { load } from "./load"\nexport class Parser {\n  parse(text: string) {\n    return load(text)\n  }\n}\n'
/** A long file: `lines` numbered lines. */
const long = (lines: number): string => range(lines).map(i => `line ${i + 1}: step_${i + 1}()`).join('\n') + '\n'

/** A check whose error is raised in a multi-line call: a line inserted inside the call breaks the module. */
const MODELS = 'def check(code):\n    raise ValueError(\n        "missing code"\n    )\n'
const REPRODUCE = 'from models import check\ntry:\n    check(None)\nexcept ValueError as error:\n    print("FAILURE: no error code:", error)\n    raise SystemExit(1)\n'
const DEBUG_LINE = '        print("DEBUG: code", code)'

/** A reproduction whose NameError comes from a helper in another file, whatever the script says. */
const HELPER = 'def check_constraints(table_names):\n    for table_name in table_names:\n        connection.check(table_name)\n'
const REPRO = '# attempt 0\nfrom helper import check_constraints\nprint("Attempting to check constraints...")\ncheck_constraints(["order"])\n'

/** Two bodies of one function, written with printf by turns: each fails its own way (`\\n` is printf's line break). */
const BODY_A = 'total = 0\\ndef add(n):\\n    total += n\\n    return total\\nprint(add(1))\\n'
const BODY_B = 'def add(n):\\n    return total + n\\nprint(add(1))\\n'

/** A download that fails with the same exception wherever it runs. */
const FETCH = 'print("connecting to the mirror...")\nraise ConnectionError("mirror unreachable: connection refused")\n'

describe('loops that no exact repeat shows, told once', () => {
  it('five spellings of a name, every grep empty, then the same greps again: told at the sixth', async () => {
    const spellings = ['parse_config', 'def parse_config', 'parseConfig', 'parse_conf', 'load_config']
    const greps = range(2).flatMap(() => spellings.map(pattern => call('grep', { pattern, path: 'parser.ts' })))
    const { run, server: model, cwd } = await alone(greps, { 'parser.ts': PARSER })
    expect(run.code, run.stderr).toBe(0)
    expect(heard(model)).toEqual([[7, '[dsh-brake] 6 of your latest calls, 5 different ones, brought nothing new: each found nothing, or what you already had.']])
    expect(storedNotices(sessionEvents(home, cwd)).map(n => n.summary)).toEqual(['6 calls brought nothing new'])
  })

  it('windows of a long file read backwards, then forwards over the same ranges: told at the fourth window over old ground', async () => {
    const windows = [200, 180, 160, 140, 120, 100, 100, 120, 140, 160, 180, 200].map(offset => call('read', { file_path: 'server.log', offset, limit: 20 }))
    const { run, server: model, cwd } = await alone(windows, { 'server.log': long(240) })
    expect(run.code, run.stderr).toBe(0)
    // The fourth window over old ground, not the first forward one (the window just read), is told: call 11.
    expect(heard(model)).toEqual([[12, '[dsh-brake] You are paging over old ground: 4 windows of `server.log` went over lines you had already read, with nothing changed since (lines 120-199).']])
    expect(storedNotices(sessionEvents(home, cwd)).map(n => n.summary)).toEqual(['server.log: 4 windows over old ground'])
  })

  it('a debug line inserted with sed, removed, inserted again at the same spot, the same SyntaxError: told at the run after', async () => {
    const reproduce = call('bash', { command: 'python3 reproduce.py', description: 'Reproduce' })
    const script = [
      reproduce,
      call('bash', { command: `sed -i '3i\\${DEBUG_LINE}' models.py`, description: 'Add a debug print' }),
      reproduce,
      call('read', { file_path: 'models.py' }),
      call('bash', { command: "sed -i '3d' models.py", description: 'Remove it' }),
      call('bash', { command: `sed -i '2a\\${DEBUG_LINE}' models.py`, description: 'Add it inside the raise' }),
      reproduce,
    ]
    const { run, server: model, cwd } = await alone(script, { 'models.py': MODELS, 'reproduce.py': REPRODUCE })
    expect(run.code, run.stderr).toBe(0)
    // The re-inserted line's run, call 7, fails as the first insertion's did.
    expect(heard(model)).toEqual([[8, '[dsh-brake] You undid an edit to models.py and made it again, and `bash` {"command":"python3 reproduce.py"} fails as before:']])
    // python3 really ran the module: the line inside the call is what it cannot parse.
    expect(noticesSent(model)[0]!.text).toContain('SyntaxError: invalid syntax')
    expect(storedNotices(sessionEvents(home, cwd)).map(n => n.summary)).toEqual(['edit undone and redone: models.py'])
  })

  it('three edits to the reproduction while the same NameError comes from another file: told at the third failure, once', async () => {
    const reproduce = call('bash', { command: 'python3 reproduce.py', description: 'Reproduce' })
    // The edit tool edits only a file read before.
    const script = [call('read', { file_path: 'reproduce.py' }), reproduce, ...range(3).flatMap(i => [
      call('edit', { file_path: 'reproduce.py', old_string: `# attempt ${i}`, new_string: `# attempt ${i + 1}` }),
      reproduce,
    ])]
    const { run, server: model, cwd } = await alone(script, { 'helper.py': HELPER, 'reproduce.py': REPRO })
    expect(run.code, run.stderr).toBe(0)
    // Told at the third run failing the same way, the second after an edit; the fourth is the same loop, not told again.
    const sent = noticesSent(model)
    expect(heard(model)).toEqual([[7, '[dsh-brake] `bash` {"command":"python3 reproduce.py"} failed the same way 3 times in a row, each after you edited reproduce.py:']])
    expect(sent[0]!.text).toContain('helper.py, which those edits did not touch.')
    expect(storedNotices(sessionEvents(home, cwd)).map(n => n.summary)).toEqual(['bash failed × 3 after edits, same failure'])
  })

  it('two bodies written by turns with printf, each failing its own way again: told at the second lap', async () => {
    const run = call('bash', { command: 'python3 app.py', description: 'Run it' })
    const write = (body: string): Answer => call('bash', { command: `printf '${body}' > app.py`, description: 'Rewrite add' })
    const script = [write(BODY_A), run, write(BODY_B), run, write(BODY_A), run, write(BODY_B), run]
    const { run: dsh, server: model, cwd } = await alone(script, {})
    expect(dsh.code, dsh.stderr).toBe(0)
    // The first body written again (call 5) fails as it did (call 6): the shell edit undone and redone is seen.
    expect(heard(model)).toEqual([[7, '[dsh-brake] You undid an edit to app.py and made it again, and `bash` {"command":"python3 app.py"} fails as before:']])
    expect(noticesSent(model)[0]!.text).toContain('UnboundLocalError')
    expect(storedNotices(sessionEvents(home, cwd)).map(n => n.summary)).toEqual(['edit undone and redone: app.py'])
  })

  it('the same script under timeout, nohup and sh -c, failing the same way each time: told at the fourth', async () => {
    const wrappers = ['python3 fetch.py', 'timeout 30 python3 fetch.py', 'nohup python3 fetch.py', "sh -c 'python3 fetch.py'"]
    const script = wrappers.map(command => call('bash', { command, description: 'Fetch the data' }))
    const { run, server: model, cwd } = await alone(script, { 'fetch.py': FETCH })
    expect(run.code, run.stderr).toBe(0)
    // One exception from four commands, nothing changed between: the wrappers are not what fails.
    expect(noticesSent(model).map(n => [n.request, n.text])).toEqual([[5, [
      '[dsh-brake] 4 runs under 4 different commands ended the same way, the latest `bash` {"command":"sh -c \'python3 fetch.py\'"}:',
      'ConnectionError: mirror unreachable: connection refused',
      // Python names the script it runs by its full path.
      `Another script, wrapper or flag does not change this outcome. It is raised in ${cwd}/fetch.py. Find what causes it before you run it again, or tell the user what is blocking you.`,
    ].join('\n')]])
    expect(storedNotices(sessionEvents(home, cwd)).map(n => n.summary)).toEqual(['4 runs, 4 commands, same failure'])
  })
})

describe('work that looks like those loops, left alone', () => {
  const FILES = ['parser', 'lexer', 'ast', 'emit', 'check', 'load', 'cli', 'config']

  it('exploring different files: a window and a grep in each of eight', async () => {
    const script = FILES.flatMap(file => [
      call('read', { file_path: `${file}.ts`, offset: 1, limit: 40 }), call('grep', { pattern: `${file}Options`, path: `${file}.ts` }),
    ])
    const files = Object.fromEntries(FILES.map(file => [`${file}.ts`, `export interface ${file}Options {}\n${long(60)}`]))
    const { run, server: model, cwd } = await alone(script, files)
    expect(run.code, run.stderr).toBe(0)
    expect(noticesSent(model)).toEqual([])
    expect(storedNotices(sessionEvents(home, cwd))).toEqual([])
  })

  it('one pass through a long file in windows, backwards then on', async () => {
    const script = [600, 560, 520, 480, 440, 400, 640, 680, 720, 760, 800, 840].map(offset => call('read', { file_path: 'parser.log', offset, limit: 40 }))
    const { run, server: model, cwd } = await alone(script, { 'parser.log': long(900) })
    expect(run.code, run.stderr).toBe(0)
    expect(noticesSent(model)).toEqual([])
    expect(storedNotices(sessionEvents(home, cwd))).toEqual([])
  })

  it('grep refinements that narrow down to a hit', async () => {
    const script = ['parse_text', 'parseText', 'parse(', 'parse', 'return load', 'load(text)'].map(pattern => call('grep', { pattern, path: 'parser.ts' }))
    const { run, server: model, cwd } = await alone(script, { 'parser.ts': PARSER })
    expect(run.code, run.stderr).toBe(0)
    expect(noticesSent(model)).toEqual([])
    expect(storedNotices(sessionEvents(home, cwd))).toEqual([])
  })
})
