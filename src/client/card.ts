/**
 * The brake's card in Settings → Plugins → Plugin configuration: a header naming the plugin that opens its controls
 * (the mode as a choice with a line on each, the counts, the stream cut switch, the watched and ignored tools), each
 * control with its "overridden" mark and a reset to the cordis.patch.yml value, and save and discard. A refused save
 * is said on the card, in the brake's words, and the settings in force stay. Drawn with the web UI's own React and
 * its colour variables, so it looks like the cards beside it.
 * Design: docs/design.md#settings-from-the-web-ui
 * @module dsh-brake/client/card
 */
import { createElement as h, useState, useSyncExternalStore, type ReactNode } from 'react'
import type { CardController } from './card-controller.js'
import { messageParts, MODES, textOf, type Field, type FieldState } from './card-form.js'
import type { CardProps } from './host.js'
import type { CardWord } from './locales.js'

/** The card's props: the slot's words, and the card's controller (its injected face). */
export interface BrakeCardProps extends CardProps {
  readonly card: CardController
}

type Words = (key: CardWord, params?: Record<string, unknown>) => string

const css = {
  card: { listStyle: 'none', border: '1px solid var(--dsw-alias-border-l2)', borderRadius: '12px', background: 'var(--dsw-alias-bg-layer-3)' },
  header: {
    width: '100%', appearance: 'none', border: 0, background: 'none', font: 'inherit', color: 'inherit', textAlign: 'left',
    cursor: 'pointer', display: 'flex', alignItems: 'center', gap: '12px', padding: '14px 16px', borderRadius: '12px',
  },
  headText: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: '4px' },
  name: { fontSize: '15px', fontWeight: 600, color: 'var(--dsw-alias-label-primary)' },
  description: { fontSize: '13px', lineHeight: 1.5, color: 'var(--dsw-alias-label-tertiary)' },
  body: { borderTop: '1px solid var(--dsw-alias-border-l2)', margin: '0 16px', padding: '4px 0 8px' },
  row: { display: 'flex', flexDirection: 'column', gap: '4px', padding: '12px 0' },
  label: { display: 'flex', alignItems: 'center', gap: '8px', fontSize: '13px', fontWeight: 500, color: 'var(--dsw-alias-label-primary)' },
  chevron: { flex: 'none', color: 'var(--dsw-alias-label-tertiary)', transition: 'transform .16s' },
  code: { fontFamily: 'var(--dsw-font-mono, ui-monospace, monospace)', fontSize: '11px', padding: '0 3px', borderRadius: '4px', background: 'var(--dsw-alias-bg-module-platform)' },
  switch: { alignSelf: 'flex-start', margin: '4px 0' },
  hint: { margin: 0, fontSize: '12px', lineHeight: 1.5, color: 'var(--dsw-alias-label-tertiary)' },
  input: {
    font: 'inherit', fontSize: '13px', padding: '6px 8px', borderRadius: '8px', border: '1px solid var(--dsw-alias-border-l2)',
    background: 'var(--dsw-alias-bg-layer-1)', color: 'var(--dsw-alias-label-primary)', maxWidth: '320px',
  },
  badge: {
    borderRadius: '999px', padding: '1px 8px', fontSize: '11px', fontWeight: 500,
    background: 'var(--dsw-alias-bg-module-platform)', color: 'var(--dsw-alias-label-secondary)',
  },
  link: { appearance: 'none', border: 0, background: 'none', padding: 0, font: 'inherit', fontSize: '12px', cursor: 'pointer', color: 'var(--dsw-alias-brand-primary)' },
  choice: { display: 'flex', alignItems: 'baseline', gap: '8px', fontSize: '13px', color: 'var(--dsw-alias-label-primary)', cursor: 'pointer' },
  footer: { display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: '8px', padding: '12px 0 4px', borderTop: '1px solid var(--dsw-alias-border-l2)' },
  refusal: { flex: 1, margin: 0, fontSize: '12px', lineHeight: 1.5, color: 'var(--dsw-alias-label-error, #d92d20)' },
  saved: { flex: 1, margin: 0, fontSize: '12px', lineHeight: 1.5, color: 'var(--dsw-alias-label-secondary)' },
  button: {
    font: 'inherit', fontSize: '13px', padding: '6px 14px', borderRadius: '8px', cursor: 'pointer',
    border: '1px solid var(--dsw-alias-border-l2)', background: 'none', color: 'var(--dsw-alias-label-primary)',
  },
  primary: { border: 0, background: 'var(--dsw-alias-brand-primary)', color: '#fff' },
} as const

/** Render the card; nothing while the Host does not serve the brake's section (no settings service, or no brake). */
export function BrakeCard(props: BrakeCardProps): ReactNode {
  const { card } = props
  const t: Words = props.t
  const state = useSyncExternalStore(card.subscribe, card.getSnapshot)
  const [open, setOpen] = useState(false)
  if (!state.available) return null
  const title = t('title')
  const disabled = !state.writable || state.saving
  const control = (field: Exclude<Field, 'mode'>, input: ReactNode): ReactNode => fieldRow(t, card, field, state.fields[field], input)
  const textInput = (field: Field, numeric: boolean): ReactNode => h('input', {
    id: `dsh-brake-${field}`, type: 'text', inputMode: numeric ? 'numeric' : 'text', value: state.fields[field].text, disabled,
    style: css.input, 'aria-describedby': `dsh-brake-${field}-hint`,
    onChange: (event: { target: { value: string } }) => card.edit(field, event.target.value),
  })
  return h('li', { style: css.card, 'data-plugin-card': 'dsh-brake' },
    h('button', {
      type: 'button', style: css.header, 'aria-expanded': open, 'aria-label': `${t(open ? 'collapse' : 'expand')}: ${title}`,
      onClick: () => setOpen(!open),
    },
    h('span', { style: css.headText },
      h('span', { style: css.name }, title),
      h('span', { style: css.description }, t('description'))),
    state.dirty ? h('span', { style: css.badge }, t('unsaved')) : null,
    chevron(open)),
    open
      ? h('div', { style: css.body },
        state.writable ? null : h('p', { style: css.hint, role: 'status' }, t('readOnly')),
        modeRow(t, card, state.fields.mode, disabled),
        control('callWarnCount', textInput('callWarnCount', true)),
        control('callDenyCount', textInput('callDenyCount', true)),
        control('streamCut', h('input', {
          id: 'dsh-brake-streamCut', type: 'checkbox', role: 'switch', checked: state.fields.streamCut.text === 'true', disabled, style: css.switch,
          'aria-describedby': 'dsh-brake-streamCut-hint',
          onChange: (event: { target: { checked: boolean } }) => card.edit('streamCut', String(event.target.checked)),
        })),
        control('include', textInput('include', false)),
        control('exclude', textInput('exclude', false)),
        h('div', { style: css.footer },
          state.refusal !== undefined
            ? h('p', { style: css.refusal, role: 'alert' }, ...refusal(t, state.refusal))
            : state.saved ? h('p', { style: css.saved, role: 'status' }, t('saved')) : null,
          h('button', { type: 'button', style: css.button, disabled: !state.dirty && state.refusal === undefined, onClick: card.discard }, t('discard')),
          h('button', {
            type: 'button', style: { ...css.button, ...css.primary }, disabled: !state.dirty || disabled, onClick: () => void card.save(),
          }, t(state.saving ? 'saving' : 'save'))))
      : null)
}

/** The card's chevron, as the stock cards draw theirs: pointing down, turned up while the card is open. */
function chevron(open: boolean): ReactNode {
  return h('svg', {
    width: 14, height: 14, viewBox: '0 0 14 14', fill: 'none', 'aria-hidden': true, 'data-chevron': open ? 'open' : 'closed',
    style: { ...css.chevron, transform: open ? 'rotate(180deg)' : 'none' },
  }, h('path', { d: 'M3 5.25 7 9.25 11 5.25', stroke: 'currentColor', strokeWidth: 1.3, strokeLinecap: 'round', strokeLinejoin: 'round' }))
}

/** A refused save in the card's words around the brake's, whose backtick-quoted names show as code. */
function refusal(t: Words, message: string): ReactNode[] {
  const mark = '\u241F'
  const [before = '', after = ''] = t('refused', { message: mark }).split(mark)
  const parts = messageParts(message).map(part => part.code ? h('code', { style: css.code }, part.text) : part.text)
  return [before, ...parts, after]
}

/** The mode: one choice of three, each with its line on what it does. */
function modeRow(t: Words, card: CardController, field: FieldState, disabled: boolean): ReactNode {
  const names = { remind: ['modeRemind', 'modeRemindHint'], deny: ['modeDeny', 'modeDenyHint'], stop: ['modeStop', 'modeStopHint'] } as const
  return h('fieldset', { style: { ...css.row, border: 0, margin: 0 } },
    h('legend', { style: { ...css.label, padding: 0, marginBottom: '4px' } }, t('mode'), marks(t, card, 'mode', field)),
    ...MODES.map(mode => h('label', { key: mode, style: css.choice },
      h('input', {
        type: 'radio', name: 'dsh-brake-mode', value: mode, checked: field.text === mode, disabled,
        onChange: () => card.edit('mode', mode),
      }),
      h('span', null, h('strong', null, t(names[mode][0])), ' — ', h('span', { style: css.hint }, t(names[mode][1]))))))
}

/** One control with its label, its hint, and its marks. */
function fieldRow(t: Words, card: CardController, field: Exclude<Field, 'mode'>, state: FieldState, input: ReactNode): ReactNode {
  return h('div', { style: css.row },
    h('div', { style: css.label }, h('label', { htmlFor: `dsh-brake-${field}` }, t(field)), marks(t, card, field, state)),
    input,
    h('p', { id: `dsh-brake-${field}-hint`, style: css.hint }, t(`${field}Hint`)))
}

/** "Overridden", and the reset to the row's value, on a field the user's layer holds (or will, after the save). */
function marks(t: Words, card: CardController, field: Field, state: FieldState): ReactNode {
  if (!state.overridden) return null
  const base = textOf(field, card.base(field))
  return h('span', { style: { display: 'inline-flex', gap: '8px', alignItems: 'center' } },
    h('span', { style: css.badge, 'data-overridden': field }, t('overridden')),
    h('button', {
      type: 'button', style: css.link, title: t('resetHint', { value: base === '' ? '—' : base }),
      'aria-label': `${t('reset')}: ${t(field)}`, onClick: () => card.reset(field),
    }, t('reset')))
}
