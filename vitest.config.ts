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
    // The JSON report is what .ci/run counts its closing `N passed, N failed` line from.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/vitest.json' },
  },
})
