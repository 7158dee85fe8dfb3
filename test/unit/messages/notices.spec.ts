import { describe, expect, it } from 'vitest'
import type { DuplicateBlock, IdenticalCallsFinding, LoopFinding } from '../../../src/core/kinds.ts'
import type { Told } from '../../../src/core/voice.ts'
import { ARGS_PREVIEW_CHARS, SUMMARY_CHARS } from '../../../src/messages/limits.ts'
import { clip } from '../../../src/words/text.ts'
import { duplicateTextNotice, findingNotice, loopNotice, sourceLabel, stopNotice, stopReason } from '../../../src/messages/notices.ts'
import { isStopReason } from '../../../src/dsh/readings.ts'

const wellFormed = (text: string): boolean => text.isWellFormed()
/** What the voice tells of a loop whose call shows nothing but `finding`. */
const alone = (finding: LoopFinding): Told => ({ finding, also: [], again: false, exactBefore: false })

describe('repeated-call notice', () => {
  const call = (over: Partial<IdenticalCallsFinding> = {}): IdenticalCallsFinding => ({
    kind: 'identical-calls', tool: 'read', toolClass: 'read', args: '{"file_path":"a.ts"}', count: 6, evidence: 'same-result', ...over,
  })

  it('says what was seen and what to do instead', () => {
    const { text, summary } = findingNotice(call())
    expect(text).toBe([
      '[dsh-brake] You have called `read` with these exact arguments 6 times and got the same result each time:',
      '{"file_path":"a.ts"}',
      'Calling it again will not tell you anything new. Use the result you already have, change the arguments, or take a different approach. If something is blocking you, stop and tell the user what it is.',
    ].join('\n'))
    expect(summary).toBe('read × 6, same result')
  })

  it.each<[string, Partial<IdenticalCallsFinding>, string, string]>([
    ['a failing command', { tool: 'bash', toolClass: 'default', evidence: 'same-failure' }, 'and it failed the same way each time:', 'Calling it again will not tell you anything new.'],
    ['a poll', { tool: 'job_output', toolClass: 'poller' }, 'and got the same result each time:', 'Polling more often will not make it finish sooner.'],
    ['a change', { tool: 'write', toolClass: 'mutating' }, 'and got the same result each time:', 'Making the same change again will not change the outcome.'],
    ['plain counting with changing results', { tool: 'bash', toolClass: 'default', evidence: 'changed' }, 'since the last user message, although the results changed along the way:', 'If each run is the progress you expect, carry on'],
  ])('fits evidence and advice to %s', (_, over, evidence, advice) => {
    const [first, , third] = findingNotice(call(over)).text.split('\n')
    expect(first).toMatch(new RegExp(` 6 times ${evidence.replace(/[.,:]/g, '\\$&')}$`))
    expect(third!.startsWith(advice)).toBe(true)
  })

  it('warns about refusals in deny mode, only while below the deny count, and never for pollers', () => {
    expect(loopNotice(alone(call()), 10).text).toMatch(/\nIdentical calls beyond 10 are refused until something changes or the user speaks again\.$/)
    expect(loopNotice(alone(call({ count: 11 })), 10).text).not.toContain('refused')
    expect(loopNotice(alone(call())).text).not.toContain('refused')
    expect(loopNotice(alone(call({ toolClass: 'poller' })), 10).text).not.toContain('refused')
  })

  it('inserts arguments as they are, never expanding placeholders inside them', () => {
    const { text } = findingNotice(call({ tool: '{count}', args: '{"q":"{tool} {count}"}' }))
    expect(text.split('\n').slice(0, 2)).toEqual([
      '[dsh-brake] You have called `{count}` with these exact arguments 6 times and got the same result each time:',
      '{"q":"{tool} {count}"}',
    ])
  })

  it('quotes a bounded preview of huge arguments and a bounded tool name', () => {
    const args = JSON.stringify({ body: 'x'.repeat(10_000_000) })
    const tool = 't'.repeat(5000)
    const { text, summary } = findingNotice(call({ tool, args }))
    expect(text.length).toBeLessThan(1000)
    expect(text).toContain(`${args.slice(0, ARGS_PREVIEW_CHARS)}… (+${args.length - ARGS_PREVIEW_CHARS} more chars)`)
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_CHARS)
  })
})

describe('sequence notice', () => {
  it('names the cycle and the laps', () => {
    const { text, summary } = findingNotice({ kind: 'cycle', tools: ['grep', 'curl', 'read', 'bash'], laps: 3, sameResults: true })
    expect(text).toBe([
      '[dsh-brake] The same 4 calls have run 3 times in a row, each time with the same arguments and the same results: grep → curl → read → bash.',
      'This cycle is not making progress. Change one of its steps (other arguments or another tool), or stop and tell the user what is blocking you.',
    ].join('\n'))
    expect(summary).toBe('cycle × 3: grep → curl → read → bash')
  })

  it('keeps the summary within 120 characters for long cycles', () => {
    const tools = Array.from({ length: 32 }, (_, i) => `tool_with_a_long_name_${i}`)
    const { summary, text } = findingNotice({ kind: 'cycle', tools, laps: 3, sameResults: false })
    expect(text).toContain('each time with the same arguments: tool_with')
    expect(summary.length).toBe(SUMMARY_CHARS)
    expect(summary.endsWith('…')).toBe(true)
  })
})

describe('duplicate-text notice', () => {
  const block = (over: Partial<DuplicateBlock> = {}): DuplicateBlock => ({
    count: 3, sources: ['plugin hooks-claude-code'], head: 'Remember to run\nthe linter.', length: 27, ...over,
  })

  it('lists the block with its count, window, sources and a one-line preview', () => {
    const { text, summary } = duplicateTextNotice({ kind: 'duplicate-text', threshold: 3, windowMs: 120_000, blocks: [block()] })
    expect(text).toBe([
      '[dsh-brake] The same text keeps arriving in your context, unchanged:',
      '- 3 times within 2 min, from plugin hooks-claude-code: "Remember to run the linter."',
      'It repeats what you already have and is not a new instruction: do not redo work because of it. If it asks for something you cannot do, tell the user instead of trying again.',
    ].join('\n'))
    expect(summary).toBe('repeated text × 3 from plugin hooks-claude-code')
  })

  it('says how many of the occurrences fell in the window, and bounds the list and the preview', () => {
    const long = block({ count: 5, sources: ['plugin a', 'subagent-report'], head: 'y'.repeat(200), length: 5000 })
    const { text } = duplicateTextNotice({ kind: 'duplicate-text', threshold: 3, windowMs: 90_000, blocks: [long, block(), block(), block(), block()] })
    expect(text).toContain(`- 5 times, 3 of them within 90 s, from plugin a, subagent-report: "${'y'.repeat(120)}…"`)
    expect(text).toContain('- repeated blocks not shown: 2')
    expect(text.split('\n')).toHaveLength(6)
  })
})

describe('one notice per loop', () => {
  const cycle = { kind: 'cycle', tools: ['grep', 'read'], laps: 3, sameResults: true } as const
  const failing = { kind: 'same-error', tool: 'bash', count: 4, variants: 2, error: 'Error: no such file', cause: 'environment' } as const

  it('is the strongest finding\'s notice alone when nothing else adds to it', () => {
    expect(loopNotice(alone(cycle))).toEqual(findingNotice(cycle))
  })

  it('names what else the loop shows in one line after it, as a stop would name it', () => {
    const { text, summary } = loopNotice({ finding: cycle, also: [failing], again: false, exactBefore: false })
    expect(text).toBe(`${findingNotice(cycle).text}\nThe same loop also shows: \`bash\` failed 4 times with the same error: Error: no such file.`)
    expect(summary).toBe(findingNotice(cycle).summary)
  })

  it('ends with the refusals to come in deny mode, for calls that repeat exactly, after the rest of the loop', () => {
    const { text } = loopNotice({ finding: cycle, also: [failing], again: false, exactBefore: false }, 10)
    expect(text.split('\n').slice(-2)).toEqual([
      'The same loop also shows: `bash` failed 4 times with the same error: Error: no such file.',
      'Identical calls beyond 10 are refused until something changes or the user speaks again.',
    ])
    // One error across arguments is never refused.
    expect(loopNotice({ finding: failing, also: [], again: false, exactBefore: false }, 10).text).not.toContain('refused')
  })
})

describe('repeated-error notice', () => {
  it('says the inputs are not the problem, quoting the error', () => {
    const { text, summary } = findingNotice({
      kind: 'same-error', tool: 'read', count: 3, variants: 3, error: 'Error: cannot read "a.ts": not found', cause: 'environment',
    })
    expect(text).toBe([
      '[dsh-brake] `read` has failed 3 times with the same error, with 3 different sets of arguments:',
      'Error: cannot read "a.ts": not found',
      'The inputs are not the problem: something the tool depends on is wrong (a missing file or program, permissions, the environment). Find and fix that cause, use another tool, or tell the user what is blocking you.',
    ].join('\n'))
    expect(summary).toBe('read failed × 3, same error')
  })

  it('says the input is the problem when the tool rejected it', () => {
    const { text, summary } = findingNotice({
      kind: 'same-error', tool: 'edit', count: 5, variants: 4, error: 'Error: old_string was not found in "src/a.ts"', cause: 'input',
    })
    expect(text).toBe([
      '[dsh-brake] `edit` has rejected your input 5 times with the same error, with 4 different sets of arguments:',
      'Error: old_string was not found in "src/a.ts"',
      'The error is about what you sent. Read it closely and fix that exactly (re-read the current text before you edit it, check the format the tool expects), or take another approach, or tell the user what is blocking you.',
    ].join('\n'))
    expect(summary).toBe('edit rejected input × 5, same error')
  })
})

describe('same-failure notice', () => {
  const finding = {
    kind: 'same-failure', tool: 'bash', args: '{"command":"python reproduce.py"}', count: 3, failure: "NameError: name 'connection' is not defined",
    origin: '/repo/django/db/backends/sqlite3/base.py', edited: ['reproduce.py'], script: '', evidence: 'failure', commands: 1,
  } as const

  it('quotes the failure, names the files edited, and points to where the failure comes from', () => {
    const { text, summary } = findingNotice(finding)
    expect(text).toBe([
      '[dsh-brake] `bash` {"command":"python reproduce.py"} failed the same way 3 times in a row, each after you edited reproduce.py:',
      "NameError: name 'connection' is not defined",
      'Your edits miss its cause. It is raised in /repo/django/db/backends/sqlite3/base.py, which those edits did not touch. Find where it comes from before you edit again, or tell the user what is blocking you.',
    ].join('\n'))
    expect(summary).toBe('bash failed × 3 after edits, same failure')
  })

  it('says when the runs came from several commands (wrappers, scripts): another one will not change the outcome', () => {
    const { text, summary } = findingNotice({ ...finding, origin: '', count: 4, commands: 4, failure: 'timeout', args: '{"command":"timeout 30 python d.py"}' })
    expect(text).toBe([
      '[dsh-brake] 4 runs under 4 different commands ended the same way, the latest `bash` {"command":"timeout 30 python d.py"}:',
      'timeout',
      'Another script, wrapper or flag does not change this outcome. Find what causes it before you run it again, or tell the user what is blocking you.',
    ].join('\n'))
    expect(summary).toBe('4 runs, 4 commands, same failure')
  })

  it('points at the script the check runs when the failure passes through it from where it is raised', () => {
    const { text } = findingNotice({
      ...finding, failure: 'sqlite3.OperationalError: no such table: app_item', origin: '/repo/django/db/backends/sqlite3/base.py',
      script: 'repro.py', edited: ['django/db/models/query.py'],
    })
    expect(text).toContain('It is raised in /repo/django/db/backends/sqlite3/base.py when repro.py calls it: look at what repro.py itself sets up, names or imports. Find where')
    expect(text).not.toContain('which those edits did not touch')
  })

  it('says when one check showed the same output after every edit', () => {
    const { text, summary } = findingNotice({ ...finding, origin: '', evidence: 'output', failure: 'Actual: [[1 0]]' })
    expect(text).toContain('showed the same output 3 times, each after you edited reproduce.py, ending:\nActual: [[1 0]]\nYour edits do not change what it shows.')
    expect(summary).toBe('bash × 3 after edits, same output')
  })

  it('leaves out where it is raised when the output does not say, and never warns of refusals', () => {
    const { text } = loopNotice(alone({ ...finding, origin: '', edited: ['a.py', 'b.py'] }), 10)
    expect(text).toContain('each after you edited a.py, b.py:\n')
    expect(text).toContain('miss its cause. Find where')
    expect(text).not.toContain('refused')
  })
})

describe('edit-revert notice', () => {
  const redo = {
    kind: 'edit-revert', evidence: 'redo', tool: 'bash', args: '{"command":"python reproduce.py"}', file: 'app/models.py', count: 2,
    failure: 'SyntaxError: invalid syntax. Perhaps you forgot a comma?',
  } as const

  it('says the edit was undone and made again, with the same failure, and to decide which version to keep', () => {
    const { text, summary } = findingNotice(redo)
    expect(text).toBe([
      '[dsh-brake] You undid an edit to app/models.py and made it again, and `bash` {"command":"python reproduce.py"} fails as before:',
      'SyntaxError: invalid syntax. Perhaps you forgot a comma?',
      'Redoing it will not change the outcome. Decide which version of app/models.py you want and try something new, or tell the user what is blocking you.',
    ].join('\n'))
    expect(summary).toBe('edit undone and redone: app/models.py')
  })

  it('says a failure came back after the edits made it go away', () => {
    const { text, summary } = loopNotice(alone({ ...redo, evidence: 'back', file: '', count: 3, failure: 'IndentationError: unexpected indent' }), 10)
    expect(text.split('\n')[0]).toBe('[dsh-brake] `bash` {"command":"python reproduce.py"} has failed this way 3 times; each time your edits made the failure go away, it came back:')
    expect(text).not.toContain('refused')
    expect(summary).toBe('bash failure back × 3')
  })

  it('is named in a phrase where another notice shows the same loop', () => {
    const { text } = loopNotice({ finding: { kind: 'cycle', tools: ['edit', 'bash'], laps: 3, sameResults: true }, also: [redo], again: false, exactBefore: false })
    expect(text.split('\n').at(-1)).toBe('The same loop also shows: edits undid each other, and `bash` failed the same way 2 times: SyntaxError: invalid syntax. Perhaps you forgot a comma?.')
  })
})

describe('revisit notice', () => {
  it('says how long the run is and names the calls it keeps going back to, bounded', () => {
    const { text, summary } = findingNotice({
      kind: 'same-ground', count: 9,
      calls: [
        { tool: 'str_replace_editor', args: '{"command":"view","path":"/repo/sets.py","view_range":[1000,1050]}', count: 2 },
        { tool: 'grep', args: `{"pattern":"${'x'.repeat(300)}"}`, count: 2 },
      ],
    })
    expect(text.split('\n')).toEqual([
      '[dsh-brake] Your last 9 calls each repeated a call you had already made and got the same result as before, with nothing changed in between. The calls you keep going back to:',
      '- `str_replace_editor` {"command":"view","path":"/repo/sets.py","view_range":[1000,1050]} (2 times)',
      `- \`grep\` {"pattern":"${'x'.repeat(88)}… (+214 more chars) (2 times)`,
      'You are going over the same ground. Use what those results already told you, take a step you have not taken yet, or stop and tell the user what is blocking you.',
    ])
    expect(summary).toBe('9 calls in a row repeat earlier ones')
  })
})

describe('near-duplicate notice', () => {
  const found = {
    kind: 'near-duplicate', count: 6, variants: 5, mostly: 'nothing',
    calls: [
      { tool: 'grep', args: '{"path":"tests/test_qs.py","pattern":"test_exists_exclude"}', returned: 'repeat' },
      { tool: 'bash', args: `{"command":"grep -n \\"test_\\" tests/test_qs.py | grep -i ${'x'.repeat(100)}"}`, returned: 'nothing' },
      { tool: 'read', args: '{"file_path":"tests/test_qs.py","limit":20}', returned: 'seen' },
    ],
  } as const

  it('says how many calls brought nothing new, names the latest with what each returned, and advises by what most returned', () => {
    const { text, summary } = findingNotice(found)
    expect(text.split('\n')).toEqual([
      '[dsh-brake] 6 of your latest calls, 5 different ones, brought nothing new: each found nothing, or what you already had.',
      '- `grep` {"path":"tests/test_qs.py","pattern":"test_exists_exclude"}: the same result as before',
      `- \`bash\` {"command":"grep -n \\"test_\\" tests/test_qs.py | grep -i ${'x'.repeat(43)}… (+59 more chars): found nothing`,
      '- `read` {"file_path":"tests/test_qs.py","limit":20}: only lines you had already seen',
      'What you are looking for is not there under any of these names. Search wider (another directory, the whole repository) or differently (part of the name, a caller, the text of the error), check that your command can find anything at all (a filter may hide every result), or stop and tell the user what is blocking you.',
    ])
    expect(summary).toBe('6 calls brought nothing new')
  })

  it.each([
    ['same-output', 'Changing the wording or the flags does not change the answer.'],
    ['seen', 'You already have these results.'],
  ] as const)('advises on %s', (mostly, advice) => {
    expect(findingNotice({ ...found, mostly }).text.split('\n').at(-1)).toMatch(new RegExp(`^${advice}`))
  })

  it('never warns of refusals in deny mode: calls that differ are never refused', () => {
    expect(loopNotice({ finding: found, also: [], again: false, exactBefore: false }, 10).text).not.toContain('refused')
  })

  it('says the thing is likely not there, not to search wider, once empty searches were told and go on', () => {
    const again = loopNotice({ finding: found, also: [], again: true, exactBefore: false }).text
    expect(again.split('\n').at(-1)).toMatch(/^You were told these searches find nothing, and they still do: what you are looking for most likely does not exist here\./)
    expect(again).not.toContain('Search wider')
    // Outputs that stay the same keep their advice: they were found, and they answer.
    expect(loopNotice({ finding: { ...found, mostly: 'same-output' }, also: [], again: true, exactBefore: false }).text).toContain('Changing the wording')
  })
})

describe('rereading notice', () => {
  it('names the file, the windows and the lines read again, bounded', () => {
    const { text, summary } = findingNotice({
      kind: 'rereading', file: '/testbed/pylint/lint/pylinter.py', count: 4,
      ranges: [[390, 430], [450, 470], [533, 533], [690, 710], [900, 920]].map(([first, last]) => ({ first: first!, last: last! })),
    })
    expect(text.split('\n')).toEqual([
      '[dsh-brake] You are paging over old ground: 4 windows of `/testbed/pylint/lint/pylinter.py` went over lines you had already read, with nothing changed since (lines 390-430, 450-470, 533, 690-710 and 1 more).',
      'You have read these lines: act on what they say (make the change, run the check, or search for the one thing you still need), or stop and tell the user what is blocking you.',
    ])
    expect(summary).toBe('/testbed/pylint/lint/pylinter.py: 4 windows over old ground')
  })

  it('is named in a phrase as a stop would name it', () => {
    const loop = { kind: 'rereading', file: 'a.py', count: 9, ranges: [{ first: 1, last: 40 }] } as const
    expect(stopNotice({ loop, refused: false }).text).toContain('9 windows of `a.py` went over lines already read (1-40).')
  })
})

describe('stop reason', () => {
  it('is told by its wording: the brake\'s own stop, not another reason that mentions the brake', () => {
    const reason = stopReason({ refused: false, loop: { kind: 'identical-calls', tool: 'read', toolClass: 'default', args: '{}', count: 9, evidence: 'same-result' } })
    expect(isStopReason(reason)).toBe(true)
    expect(isStopReason('budget-guard stopped the turn after dsh-brake warned')).toBe(false)
    expect(isStopReason(`Error: ${reason}`)).toBe(false)
  })

  it('ends the loop\'s sentence once, when a quoted error ends with its own full stop', () => {
    const reason = stopReason({ refused: false, loop: { kind: 'same-error', tool: 'grep', count: 4, variants: 2, error: 'Stop hook: keep working.', cause: 'environment' } })
    expect(reason).toContain('`grep` failed 4 times with the same error: Stop hook: keep working. A new turn starts with fresh counts.')
  })
})

describe('stop notice', () => {
  it('gives the person a row that says why the turn ended and what to do, whatever the loop', () => {
    const refused = stopNotice({ refused: true, loop: { kind: 'identical-calls', tool: 'read', toolClass: 'default', args: '{}', count: 11, evidence: 'same-result' } })
    expect(refused.summary).toBe('turn stopped in a loop (read × 11, same result); send a message to go on')
    expect(refused.text).toContain('`read` was called 11 times with the same arguments, the last of them refused')
    // A long loop is clipped inside the brackets; the row still ends on what the person can do.
    const long = stopNotice({ refused: false, loop: { kind: 'cycle', tools: Array.from({ length: 4 }, (_, i) => `tool_${i}_${'x'.repeat(40)}`), laps: 3, sameResults: true } })
    expect(long.summary.length).toBeLessThanOrEqual(120)
    expect(long.summary).toMatch(/^turn stopped in a loop \(cycle × 3: tool_0_x+.*…\); send a message to go on$/)
  })

  it('names a cut response by what repeated, not by the cut row\'s own words, so the unit fits the row', () => {
    const cut = stopNotice({ refused: false, loop: { kind: 'runaway', part: 'text', unit: 'court ', copies: 82, cuts: 2 } })
    expect(cut.summary).toBe('turn stopped in a loop (a response repeating itself: court × 82); send a message to go on')
  })
})

describe('bounded, well-formed text', () => {
  it('never splits a surrogate pair when clipping', () => {
    const emoji = '😀'.repeat(100)
    for (let max = 1; max < 20; max++) expect(wellFormed(clip(emoji, max))).toBe(true)
    const { summary } = findingNotice({ kind: 'cycle', tools: Array.from({ length: 40 }, () => '😀'.repeat(3)), laps: 3, sameResults: true })
    expect(wellFormed(summary)).toBe(true)
  })

  it('names sources by kind, and plugin where present', () => {
    expect(sourceLabel({ kind: 'plugin', plugin: 'hooks-codex' })).toBe('plugin hooks-codex')
    expect(sourceLabel({ kind: 'subagent-report' })).toBe('subagent-report')
    expect(sourceLabel({ kind: 'plugin', plugin: 'p'.repeat(500) }).length).toBeLessThan(100)
  })
})
