import { defineConfig } from '@playwright/test';

/**
 * Chromium as people run it: Playwright's own --disable-features list (1.65) but ThirdPartyStoragePartitioning,
 * which it switches off and which takes localStorage from the extensions' frames. Chromium keeps the last
 * --disable-features it is given, so this one replaces Playwright's.
 */
const AS_SHIPPED_FEATURES = `--disable-features=${[
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
].join(',')}`;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  // An upper bound for the window to show what an event already caused (streamed text, a reply's end), not a sleep:
  // Playwright's 5 s default failed a streamed-text check on a loaded machine.
  expect: { timeout: 15_000 },
  workers: 1,
  globalSetup: './tests/helpers/scratch-tmp.ts',
  reporter: [['list']],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', AS_SHIPPED_FEATURES],
    },
  },
});
