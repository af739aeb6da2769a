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
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/renderer/**/*.test.tsx', 'tests/renderer/**/*.test.ts'],
    testTimeout: 20000,
    hookTimeout: 20000,
    pool: 'forks',
  },
});
