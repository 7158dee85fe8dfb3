/**
 * The response corpus: long responses that repeat a shape without repeating themselves (traps: none may be cut), and
 * responses that fell into repeating themselves (loops: each must be cut, soon after the repetition begins). Each is
 * the whole response the model would write; the tests stream it in token-sized deltas.
 */

export interface ResponseCase {
  readonly name: string
  readonly kind: 'trap' | 'loop'
  /** Where it streams: the visible answer, or the reasoning before it. */
  readonly part: 'text' | 'reasoning'
  readonly text: string
  /**
   * For a loop: where its repetition begins, and the unit it repeats as the notice should quote it (for prose that
   * keeps coming back, its sentences that came back, in the order they first did in the last 3,200 characters); and,
   * for a form the copies rule does not bound (lines of data, white space, prose coming back), `within`: the most
   * characters of the repetition that stream before the cut, by that form's own rule.
   */
  readonly loop?: { readonly from: number; readonly unit: string; readonly within?: number }
  /** Text of the request the response quotes from (a tool's output), when it quotes. */
  readonly request?: string
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i)
const lines = (n: number, line: (i: number) => string): string => range(n).map(line).join('\n') + '\n'

/**
 * Deterministic stand-ins for the varied names and values of real output, in no cycle: real names do not come back
 * every 15 lines, and a cycle with its numbers folded would be a repetition no real text holds.
 */
const WORDS = ['parse', 'render', 'config', 'session', 'token', 'buffer', 'cache', 'route', 'schema', 'client', 'worker', 'queue', 'index', 'stream', 'limit']
const scatter = (i: number): number => Math.imul(i + 1, 2_654_435_761) >>> 7
const word = (i: number): string => WORDS[scatter(i) % WORDS.length]!
const pick = <T>(items: readonly T[], i: number): T => items[scatter(i + 1000) % items.length]!

/** Notes that follow a quote: a few lines saying different things. */
const notes = (n: number): string => '\nNotes:\n' + lines(n, i => `- ${word(i)} in src/${word(i + 2)}.ts is called from ${word(i + 5)}() at line ${40 + i * 7}, before the ${word(i + 3)} is ready.`)

/** A loop: `before`, then `unit` over and over (`times`), as a model that fell into it writes until its cap. */
function looping(name: string, part: ResponseCase['part'], before: string, unit: string, times: number, quoted = unit, within?: number): ResponseCase {
  return { name, kind: 'loop', part, text: before + unit.repeat(times), loop: { from: before.length, unit: quoted, ...(within === undefined ? {} : { within }) } }
}

/** A loop that drifts: `before`, then `copy(i)` for `times` copies; `unit` and `within` as for {@link looping}. */
function drifting(name: string, part: ResponseCase['part'], before: string, copy: (i: number) => string, times: number, unit: string, within: number): ResponseCase {
  return { name, kind: 'loop', part, text: before + range(times).map(copy).join(''), loop: { from: before.length, unit, within } }
}

function trap(name: string, part: ResponseCase['part'], text: string): ResponseCase {
  return { name, kind: 'trap', part, text }
}

/** A trap that quotes `request`, a tool's output the conversation holds, whole: `quote(request)` is the response. */
function quoting(name: string, part: ResponseCase['part'], request: string, quote: (request: string) => string): ResponseCase {
  return { name, kind: 'trap', part, text: quote(request), request }
}

const TRACEBACK = 'Traceback (most recent call last):\n  File "/testbed/run.py", line 3, in <module>\n    main()\n'
  + '  File "/testbed/sympy/core/evalf.py", line 1412, in evalf\n    r = rf(x, prec, options)\n  File "/testbed/sympy/core/evalf.py", line 590, in evalf_add\n    terms = [evalf(arg, prec + 10, options) for arg in v.args]\n  File "/testbed/sympy/core/evalf.py", line 1398, in evalf\n    re_acc = evalf(arg, working_prec, options)\n'.repeat(24)
  + 'RecursionError: maximum recursion depth exceeded while calling a Python object\n'
const STACK = 'Exception in thread "main" java.lang.StackOverflowError\n' + Array.from({ length: 120 }, () => '\tat com.example.tree.Node.depth(Node.java:42)\n').join('') + '\t... 904 more\n'
const DEBUG = 'DEBUG: Rectangle _update_patch_limits count=10 max_y=1.0\n'.repeat(98) + 'Traceback (most recent call last):\n  File "/testbed/repro.py", line 9, in <module>\n    assert ax.dataLim.y1 > 1\nAssertionError\n'

/** A paragraph's sentences, for a response that re-prints it in fragments and one that says it twice. */
const PARAGRAPH = [
  'The cache is rebuilt on every deploy, so the first request after a release is slow.',
  'It holds the compiled templates and the parsed routes.',
  'Warming it in the build step would move that cost out of the request path.',
  'The simplest way is to render every route once before the container starts.',
  'That adds about forty seconds to the build.',
]

/** A summary of some length with no sentence said twice in it, for a response that says it all twice. */
const SUMMARY = range(24).map(i => `Step ${i + 1} moved the ${word(i)} handling out of src/${word(i + 1)}.ts into its own module, so the ${word(i + 2)} tests no longer start a server (case ${i + 1}).`).join(' ')

export const RESPONSES: readonly ResponseCase[] = [
  trap('a test table of 300 rows', 'text', '```ts\nit.each([\n' + lines(300, i => `  ['adds ${i} and ${i * 3}', ${i}, ${i * 3}, ${i * 4}],`) + '])(\'%s\', (_, a, b, sum) => {\n  expect(add(a, b)).toBe(sum)\n})\n```\n'),
  trap('an array literal of 200 similar entries', 'text', 'const users = [\n' + lines(200, i => `  { id: ${i}, name: 'user-${i}', active: ${i % 2 === 0} },`) + ']\n'),
  trap('a generated enum of 600 members', 'text', 'export enum Opcode {\n' + lines(600, i => `  OP_${i.toString(16).padStart(3, '0').toUpperCase()} = 0x${i.toString(16).padStart(3, '0')},`) + '}\n'),
  trap('a long Markdown table', 'text', '| File | Lines | Covered | % |\n|---|---|---|---|\n' + lines(250, i => `| src/${word(i)}/${word(i + 1)}-${i}.ts | ${100 + i * 7} | ${90 + i * 6} | ${(90 + (i % 10)).toFixed(1)} |`)),
  trap('a quoted log of retries', 'text', 'The service log shows the retries:\n\n```\n' + lines(120, i => `2026-11-30T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(i * 37 % 1000).padStart(3, '0')}Z WARN db: connection to 10.0.0.5:5432 refused, retrying (attempt ${i + 1}/120)`) + '```\n'),
  // The longest exact repetitions in the real tool outputs of the evaluation's traces: a traceback of mutual recursion,
  // and a debug line printed in a loop. Quoted whole from the tool output the conversation holds, none may be cut.
  quoting('a quoted traceback of mutual recursion', 'text', TRACEBACK, output => `The test fails with:\n\n\`\`\`\n${output}\`\`\`\n\nEach \`evalf\` of an \`Add\` evaluates its terms with more precision, which comes back to \`evalf_add\` for the same term.\n` + notes(8)),
  quoting('a quoted stack trace with 120 identical frames', 'text', STACK, output => 'The crash:\n\n```\n' + output + 'Caused by: java.lang.IllegalStateException: cycle\n' + lines(40, i => `\tat com.example.${word(i)}.${word(i + 1)}.${word(i + 2)}(${word(i)}.java:${20 + i * 3})`) + '```\n\n`depth` calls itself without a base case for a cyclic tree; the fix is to track visited nodes.\n' + notes(8)),
  quoting('a debug line printed in a loop, quoted', 'text', DEBUG, output => 'The debug output of the failing run:\n\n```\n' + output + '```\n\nThe limits never grow past 1.0 because `_update_patch_limits` skips patches with zero height; '
    + lines(40, i => `- patch ${i}: height ${(i * 0.37).toFixed(2)}, y0 ${(i * 0.11).toFixed(2)}, counted: ${i % 3 === 0 ? 'no' : 'yes'}`) + notes(8)),
  trap('a JSON array of similar objects', 'text', '[\n' + range(150).map(i => `  {"key": "menu.${word(i)}.${i}", "en": "${word(i + 2)} ${i}", "fr": "${word(i + 4)} ${i}", "status": "translated"}`).join(',\n') + '\n]\n'),
  trap('a numbered list whose items share a prefix', 'text', lines(150, i => `${i + 1}. Update the import in src/components/${word(i)}/${word(i + 5)}${i}.tsx to use the new path`)),
  trap('a song\'s refrain, asked for', 'text', range(24).map(i => `Verse ${i + 1}:\n${pick(['We rolled the logs at midnight', 'The build was green by morning', 'A cache that never faded', 'The queue ran dry at seven', 'The pager never rang', 'We merged before the rain', 'The diff was small and kind'], i)}, ${word(i)} on every line,\nAnd every ${word(i + 3)} we shipped was fine.\n\nChorus:\nOh the loop goes round and round, and the brake it holds the ground,\nWe stop before the cap, and we never lose the map,\nOh the loop goes round and round.\n`).join('\n') + '\n' + 'Chorus, sixteen times as you asked:\n' + 'Oh the loop goes round and round, and the brake it holds the ground,\nWe stop before the cap, and we never lose the map,\nOh the loop goes round and round.\n'.repeat(16)),
  trap('the same file line quoted once per finding', 'text', lines(80, i => `${i + 1}. \`src/db.ts:88\`: \`const rows = await query(sql)\` — ${pick(['the result is not checked for an empty set', 'the query is built by concatenation', 'no timeout is passed', 'the error is swallowed by the caller', 'rows are read twice'], i)} when ${word(i)} is ${word(i + 1)} (case ${i + 1}).\n`)),
  trap('a long answer that repeats a heading format', 'text', range(80).map(i => `## Finding ${i + 1}: ${word(i)} ${word(i + 2)}\n\n**Severity:** ${pick(['high', 'medium', 'low'], i)}\n**File:** src/${word(i + 1)}.ts:${10 + i * 3}\n**Fix:** ${pick(['validate the input', 'add a timeout', 'close the handle', 'log the failure'], i)} before ${word(i + 4)}.\n`).join('\n')),
  trap('reasoning that checks many similar files', 'reasoning', lines(120, i => `Check src/${word(i)}/${word(i + 1)}-${i}.ts: it imports ${word(i + 2)} from ../${word(i + 3)}, which still exists, so that one is fine.`)),
  trap('a CSS block of similar rules', 'text', lines(400, i => `.m-${i} { margin: ${i * 4}px; }`)),
  // Lines of data that repeat back to back, fewer than the 100 copies that count.
  trap('a blank form of 90 empty rows', 'text', 'Here is the sign-in sheet for the workshop, ready to print:\n\n| Name | Team | Arrived | Left | Signature |\n| --- | --- | --- | --- | --- |\n' + '|      |      |         |      |           |\n'.repeat(90) + '\nFill in one row per person; leave the Left column empty until the session ends.\n'),
  trap('boxes 30 rows tall in an ASCII diagram', 'text', '```\n' + range(4).map(i => `+----------------------+\n|   ${`${word(i)} stage`.padEnd(19)}|\n${'|                      |\n'.repeat(30)}+----------------------+\n           |\n           v\n`).join('') + '```\n'),
  trap('a zero matrix of 64 rows', 'text', 'The weights start at zero, 64 rows of 24 columns:\n\n```\n' + `${Array.from({ length: 24 }, () => '0.0').join(' ')}\n`.repeat(64) + '```\n\nThe first update fills row 0 only.\n'),
  // White space: a screen cleared in a terminal capture (the real tool outputs hold up to 227 line breaks in a row).
  trap('a terminal capture with a screen of blank lines', 'text', 'The watcher\'s output, as captured:\n\n```\n' + lines(70, i => `[${word(i)}] rebuilt src/${word(i + 1)}/${word(i + 2)}.ts in ${20 + i * 3} ms`) + '\n'.repeat(230) + 'watching for changes\n```\n'),
  // Sentences and lines that come back, though less than a loop's: a list whose items are new, a song's chorus between
  // its verses, a passage said twice, a question asked again between findings.
  trap('a checklist whose items differ in one noun', 'text', lines(60, i => `- [ ] Translate the settings page into ${['German', 'French', 'Spanish', 'Italian', 'Dutch', 'Polish', 'Czech', 'Swedish', 'Danish', 'Finnish', 'Greek', 'Turkish', 'Hungarian', 'Romanian', 'Portuguese'][i % 15]!}${i < 15 ? '' : ` (${['Brazil', 'Austria', 'Mexico', 'Belgium'][Math.floor(i / 15) - 1]!})`}, then check that no label is cut off.`)),
  trap('a song with its chorus after every verse', 'text', range(12).map(i => `Verse ${i + 1}:\nThe ${word(i)} woke early on the ${word(i + 4)} line,\nAnd ${word(i + 2)} ${i + 1} came down the ${word(i + 7)} stair,\nWe fixed the ${word(i + 9)} before the bell of ${i + 2},\nAnd left the ${word(i + 11)} standing there.\n\nChorus:\nOh the loop goes round and round, and the brake it holds the ground,\nWe stop before the cap, and we never lose the map,\nOh the loop goes round and round.\n`).join('\n')),
  trap('a long passage said twice', 'text', `${SUMMARY}\n\nTo recap, word for word:\n\n${SUMMARY}\n`),
  trap('reasoning that asks the same question between findings', 'reasoning', lines(60, i => `Checked src/${word(i)}/${word(i + 1)}-${i}.ts: it ${pick(['imports the old client', 'reads the config twice', 'never closes the stream', 'is fine'], i)}. Is this what makes the build slow? Not on its own.`)),
  looping('a reasoning passage repeated 400 times', 'reasoning', 'The server did not start. Port 8080 is still held by the earlier run. ', 'I\'ll kill the stale process now. Then I will start the server again and check the port. ', 400),
  looping('an answer whose last sentence repeats 300 times', 'text', 'The migration is done: both tables have the new column and the backfill ran for all 12,000 rows. ', 'Everything is complete and verified, and the migration needs no further work from you. ', 300),
  looping('one token repeated 5,000 times', 'text', 'The verdict of the ', 'court ', 5000, 'court '),
  looping('"not called" in reasoning, a thousand times', 'reasoning', 'The handler is registered but ', 'not called, ', 1000),
  looping('one long line repeated until the cap', 'text', 'Here is the log:\n', '[INFO] Waiting for the deployment to become ready (replicas 0/3)\n', 2000),
  looping('a paragraph repeated', 'text', 'Summary of the review.\n\n', 'The change keeps the public API as it was. It moves the parsing into its own module, adds tests for the two edge cases the issue names, and updates the changelog. Nothing else changes for callers, and the benchmarks are within noise.\n\n', 60),
  looping('a sentence in Chinese repeated', 'reasoning', '端口仍被占用。', '我现在就去结束那个过期的进程。', 600),
  looping('closing braces forever', 'text', 'function f() {\n  if (a) {\n    return b\n', '  }\n', 3000),
  // Forms the copies rule does not bound: an empty row of a table (data: 100 copies count), white space (3,200
  // characters, or 800 line breaks), a paragraph re-printed in fragments cut at different points (prose coming back).
  looping('an empty table row until the cap', 'text', 'Results so far:\n\n| Case | Expected | Actual |\n| --- | --- | --- |\n', '|      |          |        |\n', 4000, '|      |          |        |\n', 164 * 29),
  looping('spaces until the cap', 'text', 'The table is aligned below.', ' ', 20_000, ' ', 3_200 + 6),
  drifting('a paragraph re-printed in fragments cut at different points', 'text', 'Why the first request is slow.\n\n',
    i => `${PARAGRAPH.slice(0, 1 + scatter(i) % PARAGRAPH.length).join(' ')}\n\n`, 300,
    `${PARAGRAPH.slice(0, 4).join(' ')}\n${PARAGRAPH[4]}\n`, 4400),
]

/**
 * `text` in deltas about a token long, as a provider streams it: a word with its leading space, or a few characters;
 * a run of white space in pieces of at most 8 (a model emitting line breaks emits a token of a few at a time).
 */
export function* tokens(text: string): Generator<string> {
  for (const match of text.matchAll(/\s{0,8}[^\s]{1,6}|\s{1,8}/gu)) yield match[0]
}
