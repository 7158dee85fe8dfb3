/**
 * Findings as DSH messages: plugin-sourced `notice` messages built from the texts in `messages.ts`.
 * @module dsh-brake/dsh/notices
 */
import type { MessageId, UserMessage } from '@deepseek-ai/dsh-llm'
import type { Finding } from '../core/types.js'
import { repeatedCallNotice, repeatedErrorNotice, revisitNotice, sequenceNotice, type NoticeText } from '../messages.js'

/**
 * The notice text for a finding on a call; `undefined` for a repeated call this brake refused (the refusal reason
 * told the model already). In deny mode, `denyCount` adds the warning that further identical calls will be refused.
 */
export function callNoticeText(found: Finding, refused: boolean, denyCount: number | undefined): NoticeText | undefined {
  switch (found.kind) {
    case 'repeated-call':
      return refused ? undefined : repeatedCallNotice(found, denyCount)
    case 'repeated-error':
      return repeatedErrorNotice(found)
    case 'sequence':
      return sequenceNotice(found)
    case 'revisit':
      return revisitNotice(found)
    default:
      return undefined
  }
}

/** A plugin-sourced notice from plugin `plugin`, built structurally as strict lossless JSON with a fresh id. */
export function notice(plugin: string, { text, summary }: NoticeText): UserMessage {
  return {
    content: [{ type: 'text', text }],
    source: { kind: 'plugin', plugin, form: 'notice', summary },
    role: 'user',
    id: globalThis.crypto.randomUUID() as MessageId,
  }
}
