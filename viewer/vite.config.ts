import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// esbuild's automatic JSX runtime instead of @vitejs/plugin-react: no extra package, no Babel, and the
// build stays fast and offline for `npm test`.
export default defineConfig({
  root: here,
  base: './',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: path.resolve(here, '../dist/viewer'),
    emptyOutDir: true,
    // One script and one stylesheet: `assay view --export` inlines them so the copy opens from file://.
    cssCodeSplit: false,
    modulePreload: false,
    rollupOptions: {
      output: {
        inlineDynamicImports: true,
        entryFileNames: 'assets/app.js',
        assetFileNames: 'assets/[name][extname]',
      },
    },
    target: 'es2022',
    reportCompressedSize: false,
  },
});
