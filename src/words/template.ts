/**
 * Templates with `{name}` placeholders: filled in one pass, and split once, for the notices (messages/) and for reading
 * the brake's own words back (dsh/readings.ts).
 * @module dsh-brake/words/template
 */

/** Templates split at their placeholders. The templates are the code's own constants, so the map stays small. */
const split = new Map<string, readonly string[]>()

/** `template` split at its placeholders: literal text at even indexes, placeholder names at odd ones. */
export function templateParts(template: string): readonly string[] {
  let parts = split.get(template)
  if (parts === undefined) split.set(template, parts = template.split(/\{(\w+)\}/))
  return parts
}

/**
 * Fill `{name}` placeholders in one pass over the template (a value is never filled again; an unknown name stays as
 * it is). Each template is split once: a notice then costs a few string joins, not a regular-expression run with a
 * callback per placeholder.
 */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  const parts = templateParts(template)
  let text = parts[0]!
  for (let i = 1; i < parts.length; i += 2) text += (values[parts[i]!] ?? `{${parts[i]!}}`) + parts[i + 1]!
  return text
}
