/**
 * A worker thread of `dsh-brake analyze`: it is given the configs once, then session logs (a few ahead of its work),
 * and posts back what each gives (analyze-log.ts), one log at a time. The main thread keeps only what it needs of
 * each result, so memory does not grow with the archive, and every core reads and replays logs.
 * @module dsh-brake/analyze/analyze-worker
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createLogAnalyzer, type ConfigSetup } from './analyze-log.js'

const analyzeLog = createLogAnalyzer((workerData as { setups: ConfigSetup[] }).setups)

/** The logs given so far, each analyzed after the one before: a log is sent before the last is done, and waits here. */
let queue = Promise.resolve()

parentPort?.on('message', (file: string) => {
  queue = queue.then(async () => {
    // analyzeLog turns an unreadable log into its error; anything else is a fault, named with its log all the same.
    const result = await analyzeLog(file).catch((error: unknown) => ({
      file, message: `could not be analyzed: ${error instanceof Error ? error.message : String(error)}`,
    }))
    parentPort?.postMessage(result)
  })
})
