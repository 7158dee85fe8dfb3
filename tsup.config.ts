import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  dts: true,
  clean: true,
  sourcemap: false,
  // Keep `node:crypto` as written: the prefix says it is a Node builtin to every reader and bundler downstream.
  removeNodeProtocol: false,
})
