/**
 * The README's "Get dsh" recipe, read from the README itself: the `package.json` a user saves, which
 * test/e2e/cli/package.json must equal byte for byte, so that the CLI the end-to-end tests drive is installed exactly
 * as the README tells a user to install it.
 *
 * Plain Node runs this file (type stripping), so it keeps to erasable TypeScript syntax.
 */

/** The first ```json fence after the "## Get dsh" heading, with its final newline, or undefined. */
export function recipeManifest(readme: string): string | undefined {
  const section = readme.indexOf('\n## Get dsh\n')
  if (section < 0) return undefined
  const match = /^```json\n([\s\S]*?)^```$/m.exec(readme.slice(section))
  return match?.[1]
}
