/**
 * The "Get dsh" recipe of docs/install.md, read from the page itself: the `package.json` and `pnpm-workspace.yaml` a
 * user saves, which test/e2e/cli/ must hold byte for byte, so that the CLI the end-to-end tests drive is installed
 * exactly as the page tells a user to install it.
 *
 * Plain Node runs this file (type stripping), so it keeps to erasable TypeScript syntax.
 */

/** The files of the recipe, each with the fence language the page writes it in. */
export const RECIPE_FILES = [['package.json', 'json'], ['pnpm-workspace.yaml', 'yaml']] as const

/** The first fence of `language` after the "## Get dsh" heading, with its final newline, or undefined. */
export function recipeFile(page: string, language: 'json' | 'yaml'): string | undefined {
  const section = page.indexOf('\n## Get dsh\n')
  if (section < 0) return undefined
  const match = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(page.slice(section))
  return match?.[1]
}

/** The recipe's `package.json`. */
export function recipeManifest(page: string): string | undefined {
  return recipeFile(page, 'json')
}
