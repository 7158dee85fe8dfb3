/**
 * The "Get dsh" recipe of docs/install.md, read from the page itself: the `package.json` a user saves, which
 * test/e2e/cli/package.json must equal byte for byte, so that the CLI the end-to-end tests drive is installed exactly
 * as the page tells a user to install it.
 *
 * Plain Node runs this file (type stripping), so it keeps to erasable TypeScript syntax.
 */

/** The first ```json fence after the "## Get dsh" heading, with its final newline, or undefined. */
export function recipeManifest(page: string): string | undefined {
  const section = page.indexOf('\n## Get dsh\n')
  if (section < 0) return undefined
  const match = /^```json\n([\s\S]*?)^```$/m.exec(page.slice(section))
  return match?.[1]
}
