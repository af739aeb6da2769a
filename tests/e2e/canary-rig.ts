// What the hostile-output browser tests stand on: the real host on a fresh data folder with one connection ("Local")
// to a local LLM server, and a canary server on 127.0.0.1 that must get no request; and a Workbench chat opened on it.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { assertRendererBuilt, cli, startHost, type RunningHost } from './host-process';
import { startNewSession } from './new-session';

export interface CanaryRig {
  host: RunningHost;
  llm: LlmTestServer;
  /** The canary's origin, and the paths it was asked for. */
  canaryOrigin: string;
  canaryHits: string[];
  stop(): Promise<void>;
}

export async function startCanaryRig(model: string, name: string): Promise<CanaryRig> {
  assertRendererBuilt();
  const llm = await LlmTestServer.start({ models: [model] });
  const canaryHits: string[] = [];
  const canary = http.createServer((req, res) => {
    canaryHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cw-e2e-${name}-`));
  cli(dataDir, 'connections', 'add', '--type', 'openai-compatible', '--base-url', `${llm.origin}/v1`, '--model', model, '--name', 'Local', '--json');
  const host = await startHost(dataDir);
  return {
    host,
    llm,
    canaryOrigin: `http://127.0.0.1:${(canary.address() as AddressInfo).port}`,
    canaryHits,
    async stop() {
      await host.stop();
      await llm.close();
      await new Promise((resolve) => canary.close(resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The Workbench open on a new session answered by "Local"; its panel. */
export async function openLocalChat(page: Page, host: RunningHost): Promise<Locator> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'connected', { timeout: 15_000 });
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
  const workbench = page.getByTestId('panel-workbench');
  await startNewSession(workbench);
  await workbench.getByLabel('Main connection').selectOption({ label: 'Local' });
  return workbench;
}
