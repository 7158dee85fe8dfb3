/**
 * `node --import ./scripts/ts-imports.mjs <script.ts>`: lets Node run the TypeScript sources themselves, so the
 * scripts (the demo, the evaluation) use the code in src/ as it stands, with no build in between.
 *
 * Node strips the types of a `.ts` file, but resolves its imports as written: src/ imports its siblings as `./x.js`,
 * the name they have once built (the TypeScript convention for ES modules). This hook answers such an import, when it
 * comes from a `.ts` file and no `.js` file is there, with the `.ts` file beside it. Plain JavaScript, as it runs
 * before any TypeScript does.
 */
import { registerHooks } from 'node:module'

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context)
    } catch (error) {
      const fromSource = context.parentURL?.endsWith('.ts') === true && specifier.startsWith('.') && specifier.endsWith('.js')
      if (!fromSource || error?.code !== 'ERR_MODULE_NOT_FOUND') throw error
      return nextResolve(`${specifier.slice(0, -'.js'.length)}.ts`, context)
    }
  },
})
