/**
 * dsh-brake's browser half: the card of its settings in DSH's web UI (Settings → Plugins → Plugin configuration). DSH's
 * client module system serves it to the page because package.json declares `dsh.client` and exports `./client`; it
 * is a browser plugin like DSH's own (`inject`, `apply`). It registers one card under the `settings.plugin.item` slot,
 * keyed on the settings namespace the Host half registers, so the card shows exactly when the brake runs with a
 * settings service, and its words in the web UI's language.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/client
 */
import { SETTINGS_NAMESPACE } from '../config/settings.js'
import { BrakeCard } from './card.js'
import { CardController } from './card-controller.js'
import type { ClientContext } from './host.js'
import { en, zh } from './locales.js'

/** The card's words, under a locale namespace of its own. */
const WORDS = 'settings.dshBrake'

/** The client services the card needs: the slots, the words, the settings mirror, and the Host's wire. */
export const inject = ['slots', 'locale', 'connection', 'settingsScope']

/** Register the card's words and the card. */
export function apply(ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(WORDS, { en, zh }), 'dsh-brake: card words')
  const scope = ctx.settingsScope.bind({
    namespace: SETTINGS_NAMESPACE,
    // The Host judged the section (in the brake's words); the card takes it as served.
    decode: section => typeof section === 'object' && section !== null && !Array.isArray(section) ? section : undefined,
  })
  const mirror = ctx.settingsScope.describe()
  const card = new CardController(SETTINGS_NAMESPACE, scope, () => ctx.get('connection'), view => mirror.acceptView(view))
  ctx.slots.inject('settings.plugin.item', () => ctx.slots.register({
    name: 'settings.plugin.item',
    key: SETTINGS_NAMESPACE,
    locale: WORDS,
    inject: () => ({ card }),
  }, BrakeCard))
}
