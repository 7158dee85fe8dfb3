/**
 * The same error, whatever the arguments: a tool failing the same way while the model varies its input, with at least
 * two argument sets (one exact call repeated is the identical-call detector's). Input errors get their notice later
 * than the environment's, since a model trying another fix each time is working.
 * Design: docs/design.md#same-error-different-arguments
 * @module dsh-brake/core/detectors/same-error
 */
import { touch } from '../tables/bounded-map.js'
import { normalizeError } from '../evidence/normalize.js'
import type { CallStep } from '../types.js'
import type { Evidence, SameErrorFinding } from '../kinds.js'
import { isDue, type Detector, type Schedule } from './detector.js'

/** Thresholds of the same-error detector. */
export interface SameErrorOptions {
  /** When notices fall: `first` is the number of failures with the same error (first one included). */
  readonly schedule: Schedule
  /** The same, for errors that rejected the model's input. */
  readonly inputSchedule: Schedule
  /** How many tools' failure chains are remembered. */
  readonly maxTracked: number
}

/** Distinct argument sets remembered per chain: only "more than one" matters, the rest is the notice's figure. */
const MAX_VARIANTS = 16

interface Chain {
  /** The latest error line as the model saw it, and its normalized shape once computed. */
  line: string
  shape: string | undefined
  epoch: number
  n: number
  variants: Set<number>
  noticedAt: number
}

/**
 * Whether `line` is the same error as the chain's: the same text, or the same shape once paths, numbers and ids are
 * removed (computed only when the texts differ). The chain moves on to the latest line either way.
 */
function sameError(chain: Chain, line: string): boolean {
  if (chain.n === 0 || chain.line === line) return true
  chain.shape ??= normalizeError(chain.line)
  const shape = normalizeError(line)
  const same = chain.shape === shape
  chain.line = line
  chain.shape = shape
  return same
}

/** A chain not yet started: `observe` fills in its first line and epoch. */
function blankChain(): Chain {
  return { line: '', shape: undefined, epoch: 0, n: 0, variants: new Set(), noticedAt: 0 }
}

/** Create a same-error detector. */
export function createSameErrorDetector(options: SameErrorOptions): Detector<CallStep, Evidence<SameErrorFinding>> {
  // Made at the first failure: an agent whose calls all succeed never needs it.
  let chains: Map<string, Chain> | undefined
  return {
    observe({ call, epoch }) {
      if (call.refused) return undefined
      const line = call.errorLine
      if (!call.failed || line === undefined) {
        // A success ends the tool's chain; most calls succeed while no chain runs at all.
        if (chains !== undefined && chains.size > 0) chains.delete(call.tool)
        return undefined
      }
      chains ??= new Map()
      // No closure per call: a failing tool is common enough for that to show in the collector's work.
      let chain = touch(chains, call.tool, options.maxTracked, blankChain)
      if (chain.n > 0 && (chain.epoch !== epoch || !sameError(chain, line))) {
        chain = blankChain()
        chains.set(call.tool, chain)
      }
      if (chain.n === 0) {
        chain.line = line
        chain.epoch = epoch
      }
      chain.n++
      if (chain.variants.size < MAX_VARIANTS) chain.variants.add(call.key)
      // A second set of arguments is what makes it "the same error, whatever the input".
      const schedule = call.inputError ? options.inputSchedule : options.schedule
      if (chain.variants.size < 2 || !isDue(schedule, chain.n, chain.noticedAt)) return undefined
      chain.noticedAt = chain.n
      const cause = call.inputError ? 'input' : 'environment'
      return {
        finding: { kind: 'same-error', tool: call.tool, count: chain.n, variants: chain.variants.size, error: line, cause },
        calls: [...chain.variants],
      }
    },
    reset() {
      chains?.clear()
    },
    size: () => ({ failingTools: chains?.size ?? 0 }),
  }
}
