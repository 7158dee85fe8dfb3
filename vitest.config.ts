import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.spec.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // The Cordis Loader resolves a profile's bare plugin names through Node's internal ESM loader, as DSH's own
    // launcher arranges; --expose-internals gives the Loader that loader without a native addon.
    execArgv: ['--expose-internals'],
    // The JSON report is what .ci/run counts its closing `N passed, N failed` line from.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/vitest.json' },
  },
})
