/**
 * Session logs analyzed on every core: worker threads (analyze-worker.ts), each kept {@link IN_FLIGHT} logs ahead, so
 * that it starts on its next log as soon as it posts the last one, rather than wait idle for it to be sent. Where the
 * worker's built file is not there (the sources run directly, in the tests), or one thread is asked for, the logs are
 * analyzed on this thread instead, one after another: the same work, the same results.
 * @module dsh-brake/analyze/pool
 */
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ReadError } from './analysis.js'
import { createLogAnalyzer, type ConfigSetup, type LogResult } from './analyze-log.js'

/** The worker's built file, beside the command's (dist/cli/). */
const WORKER = new URL('./analyze-worker.js', import.meta.url)

/**
 * Logs given to a worker and not yet posted back: the one it analyzes, and the next, sent while it works on this one
 * (the next name found, and the message's trip, while the worker is busy). Each log waits its turn in the worker,
 * so more would only hold more names there.
 */
const IN_FLIGHT = 2

/** How many threads to use by default: one per core. */
export function defaultJobs(): number {
  return availableParallelism()
}

/**
 * Analyze every log in `files` under `setups` with up to `jobs` threads; `each` is given every result as it comes
 * (in no set order), with how many logs are done.
 */
export async function analyzeAll(
  files: Iterable<string>, count: number | undefined, setups: readonly ConfigSetup[], jobs: number,
  each: (result: LogResult | ReadError, done: number) => void,
): Promise<void> {
  const threads = Math.min(jobs, count ?? jobs)
  if (threads <= 1 || !existsSync(fileURLToPath(WORKER))) {
    const analyzeLog = createLogAnalyzer(setups)
    let done = 0
    for (const file of files) each(await analyzeLog(file), ++done)
    return
  }
  const queue = files[Symbol.iterator]()
  let given = 0
  let done = 0
  let exhausted = false
  await new Promise<void>((resolve, reject) => {
    const workers: Worker[] = []
    const gives: (() => void)[] = []
    const finish = (error?: Error): void => {
      for (const worker of workers) void worker.terminate()
      if (error === undefined) resolve()
      else reject(error)
    }
    for (let i = 0; i < threads; i++) {
      // A worker's own `--import` hooks would not apply to the built file; it needs none.
      const worker = new Worker(WORKER, { workerData: { setups }, execArgv: [] })
      workers.push(worker)
      const give = (): void => {
        const next = queue.next()
        if (next.done === true) exhausted = true
        else {
          given++
          worker.postMessage(next.value)
        }
      }
      worker.on('message', (result: LogResult | ReadError) => {
        each(result, ++done)
        give()
        if (exhausted && done === given) finish()
      })
      worker.on('error', error => finish(error))
      gives.push(give)
    }
    // Each worker its first log before any its second: a run of fewer logs than that is still spread over them all.
    for (let ahead = 0; ahead < IN_FLIGHT; ahead++) for (const give of gives) give()
    // Fewer logs than threads, or none at all (a walk that found nothing): nothing more will come back.
    if (exhausted && done === given) finish()
  })
}
