/**
 * `npm run readme:record`: after checking that README.md and README.zh.md say the same thing, record the git blob
 * hash of each side in readme-translation.yaml (DSH's translation-pairing convention). The README test fails until the
 * record matches both files.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'

const blob = (file: string): string => {
  const bytes = readFileSync(file)
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

writeFileSync('readme-translation.yaml', [
  '# Git blob hashes of the two READMEs as last confirmed to say the same thing (npm run readme:record).',
  `README.md: ${blob('README.md')}`,
  `README.zh.md: ${blob('README.zh.md')}`,
  '',
].join('\n'))
console.log(readFileSync('readme-translation.yaml', 'utf8'))
