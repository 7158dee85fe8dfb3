import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.spec.ts'],
    // test/e2e is the end-to-end suite's own (vitest.e2e.config.ts), and holds the installed dsh CLI's node_modules.
    exclude: [...configDefaults.exclude, 'test/e2e/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // The Cordis Loader resolves a profile's bare plugin names through Node's internal ESM loader, as DSH's own
    // launcher arranges; --expose-internals gives the Loader that loader without a native addon.
    execArgv: ['--expose-internals'],
    // Several specs run the built command or npm as child processes, a few seconds each on two cores; the limit is a
    // guard against a hang, not a speed check (speed is the benchmarks' business), so it leaves room for a busy machine.
    testTimeout: 30_000,
    // The summary reporter closes the run with `N passed, N failed` and records the counts .ci/run adds up.
    reporters: ['default', ['./test/support/summary-reporter.ts', { outputFile: '.test-results/vitest.json' }]],
  },
})
