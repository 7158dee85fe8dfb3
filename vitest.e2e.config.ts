import { defineConfig } from 'vitest/config'

/** The end-to-end suite: the real dsh CLI in child processes (`npm run test:e2e`). */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    testTimeout: 240_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    reporters: ['default', ['./test/support/summary-reporter.ts', { outputFile: '.test-results/e2e.json' }]],
  },
})
