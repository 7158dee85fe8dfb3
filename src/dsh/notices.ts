/**
 * Notices as DSH messages: plugin-sourced `notice` messages built from the texts in `messages.ts`.
 * @module dsh-brake/dsh/notices
 */
import type { MessageId, UserMessage } from '@deepseek-ai/dsh-llm'
import type { NoticeText } from '../messages/wording.js'

/** A plugin-sourced notice from plugin `plugin`, built structurally as strict lossless JSON with a fresh id. */
export function notice(plugin: string, { text, summary }: NoticeText): UserMessage {
  return {
    content: [{ type: 'text', text }],
    source: { kind: 'plugin', plugin, form: 'notice', summary },
    role: 'user',
    id: globalThis.crypto.randomUUID() as MessageId,
  }
}
