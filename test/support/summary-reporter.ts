/**
 * A vitest reporter that closes a run with one plain line, `N passed, N failed` (`, N skipped` when some were), and
 * records the same counts where .ci/run reads them. It replaces vitest's JSON reporter, whose "JSON report written
 * to …" line would otherwise follow the summary and be the run's last word.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Reporter, SerializedError, TestModule } from 'vitest/node'

export default class SummaryReporter implements Reporter {
  readonly #file: string

  /** @param options.outputFile - where the counts go, as `{ numPassedTests, numFailedTests, numPendingTests }`. */
  constructor(options: { outputFile: string }) {
    this.#file = options.outputFile
  }

  onTestRunEnd(modules: readonly TestModule[], errors: readonly SerializedError[]): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
      // A file that failed to load has no tests to count, but it failed.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++
    }
    // An error outside any test (an unhandled rejection) fails the run, so it counts as a failure too.
    failed += errors.length
    mkdirSync(dirname(this.#file), { recursive: true })
    writeFileSync(this.#file, JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped }))
    console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`)
  }
}
