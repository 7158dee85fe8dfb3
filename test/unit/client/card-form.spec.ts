import { describe, expect, it } from 'vitest'
import { CardController } from '../../../src/client/card-controller.ts'
import { CardForm, messageParts, valueOf, type SectionView } from '../../../src/client/card-form.ts'
import type { NamespaceView, ScopeSnapshot, WriteResult } from '../../../src/client/host.ts'

const base = { mode: 'remind', callWarnCount: 4, callDenyCount: 10, streamCut: true, include: [], exclude: ['todo_write'] }
const view = (user: Record<string, unknown> = {}): SectionView => ({ value: { ...base, ...user }, base, user, revision: 3, writable: true })

describe('the card\'s form', () => {
  it('shows the values in force, and marks as overridden what the user\'s layer holds, whatever its value', () => {
    const state = new CardForm().state(view({ mode: 'deny', callWarnCount: 4 }))
    expect(state.fields.mode).toEqual({ text: 'deny', overridden: true, changed: false })
    expect(state.fields.callWarnCount).toEqual({ text: '4', overridden: true, changed: false })
    expect(state.fields.exclude).toEqual({ text: 'todo_write', overridden: false, changed: false })
    expect(state.dirty).toBe(false)
  })

  it('writes only what changed, as path edits, and a reset lets go of the field', () => {
    const form = new CardForm()
    form.edit('mode', 'deny')
    form.edit('callWarnCount', '4')
    form.edit('exclude', 'todo_write, bash')
    form.reset('callDenyCount', view({ callDenyCount: 12 }))
    expect(form.ops(view({ callDenyCount: 12 }))).toEqual([
      { op: 'set', path: ['mode'], value: 'deny' },
      { op: 'unset', path: ['callDenyCount'] },
      { op: 'set', path: ['exclude'], value: ['todo_write', 'bash'] },
    ])
    const state = form.state(view({ callDenyCount: 12 }))
    expect(state.fields.callDenyCount).toEqual({ text: '10', overridden: false, changed: true })
    expect(state.dirty).toBe(true)
  })

  it('marks a field overridden only once the user\'s layer holds it: an edit not yet saved is no override', () => {
    const form = new CardForm()
    form.edit('mode', 'deny')
    const staged = form.state(view())
    expect(staged.fields.mode).toEqual({ text: 'deny', overridden: false, changed: true })
    expect(staged.dirty).toBe(true)
    // Saved, the Host's view holds it: now it is overridden, and a reset is offered.
    const saved = new CardForm().state(view({ mode: 'deny' }))
    expect(saved.fields.mode.overridden).toBe(true)
    // A reset staged on a stored field: the field follows the row again once saved, so it shows no override meanwhile.
    const resetting = new CardForm()
    resetting.reset('mode', view({ mode: 'deny' }))
    expect(resetting.state(view({ mode: 'deny' })).fields.mode).toEqual({ text: 'remind', overridden: false, changed: true })
  })

  it('splits the brake\'s message at its backticks, so the card shows names as code, not backticks', () => {
    expect(messageParts('`callDenyCount` must be greater than `callWarnCount` (4), got 3')).toEqual([
      { text: 'callDenyCount', code: true },
      { text: ' must be greater than ', code: false },
      { text: 'callWarnCount', code: true },
      { text: ' (4), got 3', code: false },
    ])
    expect(messageParts('the web UI has no connection to dsh')).toEqual([{ text: 'the web UI has no connection to dsh', code: false }])
    // An odd backtick is text as written.
    expect(messageParts('got "a`b"')).toEqual([{ text: 'got "a`b"', code: false }])
  })

  it('sends a text the field does not take as written, for the brake to say what is wrong with it', () => {
    expect(valueOf('callWarnCount', ' 6 ')).toBe(6)
    expect(valueOf('callWarnCount', 'six')).toBe('six')
    expect(valueOf('streamCut', 'false')).toBe(false)
    expect(valueOf('include', '')).toEqual([])
  })
})

describe('the card on the settings wire', () => {
  function card(answer: WriteResult): { controller: CardController; sent: unknown[]; accepted: NamespaceView[] } {
    const snapshot: ScopeSnapshot = { status: 'ready', value: base, base, user: undefined, revision: 7, writable: true }
    const sent: unknown[] = []
    const accepted: NamespaceView[] = []
    const mutate = (payload: unknown): Promise<{ result: WriteResult }> => {
      sent.push(payload)
      return Promise.resolve({ result: answer })
    }
    const connection = { api: { settings: { mutate } } }
    const scope = { getSnapshot: () => snapshot, subscribe: () => () => undefined }
    return { controller: new CardController('dsh-brake', scope, () => connection, view => void accepted.push(view)), sent, accepted }
  }

  it('saves every change in one write fenced by the revision it read, and takes the Host\'s answer', async () => {
    const answer = { ns: 'dsh-brake', value: { ...base, mode: 'deny' }, base, user: { mode: 'deny' }, revision: 8 }
    const { controller, sent, accepted } = card({ ok: true, value: answer })
    controller.edit('mode', 'deny')
    await controller.save()
    expect(sent).toEqual([{ ns: 'dsh-brake', ops: [{ op: 'set', path: ['mode'], value: 'deny' }], expectedRevision: 7 }])
    expect(accepted).toEqual([answer])
    expect(controller.getSnapshot()).toMatchObject({ saved: true, refusal: undefined, dirty: false })
  })

  it('keeps the edits and says why when the Host refuses, in the brake\'s words', async () => {
    const message = 'dsh-brake: `callDenyCount` must be greater than `callWarnCount` (4), got 3'
    const { controller, accepted } = card({ ok: false, error: { code: 'settings-rejected', message } })
    controller.edit('callDenyCount', '3')
    await controller.save()
    expect(accepted).toEqual([])
    expect(controller.getSnapshot()).toMatchObject({ refusal: message.slice('dsh-brake: '.length), saved: false, dirty: true })
    expect(controller.getSnapshot().fields.callDenyCount.text).toBe('3')
    controller.discard()
    expect(controller.getSnapshot()).toMatchObject({ refusal: undefined, dirty: false })
    expect(controller.getSnapshot().fields.callDenyCount.text).toBe('10')
  })
})
