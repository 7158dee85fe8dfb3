/**
 * The hosts the benchmarks dispatch through: a real Cordis context with nothing, a do-nothing listener,
 * repeat-tool-reminder or the brake on it, and the execution objects DSH's tool registry hands `tools/post-execute`.
 * @module
 */
import { Context } from '@deepseek-ai/cordis'
import * as Reminder from '@deepseek-ai/dsh-repeat-tool-reminder'
import * as Brake from '../dist/index.js'
import { callKey } from '../src/core/identity/canonical.ts'
import { fingerprint } from '../src/core/tables/fingerprint.ts'
import { contentText } from '../src/dsh/observe.ts'

export type Plugin = 'none' | 'noop' | 'reading' | 'reminder' | 'brake'
export type Waterfall = (name: string, ...args: unknown[]) => Promise<unknown>

/**
 * A context with `plugin` on it, as its `waterfall`. `brake` is the plugin module mounted for `'brake'`: the built
 * `dist/` unless another build is compared with it.
 */
export async function host(plugin: Plugin, config: Record<string, unknown> = {}, brake: object = Brake): Promise<Waterfall> {
  const ctx = new Context()
  // A listener that only passes the decision on: what any plugin on this event costs before doing any work.
  if (plugin === 'noop') (ctx as unknown as { on: (name: string, listener: (...args: unknown[]) => unknown) => void }).on('tools/post-execute', (...args: unknown[]) => (args.at(-1) as () => unknown)())
  // The least a listener that tells a poll from a loop does: the call's identity, and one reading of its result.
  if (plugin === 'reading') {
    (ctx as unknown as { on: (name: string, listener: (...args: unknown[]) => unknown) => void }).on('tools/post-execute', (...args: unknown[]) => {
      const [exec, result, next] = args as [{ name: string; arguments: unknown }, { content: readonly { type: string }[] }, () => unknown]
      readings += (callKey(exec.name, exec.arguments) ?? 0) + fingerprint(contentText(result.content))
      return next()
    })
  }
  if (plugin === 'reminder') await ctx.plugin(Reminder, {})
  if (plugin === 'brake') await ctx.plugin(brake as never, config as never)
  return (ctx as unknown as { waterfall: Waterfall }).waterfall.bind(ctx)
}

/** What the reading listener read, summed, so that no work of it can be left out by the compiler. */
export let readings = 0

/** The downstream decision of every dispatched call. */
export const accept = (): Promise<unknown> => Promise.resolve({ kind: 'accept' })
export const signal: AbortSignal = new AbortController().signal

/** An execution object shaped like the registry's (same fields; arguments deep-frozen by whoever made them). */
export function execution(name: string, args: unknown, agent: object, i: number): object {
  return { token: Symbol('exec'), callId: `call_${i}`, rootCallId: `call_${i}`, name, signal, agent, arguments: args }
}
