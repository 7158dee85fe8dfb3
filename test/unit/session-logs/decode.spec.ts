/**
 * Reading DSH session logs: every zstd frame, the header, and a clear error naming the file for a log that is
 * truncated, corrupt or not a session log at all.
 */
import { zstdCompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeSessionLog, SessionLogError } from '../../../src/session-logs/decode.ts'
import { readsWithNotice } from '../../support/session-logs.ts'

function decodeError(bytes: Buffer): string {
  try {
    decodeSessionLog('/logs/s.jsonl.zstd', bytes)
  } catch (error) {
    expect(error).toBeInstanceOf(SessionLogError)
    return (error as Error).message
  }
  throw new Error('the log was read without an error')
}

describe('decoding', () => {
  it('reads every frame: the header, then each event in order', () => {
    const written = readsWithNotice()
    const log = decodeSessionLog('/logs/s.jsonl.zstd', written.bytes(2))
    expect(log.header.id).toBe('session-1')
    expect(log.events.map(event => event.type)).toEqual(written.events.map(event => event.type))
    expect(log.events.length).toBeGreaterThan(10)
  })

  it('names the file and says the log is truncated when its last frame is cut short', () => {
    const bytes = readsWithNotice().bytes(2)
    expect(decodeError(bytes.subarray(0, bytes.length - 5))).toMatch(/^\/logs\/s\.jsonl\.zstd: is truncated or corrupt: the last zstd frame \(byte \d+\) ends in the middle of a line$/)
  })

  it('names the file for bytes that are not zstd, an empty file, a line that is not JSON, and a missing header', () => {
    expect(decodeError(Buffer.from('plain text, not zstd'))).toMatch(/^\/logs\/s\.jsonl\.zstd: is corrupt: zstd frame 1 \(byte 0\) cannot be decoded/)
    expect(decodeError(Buffer.alloc(0))).toBe('/logs/s.jsonl.zstd: is empty, not a session log')
    expect(decodeError(zstdCompressSync(Buffer.from('{"type":"session","id":"s"}\n{"type":"turn/st\n')))).toMatch(/line 2 is not JSON/)
    expect(decodeError(zstdCompressSync(Buffer.from('{"type":"turn/start","data":{}}\n')))).toMatch(/does not start with a DSH session header/)
  })
})

