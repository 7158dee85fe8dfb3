/**
 * Reading the real-trace files: gzipped JSON Lines, one run per line, as described in the traces' README.
 *
 * The files are large (tens of MB unpacked), so they are read as a stream, one line at a time, and each run is handed
 * on as soon as it is parsed. This module is the only one that knows the trace format: it turns a run into the
 * neutral per-agent events that the replay and the labelling rule (src/) work on; `dsh-brake analyze` feeds them from
 * DSH session logs. A missing file, a broken gzip stream or a line that is not a run stops the evaluation with an
 * error that names the file (and the line).
 */
import { createReadStream } from 'node:fs'
import { access } from 'node:fs/promises'
import { pipeline } from 'node:stream'
import { createGunzip } from 'node:zlib'
import type { AgentEvent } from '../../src/replay/agent-events.ts'

/** A tool call as a trace records it. */
export interface TraceCall {
  readonly type: 'call'
  readonly agent: string
  readonly name: string
  readonly arguments: unknown
  readonly result: { readonly isError: boolean; readonly text: string }
  readonly exitCode?: number
}

/** A person's message as a trace records it. */
export interface TraceUser {
  readonly type: 'user'
  readonly agent: string
  readonly text: string
}

/** One run of a trace file (fields the evaluation does not use are kept as they come). */
export interface TraceRun {
  readonly id: string
  readonly set: string
  readonly events: readonly (TraceCall | TraceUser)[]
  readonly [other: string]: unknown
}

/** A run as the rest of the evaluation sees it: its id, its set, whether it was resolved, and its events in the neutral shape. */
export interface Run {
  readonly id: string
  readonly set: string
  /** The trace's `outcome.resolved`: true, false, or null when it does not say. */
  readonly resolved: boolean | null
  readonly events: readonly AgentEvent[]
}

/** An input problem, reported to the user as it is (no stack trace). */
export class InputError extends Error {}

/**
 * Read every run of a gzipped JSONL trace file, in order.
 * @throws InputError when the file is missing, is not gzip, or holds a line that is not a run.
 */
export async function* readRuns(path: string): AsyncGenerator<Run> {
  try {
    await access(path)
  } catch {
    throw new InputError(`${path}: no such file (give the path of a .jsonl.gz trace file)`)
  }
  let number = 0
  try {
    for await (const line of lines(path)) {
      number++
      if (line.trim() === '') continue
      yield toRun(parseLine(path, number, line), path, number)
    }
  } catch (error) {
    if (error instanceof InputError) throw error
    const reason = error instanceof Error ? error.message : String(error)
    throw new InputError(`${path}: cannot be read as gzipped JSON Lines (after line ${number}): ${reason}`)
  }
}

/** The unpacked lines of a gzip file; a read or unzip error rejects the iteration. */
async function* lines(path: string): AsyncGenerator<string> {
  // pipeline() destroys every stream on an error, so the last one's iterator sees it.
  const unzipped = pipeline(createReadStream(path), createGunzip(), function ignore() {})
  unzipped.setEncoding('utf8')
  let rest = ''
  for await (const chunk of unzipped as AsyncIterable<string>) {
    const parts = (rest + chunk).split('\n')
    rest = parts.pop()!
    yield* parts
  }
  if (rest !== '') yield rest
}

function parseLine(path: string, number: number, line: string): unknown {
  try {
    return JSON.parse(line)
  } catch (error) {
    throw new InputError(`${path}:${number}: not a JSON object (${(error as Error).message})`)
  }
}

/** Check the shape of one run and turn it into neutral events. */
function toRun(value: unknown, path: string, number: number): Run {
  const run = value as Partial<TraceRun> | null
  if (run === null || typeof run !== 'object' || typeof run.id !== 'string' || !Array.isArray(run.events)) {
    throw new InputError(`${path}:${number}: not a run (expected an object with an "id" and an "events" array)`)
  }
  const events: AgentEvent[] = []
  for (const [index, event] of run.events.entries()) {
    events.push(toEvent(event, `${path}:${number}: run ${run.id}, event ${index}`))
  }
  const resolved = fieldsOf(run['outcome'])?.['resolved']
  return { id: run.id, set: typeof run.set === 'string' ? run.set : '', resolved: typeof resolved === 'boolean' ? resolved : null, events }
}

/** Check the shape of one event (a line is untrusted JSON, so every field is looked at) and make it neutral. */
function toEvent(value: unknown, where: string): AgentEvent {
  const event = fieldsOf(value)
  if (event !== undefined && event['type'] === 'user' && typeof event['agent'] === 'string') {
    return { kind: 'user', agent: event['agent'], text: textOf(event['text']) }
  }
  const result = fieldsOf(event?.['result'])
  if (event?.['type'] === 'call' && typeof event['agent'] === 'string' && typeof event['name'] === 'string' && result !== undefined) {
    return {
      kind: 'call',
      agent: event['agent'],
      tool: event['name'],
      args: event['arguments'] ?? {},
      isError: result['isError'] === true,
      text: textOf(result['text']),
    }
  }
  throw new InputError(`${where}: not a user or call event`)
}

/** The fields of a JSON object, or undefined for anything else. */
function fieldsOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null ? value as Readonly<Record<string, unknown>> : undefined
}

/** A text field: a string as it is, nothing when absent, any other value as JSON. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  return value === undefined || value === null ? '' : JSON.stringify(value)
}
