import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // `// @vitest-environment real-core`: happy-dom with Node's fetch, URL and abort signals, for renderer tests on the real core.
    alias: { 'vitest-environment-real-core': fileURLToPath(new URL('./tests/renderer/real-core-env.ts', import.meta.url)) },
  },
  test: {
    testTimeout: 20000,
    hookTimeout: 20000,
    pool: 'forks',
    globalSetup: ['tests/helpers/scratch-tmp.ts'],
    projects: [
      // Unit tests build only the part they test from ports and fakes, and leave no state behind: the files of a
      // worker share its module cache instead of importing the core again for each file (a third of the time).
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], isolate: false } },
      // Real processes, servers and a DOM per file: each file in a fresh module graph.
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'renderer', include: ['tests/renderer/**/*.test.tsx', 'tests/renderer/**/*.test.ts'] } },
    ],
  },
});
