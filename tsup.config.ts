import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    // The plugin, the package's one export.
    'index': 'src/index.ts',
    // The `dsh-brake` command (package.json `bin`).
    'cli/main': 'src/cli/main.ts',
    // `dsh-brake analyze`'s worker threads, beside the command, which finds them there (src/analyze/pool.ts).
    'cli/analyze-worker': 'src/analyze/analyze-worker.ts',
  },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  // Each entry stands alone: the plugin module must import nothing but its two runtime dependencies (no shared chunk
  // that would also carry the command's Cordis and file reading).
  splitting: false,
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: false,
})
