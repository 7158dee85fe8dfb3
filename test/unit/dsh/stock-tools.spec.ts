import { describe, expect, it } from 'vitest'
import { callKey } from '../../../src/core/identity/canonical.ts'
import { fingerprint } from '../../../src/core/tables/fingerprint.ts'
import { createIdentify } from '../../../src/core/identity/identify.ts'
import { createShellReader } from '../../../src/core/identity/shell-command.ts'
import { classOf, shellCommandOf } from '../../../src/core/identity/policies.ts'
import { FILE_CHANGING_SHELL_COMMANDS, reminderCall, STOCK_TOOL_POLICIES } from '../../../src/dsh/stock-tools.ts'

describe('shell commands that change files', () => {
  const bash = STOCK_TOOL_POLICIES['bash']!
  const changing = createShellReader(FILE_CHANGING_SHELL_COMMANDS)
  /** Where the bash tool's command line changes files, as identify reads it. */
  const changeOf = (command: string, read = changing): string => read(shellCommandOf(bash, { command })!).change
  /** The class identify gives: `mutating` wherever the command changes files, else the policy's. */
  const kindOf = (command: string, read = changing): string =>
    changeOf(command, read) === 'none' ? classOf(bash, { command }) : 'mutating'

  it.each([
    ['git commit -m "fix"', 'mutating'],
    ['  sed -i s/a/b/ file.ts', 'mutating'],
    ['npm install left-pad', 'mutating'],
    ['cd /testbed && timeout 60 git apply /tmp/fix.patch', 'mutating'],
    ['cat <<\'EOF\' > reproduce.py\nimport sys\nEOF\npython reproduce.py', 'mutating'],
    ['sed -n 10,20p file.ts', 'default'],
    ['npm test', 'default'],
    ['git status', 'default'],
    ['cat file.ts', 'default'],
    ['python reproduce.py 2>&1 | head -20', 'default'],
  ])('%j is %s', (command, expected) => {
    expect(kindOf(command)).toBe(expected)
  })

  it('takes the user\'s own commands beside the built-in ones', () => {
    const mine = createShellReader([...FILE_CHANGING_SHELL_COMMANDS, 'make install*'])
    expect(kindOf('make install')).toBe('default')
    expect(kindOf('cd build && make install PREFIX=/opt', mine)).toBe('mutating')
  })

  it('tells a change whose exit code is its own from one followed by another command', () => {
    expect(changeOf('git apply fix.patch')).toBe('last')
    expect(changeOf('cd /repo && sed -i s/a/b/ f.py && pytest -x')).toBe('earlier')
    expect(changeOf('pytest -x')).toBe('none')
  })
})

describe('what the stock tools\' edits show', () => {
  const identify = createIdentify({
    include: [], exclude: [], policies: {}, defaults: STOCK_TOOL_POLICIES, fileChangingCommands: FILE_CHANGING_SHELL_COMMANDS,
  })
  const editsOf = (tool: string, args: Record<string, unknown>): unknown => identify(tool, args)?.edits

  it('reads the file and the text of write, edit and str_replace_editor', () => {
    expect(editsOf('write', { file_path: 'a.py', content: 'x' })).toEqual([{ file: 'a.py', kind: 'content', content: fingerprint('x') }])
    expect(editsOf('edit', { file_path: 'a.py', old_string: 'x', new_string: 'y' })).toEqual([{ file: 'a.py', kind: 'replace', old: fingerprint('x'), new: fingerprint('y') }])
    expect(editsOf('str_replace_editor', { command: 'str_replace', path: '/r/a.py', old_str: 'x', new_str: 'y' }))
      .toEqual([{ file: '/r/a.py', kind: 'replace', old: fingerprint('x'), new: fingerprint('y') }])
    expect(editsOf('str_replace_editor', { command: 'create', path: '/r/a.py', file_text: 'x' })).toEqual([{ file: '/r/a.py', kind: 'content', content: fingerprint('x') }])
  })

  it('reads a shell edit from its command line, and takes one it cannot read as a change to any file', () => {
    expect(editsOf('bash', { command: "sed -i 's/a/b/' a.py && pytest" })).toEqual([{ file: 'a.py', kind: 'replace', old: fingerprint('a'), new: fingerprint('b') }])
    expect(editsOf('bash', { command: 'pip install -e .' })).toEqual([{ file: '*', kind: 'other' }])
  })

  it('reads a program\'s output captured as a run kept, whose change stands whatever its exit; text written, as a change', () => {
    expect(identify('bash', { command: 'python3 fetch.py > fetch.log 2>&1' })).toMatchObject({
      kind: 'mutating', logs: true, changeStands: true, edits: [{ file: 'fetch.log', kind: 'other', log: true }],
    })
    expect(identify('bash', { command: "cat <<'EOF' | tee scripts/x.py\nprint(1)\nEOF" })).toMatchObject({ logs: false, edits: [{ file: 'scripts/x.py', kind: 'other' }] })
    expect(identify('bash', { command: "sed 's/a/b/' app.py > new.py" })).toMatchObject({ logs: false, changeStands: false })
  })

  it('keys a call by its tool name and identity arguments, whichever tool came before it', () => {
    const bash = { command: 'pytest -x', description: 'run the tests' }
    const key = identify('bash', bash)?.key
    expect(identify('read', { file_path: 'a.py' })?.key).toBe(callKey('read', { file_path: 'a.py' }))
    expect(identify('bash', bash)?.key).toBe(key)
    expect(key).toBe(callKey('bash', { command: 'pytest -x' }))
    expect(identify('pwsh', bash)?.key).toBe(callKey('pwsh', { command: 'pytest -x' }))
  })

  it('shows none for a call that changes nothing', () => {
    expect(editsOf('bash', { command: 'pytest -x' })).toEqual([])
    expect(editsOf('str_replace_editor', { command: 'view', path: '/r/a.py' })).toEqual([])
    expect(editsOf('read', { file_path: 'a.py' })).toEqual([])
  })
})

describe('repeat-tool-reminder\'s notices', () => {
  const reminder = (summary: unknown): { kind: string; plugin: string; summary: unknown } => ({ kind: 'plugin', plugin: 'repeat-tool-reminder', summary })

  it('names the tool of a `{tool} × {count}` summary, the last ` × ` before the count', () => {
    expect(reminderCall(reminder('read × 3'))).toBe('read')
    expect(reminderCall(reminder('my × tool × 12'))).toBe('my × tool')
    expect(reminderCall(reminder('mcp__server__read_file × 40'))).toBe('mcp__server__read_file')
  })

  it('names none for another summary, another plugin or another source', () => {
    for (const summary of ['read × ', 'read × 3x', ' × 3', '× 3', 'read ×3', 'read x 3', 'read × -3', 'read × 3 ', 7, undefined]) {
      expect(reminderCall(reminder(summary)), String(summary)).toBeUndefined()
    }
    expect(reminderCall({ kind: 'plugin', plugin: 'dsh-brake', summary: 'read × 3' })).toBeUndefined()
    expect(reminderCall({ kind: 'user', plugin: 'repeat-tool-reminder', summary: 'read × 3' })).toBeUndefined()
  })

  it('reads what the pattern `^(.+) × \\d+$` reads, on summaries made of its pieces', () => {
    const pieces = ['a', ' ', '×', ' × ', '1', '23', 'x']
    const summaries = ['']
    for (let from = 0, to = 1; to <= 400; from = to, to = summaries.length) {
      for (const summary of summaries.slice(from, to)) summaries.push(...pieces.map(piece => summary + piece))
    }
    for (const summary of summaries) expect(reminderCall(reminder(summary)), summary).toBe(/^(.+) × \d+$/.exec(summary)?.[1])
  })
})
