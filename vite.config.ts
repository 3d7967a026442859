import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/client'),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [
      { find: '@shared', replacement: path.resolve(import.meta.dirname, 'src/shared') },
      { find: '@client', replacement: path.resolve(import.meta.dirname, 'src/client') },
    ],
  },
  // JASSUB's worker is an ES module that loads parts of itself on demand.
  worker: { format: 'es' },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: false,
    sourcemap: false,
    // Which chunk holds which screen, for the first screens' modulepreload links (decision 0074);
    // scripts/build.mjs moves it beside the server render, out of what is served.
    manifest: true,
  },
  server: { proxy: { '/api': 'http://localhost:5000' } },
});
