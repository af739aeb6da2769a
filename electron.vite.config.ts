// Builds the three Electron targets: main (+ worker runtime and build runner), sandboxed CJS preload, renderer.
import fs from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { sealNetwork } from './renderer/frame/network-seal';

/** The sandbox page runs inline script only: the network seal goes in as its first script, from its one source. */
function sandboxNetworkSeal(): Plugin {
  return {
    name: 'sandbox-network-seal',
    writeBundle(options) {
      const file = resolve(options.dir ?? '', 'sandbox.html');
      const html = fs.readFileSync(file, 'utf8');
      const marker = '<!-- network-seal -->';
      if (!html.includes(marker)) throw new Error(`${file} has no ${marker} for the network seal`);
      fs.writeFileSync(file, html.replace(marker, `<script>(${sealNetwork.toString()})(window);</script>`));
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          worker: resolve(__dirname, 'electron/worker/runtime.ts'),
          // The contained install-time build of an extension's TypeScript (beside worker.js).
          'build-runner': resolve(__dirname, 'electron/worker/build-runner.ts'),
          // The local model engine (node-llama-cpp), run in a utility process of its own.
          engine: resolve(__dirname, 'electron/local-model/engine-main.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react(), sandboxNetworkSeal()],
    build: {
      minify: true,
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: {
        // The app, and the page every extension frame runs (served on each extension's own origin).
        input: { index: resolve(__dirname, 'renderer/index.html'), frame: resolve(__dirname, 'renderer/frame.html') },
        // Libraries in their own chunk: no chunk over 500 kB, and app updates leave the vendor chunk cached.
        // The frame page takes only what it uses (TypeBox, DOMPurify), not the app's React vendor chunk.
        output: {
          manualChunks: (id: string) => (!id.includes('node_modules') ? undefined : /[\\/](@sinclair|dompurify)[\\/]/.test(id) ? 'frame-vendor' : 'vendor'),
        },
      },
    },
  },
});
