import { defineConfig } from 'tsup'

export default defineConfig({
  // The plugin, and the `dsh-brake` command (which the plugin never loads).
  entry: ['src/index.ts', 'src/cli/main.ts'],
  // Each entry whole: the plugin's file stays one module that imports only its own runtime dependencies.
  splitting: false,
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: true,
  clean: true,
  sourcemap: false,
})
