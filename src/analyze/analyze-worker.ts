/**
 * A worker thread of `dsh-brake analyze`: it is given the configs once, then one session log at a time, and posts
 * back what the log gives (analyze-log.ts). The main thread keeps only what it needs of each result, so memory does
 * not grow with the archive, and every core reads and replays logs.
 * @module dsh-brake/analyze/analyze-worker
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createLogAnalyzer, type ConfigSetup } from './analyze-log.js'

const analyzeLog = createLogAnalyzer((workerData as { setups: ConfigSetup[] }).setups)

parentPort?.on('message', (file: string) => {
  void analyzeLog(file).then(
    result => parentPort?.postMessage(result),
    // analyzeLog turns an unreadable log into its error; anything else is a fault, named with its log all the same.
    (error: unknown) => parentPort?.postMessage({ file, message: `could not be analyzed: ${error instanceof Error ? error.message : String(error)}` }),
  )
})
