/**
 * Reading one DSH session log: `session.jsonl.zstd`, zstd frames of JSON Lines, the session header first. zstd's
 * one-shot decoder returns what it could of a cut or altered frame, so a frame not ending at a line end, a line that
 * is not JSON or a missing header is how a truncated or corrupt log shows, reported naming the file and where.
 * Design: docs/design.md#source-layout; what is read: docs/analyze.md#what-is-read
 * @module dsh-brake/session-logs/decode
 */
import { readFileSync } from 'node:fs'
// A namespace import: under a Node without zstd (before 22.15) the command still starts, and says what it needs.
import * as zlib from 'node:zlib'
import type { SessionHeader } from '@deepseek-ai/dsh-session'
import { cannotBeRead, FileError } from '../errors/file-errors.js'

/** One line of a session log after the header: the envelope of a session event, its data not yet checked. */
export interface StoredEvent {
  readonly type: string
  readonly seq?: number
  readonly time?: number
  readonly data?: unknown
}

/** A decoded session log. */
export interface SessionLog {
  readonly file: string
  readonly header: Readonly<SessionHeader>
  readonly events: readonly StoredEvent[]
}

/** A log that cannot be read: the message names the file and what is wrong with it. */
export class SessionLogError extends FileError {}

/** Whether this Node can decode session logs (zstd came with Node 22.15; DSH itself needs 22.19). */
export function canDecodeSessionLogs(): boolean {
  return typeof (zlib as { zstdDecompressSync?: unknown }).zstdDecompressSync === 'function'
}

/** Read and decode the session log at `file`. @throws SessionLogError */
export function readSessionLog(file: string): SessionLog {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (error) {
    throw new SessionLogError(file, cannotBeRead(error))
  }
  return decodeSessionLog(file, bytes)
}

/** Decode the bytes of a session log. @throws SessionLogError */
export function decodeSessionLog(file: string, bytes: Buffer): SessionLog {
  if (bytes.length === 0) throw new SessionLogError(file, 'is empty, not a session log')
  const lines = frameLines(file, bytes)
  const header = parseLine(file, lines[0]!, 1) as Partial<SessionHeader> & { type?: unknown }
  if (header.type !== 'session' || typeof header.id !== 'string') {
    throw new SessionLogError(file, 'does not start with a DSH session header (line 1 has no `"type": "session"` and `id`)')
  }
  const events: StoredEvent[] = []
  for (let index = 1; index < lines.length; index++) {
    const event = parseLine(file, lines[index]!, index + 1) as Partial<StoredEvent>
    if (typeof event.type !== 'string') throw new SessionLogError(file, `line ${index + 1} is not a session event (no "type")`)
    events.push(event as StoredEvent)
  }
  return { file, header: header as SessionHeader, events }
}

/**
 * The header of the log at `file`, from its first zstd frame alone (DSH writes the header with the first batch): what
 * choosing logs by project or by delegation needs, without reading the whole log. Undefined when it cannot be read.
 */
export function readSessionHeader(file: string): Readonly<SessionHeader> | undefined {
  try {
    const text = zlib.zstdDecompressSync(readFileSync(file)).toString('utf8')
    const header = JSON.parse(text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'))) as Partial<SessionHeader> & { type?: unknown }
    return header.type === 'session' && typeof header.id === 'string' ? header as SessionHeader : undefined
  } catch {
    return undefined
  }
}

/** The text lines of every frame, in order. */
function frameLines(file: string, bytes: Buffer): string[] {
  const lines: string[] = []
  let frame = 0
  for (let offset = 0; offset < bytes.length; frame++) {
    let text: string
    let read: number
    try {
      // The one-shot decoder stops after one frame and says how many bytes it read.
      const { buffer, engine } = zlib.zstdDecompressSync(bytes.subarray(offset), { info: true }) as unknown as {
        buffer: Buffer
        engine: { bytesWritten: number }
      }
      text = buffer.toString('utf8')
      read = engine.bytesWritten
    } catch (error) {
      throw new SessionLogError(file, `is corrupt: zstd frame ${frame + 1} (byte ${offset}) cannot be decoded (${(error as Error).message})`)
    }
    if (read <= 0) throw new SessionLogError(file, `is corrupt: zstd frame ${frame + 1} (byte ${offset}) cannot be decoded`)
    if (!text.endsWith('\n')) {
      const where = offset + read >= bytes.length ? 'the last zstd frame' : `zstd frame ${frame + 1}`
      throw new SessionLogError(file, `is truncated or corrupt: ${where} (byte ${offset}) ends in the middle of a line`)
    }
    for (const line of text.split('\n')) if (line !== '') lines.push(line)
    offset += read
  }
  if (lines.length === 0) throw new SessionLogError(file, 'holds no lines, not a session log')
  return lines
}

function parseLine(file: string, line: string, number: number): object {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw new SessionLogError(file, `is corrupt: line ${number} is not JSON (${JSON.stringify(line.slice(0, 40))}…)`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SessionLogError(file, `is corrupt: line ${number} is not a JSON object`)
  }
  return value
}
