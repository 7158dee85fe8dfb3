/**
 * How the model hears loops under one configuration: whether the brake speaks once per loop or in bursts. Each call's
 * notices reach the model at the next step, as the replay delivers them, so what is counted here is what the model
 * reads, side by side with the other plugin's notices where both run.
 *
 * Plain Node runs this file (type stripping), so it keeps to erasable TypeScript syntax.
 */
import type { Action } from '../../src/replay/actions.ts'
import type { Episode } from '../../src/replay/label/rules.ts'
import { actsOn } from '../../src/replay/score.ts'

/** The plugin whose voice is measured. */
const BRAKE = 'dsh-brake'
/** Calls after a notice within which another notice is "soon after" it. */
export const SOON = 4
/** The span of calls in which the most brake notices are counted. */
export const SPAN = 5

/** The figures, summed over runs. */
export interface Hearing {
  /** Brake notices that act on a loop episode, and the episodes. */
  readonly episodeNotices: number
  readonly episodes: number
  /** The most brake notices on one episode. */
  readonly mostOnEpisode: number
  /** Calls that carry two or more brake notices. */
  readonly crowdedCalls: number
  /** The most brake notices in any {@link SPAN} consecutive calls of one agent. */
  readonly mostInSpan: number
  /** Brake notices within {@link SOON} calls after an earlier notice of any plugin. */
  readonly soonAfterAny: number
  /** Brake notices within {@link SOON} calls after an earlier notice (of any plugin) on the same episode. */
  readonly soonAfterSameLoop: number
}

/** The hearing of one run: its actions under one configuration and its episodes. */
export function hearRun(actions: readonly Action[], episodes: readonly Episode[]): Hearing {
  const notices = actions.filter(action => action.kind === 'notice')
  const brake = notices.filter(notice => notice.plugin === BRAKE)
  const onEpisode = episodes.map(episode => brake.filter(notice => actsOn(episode, notice)).length)
  const perCall = new Map<string, number>()
  for (const notice of brake) {
    const at = `${notice.agent}/${notice.call}`
    perCall.set(at, (perCall.get(at) ?? 0) + 1)
  }
  let mostInSpan = 0
  for (const notice of brake) {
    const inSpan = brake.filter(other => other.agent === notice.agent && other.call >= notice.call && other.call < notice.call + SPAN)
    mostInSpan = Math.max(mostInSpan, inSpan.length)
  }
  let soonAfterAny = 0
  let soonAfterSameLoop = 0
  for (const notice of brake) {
    // Earlier: given before it, in the order they were given (notices after one call keep that order).
    const before = notices.slice(0, notices.indexOf(notice))
      .filter(earlier => earlier.agent === notice.agent && notice.call - earlier.call <= SOON)
    if (before.length > 0) soonAfterAny++
    if (before.some(earlier => episodes.some(episode => actsOn(episode, earlier) && actsOn(episode, notice)))) soonAfterSameLoop++
  }
  return {
    episodeNotices: onEpisode.reduce((sum, n) => sum + n, 0),
    episodes: episodes.length,
    mostOnEpisode: Math.max(0, ...onEpisode),
    crowdedCalls: [...perCall.values()].filter(count => count > 1).length,
    mostInSpan,
    soonAfterAny,
    soonAfterSameLoop,
  }
}

/** The hearings of several runs as one: counts add up, maxima stay maxima. */
export function addHearings(hearings: readonly Hearing[]): Hearing {
  const sum = (pick: (hearing: Hearing) => number): number => hearings.reduce((total, hearing) => total + pick(hearing), 0)
  const most = (pick: (hearing: Hearing) => number): number => Math.max(0, ...hearings.map(pick))
  return {
    episodeNotices: sum(h => h.episodeNotices),
    episodes: sum(h => h.episodes),
    mostOnEpisode: most(h => h.mostOnEpisode),
    crowdedCalls: sum(h => h.crowdedCalls),
    mostInSpan: most(h => h.mostInSpan),
    soonAfterAny: sum(h => h.soonAfterAny),
    soonAfterSameLoop: sum(h => h.soonAfterSameLoop),
  }
}
