import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compilePatterns } from '../../../../src/core/identity/patterns.ts'
import { changesFiles, commandsOf, commandWords, createShellReader, simpleCommands } from '../../../../src/core/identity/shell-command.ts'

const changing = compilePatterns(['sed -i*', 'git apply*', 'git checkout *', 'patch *', 'pip install *', 'npm install*'])

describe('shell commands that change files', () => {
  it.each([
    // Redirects, tee and heredocs written into a file.
    ['echo x > out.txt', true],
    ['printf "%s" "$A" >> log.txt', true],
    ['cat <<\'EOF\' > fix.py\nprint("hi > there")\nEOF\npython fix.py', true],
    ['cd /repo && cat > src/a.py << EOF\nx = 1\nEOF', true],
    ['make 2>&1 | tee build.log', true],
    ['ls &> listing.txt', true],
    // Commands from the list, after the usual prefixes.
    ['cd /testbed && sed -i "s/a/b/" f.py', true],
    ['timeout 30 git apply fix.patch', true],
    ['sudo -E env PATH=$PATH pip install -e .', true],
    ['A=1 B=2 npm install left-pad', true],
    ['git status; git checkout -- src/a.py', true],
    // Reading, testing, or writing nowhere.
    ['cat src/a.py', false],
    ['grep -rn ">" src', false],
    ['python -c "print(1 > 0)"', false],
    ['npm test 2>/dev/null', false],
    ['make >/dev/null 2>&1', false],
    ['echo done >&2', false],
    ['cat <<EOF\nrm -rf / > x\nEOF', false],
    ['pytest -x | tail -5', false],
    ['tee --help', false],
    ['# sed -i s/a/b/ f.py', false],
    // Odd input ends, and is read as far as it goes.
    ['echo x\r\nls', false],
    ['ls \\', false],
    ['echo "unclosed > quote', false],
    ['cat <<EOF > f.py\nno end of heredoc', true],
    // A here-string is input, not a heredoc; devices are not files; a heredoc may close on a `\r\n` line.
    ['grep x <<< "$v"\nsed -i s/a/b/ f', true],
    ['grep x <<< "$v" && ls', false],
    ['echo oops > /dev/stderr', false],
    ['cat <<EOF > f.py\r\nx = 1\r\nEOF\r\nls', true],
    ['cat <<EOF\r\nsed -i s/a/b/ f\r\nEOF\r\nls', false],
    // Arithmetic shifts are not heredocs.
    ['echo $((1 << 2))\nsed -i s/a/b/ f', true],
    ['x=$((1<<2)); echo "$x" > out.txt', true],
    ['echo $HOME $((2<<1))', false],
  ])('%j → %s', (command, expected) => {
    expect(changesFiles(command, changing)).toBe(expected)
  })

  it('reads words and quotes as a shell splits them', () => {
    const none = { writes: [], appends: [], bodies: [] }
    expect(simpleCommands('cd "my dir" && sed -i \'s/a b/c/\' x.py | wc -l')).toEqual([
      { words: ['cd', 'my dir'], ...none },
      { words: ['sed', '-i', 's/a b/c/', 'x.py'], ...none },
      { words: ['wc', '-l'], ...none },
    ])
    expect(commandWords(['timeout', '-s', 'KILL', '30', 'nohup', 'X=1', 'make'])).toEqual(['make'])
    expect(commandWords(['timeout', '30'])).toEqual([])
    expect(commandWords(['X=1'])).toEqual([])
  })

  it('hands back the words themselves when no wrapper or assignment leads them, for every reader to ask again', () => {
    const words = ['sed', '-i', 's/a/b/', 'x.py']
    expect(commandWords(words)).toBe(words)
    expect(commandWords([])).toEqual([])
    expect(commandWords(['sudo', ...words])).toEqual(words)
  })

  it('closes a heredoc on the line that is its delimiter alone, as reading it line by line does', () => {
    // The reference: each line cut out, its `\r` and (with `<<-`) its leading tabs removed, compared whole.
    const bodyOf = (rest: string, delimiter: string, strip: boolean): string => {
      const lines = rest.split('\n')
      const at = lines.findIndex((line) => {
        const cut = line.replace(/\r$/, '')
        return (strip ? cut.replace(/^\t+/, '') : cut) === delimiter
      })
      return at === -1 ? rest : lines.slice(0, at).map(line => `${line}\n`).join('')
    }
    const part = fc.constantFrom('EOF', 'EOFX', 'XEOF', ' EOF', 'EOF ', '\t', '\t\t', '\r', '\n', '\r\n', 'x = 1', '', 'E', 'OF')
    fc.assert(fc.property(fc.array(part, { maxLength: 14 }), fc.boolean(), (parts, strip) => {
      const body = parts.join('')
      const [simple] = simpleCommands(`cat <<${strip ? '-' : ''}EOF > f.py\n${body}`)
      expect(simple!.bodies).toEqual([bodyOf(body, 'EOF', strip)])
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2_000) })
    expect(simpleCommands('cat <<-EOF > f\n\t\tx\n\tEOF\r\nls')).toEqual([
      { words: ['cat'], writes: ['f'], appends: [], bodies: ['\t\tx\n'] },
      { words: ['ls'], writes: [], appends: [], bodies: [] },
    ])
    expect(simpleCommands('cat <<EOF > f\n\tEOF\nEOF\r\n')[0]!.bodies).toEqual(['\tEOF\n'])
    expect(simpleCommands('cat <<EOF > f\n\r\nEOF')[0]!.bodies).toEqual(['\r\n'])
  })

  it('hands each heredoc body to the command that reads it, and tells appending from writing', () => {
    expect(simpleCommands("cat <<'EOF' > a.py\nx = 1\nEOF\ncat <<-END >> b.log && echo hi >> c.txt\n\tline\nEND\npython a.py")).toEqual([
      { words: ['cat'], writes: ['a.py'], appends: [], bodies: ['x = 1\n'] },
      { words: ['cat'], writes: ['b.log'], appends: ['b.log'], bodies: ['\tline\n'] },
      { words: ['echo', 'hi'], writes: ['c.txt'], appends: ['c.txt'], bodies: [] },
      { words: ['python', 'a.py'], writes: [], appends: [], bodies: [] },
    ])
    // A heredoc the command line never closes runs to its end.
    expect(simpleCommands('cat <<EOF > a.py\nx = 1')).toEqual([{ words: ['cat'], writes: ['a.py'], appends: [], bodies: ['x = 1'] }])
  })

  it('reads empty commands, a redirect with no words, and heredocs opened on later lines', () => {
    const none = { writes: [], appends: [], bodies: [] }
    expect(simpleCommands('')).toEqual([])
    expect(simpleCommands(';; && |\n\n')).toEqual([])
    expect(simpleCommands('> out.txt; ls')).toEqual([{ words: [], writes: ['out.txt'], appends: [], bodies: [] }, { words: ['ls'], ...none }])
    expect(simpleCommands('ls\ncat <<A > a\n1\nA\nls\ncat <<B >> b\n2\nB\nwc')).toEqual([
      { words: ['ls'], ...none },
      { words: ['cat'], writes: ['a'], appends: [], bodies: ['1\n'] },
      { words: ['ls'], ...none },
      { words: ['cat'], writes: ['b'], appends: ['b'], bodies: ['2\n'] },
      { words: ['wc'], ...none },
    ])
    // An operator with no delimiter opens no heredoc: the next line is commands.
    expect(simpleCommands('cat << \nls')).toEqual([{ words: ['cat'], ...none }, { words: ['ls'], ...none }])
  })

  it('never throws, whatever the command', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (command) => {
      expect(typeof changesFiles(command, changing)).toBe('boolean')
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 500) })
  })
})

describe('the quick reading of the raw text', () => {
  const patterns = ['sed -i*', 'sed * -i*', 'git apply*', 'rm *', 'npm install*', 'make install*', './apply.sh *', 'c++ *']
  const full = compilePatterns(patterns)
  const read = createShellReader(patterns)
  const quick = (command: string): string => read(command).change

  it('answers exactly as reading every command word by word', () => {
    const word = fc.constantFrom('sed', '-i', 's/a/b/', 'f.py', 'git', 'apply', 'x.patch', 'rm', 'format', 'npm', 'install',
      './apply.sh', 'c++', 'main.cc', 'gitk', '--all',
      'test', 'make', '>', '>>', '2>&1', '/dev/null', 'tee', 'out.txt', '&&', ';', '|', 'cd', '/repo', 'timeout', '30', '"', '\'', '\n')
    fc.assert(fc.property(fc.array(word, { maxLength: 12 }).map(words => words.join(' ')), (command) => {
      expect(quick(command) !== 'none').toBe(changesFiles(command, full))
    }), { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2_000) })
  })

  it('reads every command word by word when a pattern has a wildcard in its first word', () => {
    const loose = createShellReader(['git*', '* --write*'])
    expect(loose('gitk --all').change).toBe('last')
    expect(loose('prettier src --write').change).toBe('last')
    expect(loose('ls').change).toBe('none')
  })
})

describe('a command line read once', () => {
  const read = createShellReader(['sed -i*', 'rm *'])

  it('keeps the simple commands it read, for what the call changed', () => {
    const command = 'cd /repo && sed -i \'s/a/b/\' x.py && pytest -x'
    expect(read(command).change).toBe('earlier')
    expect(commandsOf(read(command))).toEqual(simpleCommands(command))
    expect(read('cat <<EOF > a.py\r\nx = 1\r\nEOF\r\n').change).toBe('last')
    expect(commandsOf(read('cat <<EOF > a.py\r\nx = 1\r\nEOF\r\n'))).toEqual(simpleCommands('cat <<EOF > a.py\r\nx = 1\r\nEOF\r\n'))
  })

  it('reads a line once, whoever asks for its commands, and reads one whose text rules any change out only when asked', () => {
    const line = read('grep -rn parse src 2>/dev/null')
    expect(line.change).toBe('none')
    expect(commandsOf(line)).toEqual(simpleCommands('grep -rn parse src 2>/dev/null'))
    expect(commandsOf(line)).toBe(commandsOf(line))
    const unread = read('pytest -x')
    expect(unread.change).toBe('none')
    expect(commandsOf(unread)).toEqual(simpleCommands('pytest -x'))
    expect(commandsOf(unread)).toBe(commandsOf(unread))
    expect(read('').change).toBe('none')
  })
})
