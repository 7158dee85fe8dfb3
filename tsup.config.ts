import { defineConfig } from 'tsup'

/** The package name: DSH's client module system knows a browser half by it (src/client/index.ts). */
const PACKAGE = 'dsh-brake'

export default defineConfig([{
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
  // Everything but the browser half, which the build below writes at the same time.
  clean: ['!client.cjs'],
  sourcemap: false,
}, {
  // The browser half (package.json `exports["./client"]`, `dsh.client`), in the format DSH's client module system
  // loads: not an ES module but a CommonJS body wrapped in a factory handed to the page's module loader, whose
  // `require` answers only the modules the web UI shares (React among them); everything else is bundled in.
  entry: { client: 'src/client/index.ts' },
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  target: 'es2022',
  platform: 'browser',
  external: ['react'],
  splitting: false,
  dts: false,
  clean: false,
  sourcemap: false,
  banner: { js: `window.__ModuleLoader__.load({ id: ${JSON.stringify(PACKAGE)}, factory: (require) => { var module = { exports: {} }; var exports = module.exports;` },
  footer: { js: 'return module.exports; } });' },
}])
