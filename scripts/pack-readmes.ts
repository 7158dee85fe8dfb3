/**
 * The READMEs as the package ships them: every link to a file of the package made absolute, to that file of this very
 * version as published (`docs/install.md` → `https://cdn.jsdelivr.net/npm/dsh-brake@0.3.0/docs/install.md`), so that
 * it resolves from the registry's page and from `node_modules` alike. The project names no public repository, so the
 * published package is the one place a link can point at; the files the READMEs link to ship in it for that reason.
 *
 * In the repository the READMEs keep relative links, which a checkout and any repository host resolve. `npm pack` and
 * `npm publish` run `rewrite` before packing (prepack) and `restore` after (postpack): the originals wait in
 * `.pack-readmes/` meanwhile, and a `rewrite` that finds them there (a pack that failed) restores them first.
 *
 * `node scripts/node.mjs scripts/pack-readmes.ts rewrite|restore [folder]`. Plain Node runs this file (type
 * stripping), so it keeps to erasable TypeScript syntax.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The READMEs the package ships. */
export const SHIPPED_READMES = ['README.md', 'README.zh.md']

/** Where a file of the package, as published at `version`, is served from. */
export function publishedUrl(name: string, version: string, path: string): string {
  return `https://cdn.jsdelivr.net/npm/${name}@${version}/${path}`
}

/** Every Markdown link target (`[text](target)`, `![alt](target)`) outside code, with its offset. */
export function linkTargets(markdown: string): { target: string; index: number }[] {
  const code = [...markdown.matchAll(/^```[\s\S]*?^```$|`[^`\n]*`/gm)].map(match => [match.index, match.index + match[0].length])
  return [...markdown.matchAll(/!?\[[^\]\n]*\]\(([^)\s]+)\)/g)]
    .filter(match => !code.some(([start, end]) => match.index >= start! && match.index < end!))
    .map(match => ({ target: match[1]!, index: match.index + match[0].indexOf('(') + 1 }))
}

/** A link target that names a file of the package (not a page elsewhere, an anchor or a mail address). */
export function isRelative(target: string): boolean {
  return !/^([a-z][a-z0-9+.-]*:|#|\/)/i.test(target)
}

/**
 * `markdown` with every relative link made absolute to the published package; an anchor keeps its place
 * (`docs/install.md#get-dsh`). @throws naming each link whose file `shipped` does not hold: it would lead nowhere.
 */
export function absoluteLinks(markdown: string, name: string, version: string, shipped: readonly string[]): string {
  const links = linkTargets(markdown).filter(({ target }) => isRelative(target))
  const missing = links.filter(({ target }) => !shipped.includes(target.split('#')[0]!))
  if (missing.length > 0) throw new Error(`links to files the package does not ship: ${missing.map(({ target }) => target).join(', ')}`)
  let out = markdown
  for (const { target, index } of links.toReversed()) {
    out = out.slice(0, index) + publishedUrl(name, version, target) + out.slice(index + target.length)
  }
  return out
}

const BACKUP = '.pack-readmes'

/** Put the repository's READMEs back, if a rewrite set them aside. */
function restore(root: string): void {
  if (!existsSync(join(root, BACKUP))) return
  for (const file of SHIPPED_READMES) copyFileSync(join(root, BACKUP, file), join(root, file))
  rmSync(join(root, BACKUP), { recursive: true, force: true })
}

/** Set the READMEs aside and write the shipped ones, for the files `npm pack` would ship from `root`. */
function rewrite(root: string, shipped: readonly string[]): void {
  restore(root)
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string }
  const texts = SHIPPED_READMES.map(file => absoluteLinks(readFileSync(join(root, file), 'utf8'), name, version, shipped))
  mkdirSync(join(root, BACKUP))
  for (const file of SHIPPED_READMES) copyFileSync(join(root, file), join(root, BACKUP, file))
  SHIPPED_READMES.forEach((file, index) => writeFileSync(join(root, file), texts[index]!))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, folder] = process.argv.slice(2)
  const root = folder ?? process.cwd()
  if (command === 'restore') {
    restore(root)
  } else if (command === 'rewrite') {
    // What npm will pack: asked of npm itself, with scripts off so that this hook does not run again.
    const { execFileSync } = await import('node:child_process')
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' })) as [{ files: { path: string }[] }]
    rewrite(root, pack.files.map(file => file.path))
  } else {
    console.error('usage: pack-readmes.ts rewrite|restore [folder]')
    process.exit(2)
  }
}
