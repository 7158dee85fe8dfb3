import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.spec.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // The JSON report is what .ci/run counts its closing `N passed, N failed` line from.
    reporters: ['default', 'json'],
    outputFile: { json: '.test-results/vitest.json' },
  },
})
