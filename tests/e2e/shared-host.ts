// One data folder and one headless host for a describe block: the folder made ready first (extensions installed,
// connections added, files imported — `prepare`), the host started on it before the block's tests, and both gone
// after, with the local LLM server when the block asks for one (`models`). `ready` hands them to the block.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { LlmTestServer } from '../fixtures/llm-server';
import { assertRendererBuilt, startHost, type RunningHost } from './host-process';

export interface SharedHost {
  host: RunningHost;
  dataDir: string;
  /** The local LLM server, when `models` were asked for. */
  llm?: LlmTestServer;
}

export interface SharedHostOptions {
  models?: string[];
  prepare?: (dataDir: string, llm: LlmTestServer | undefined) => void | Promise<void>;
  ready(shared: SharedHost): void;
}

export function sharedHost(name: string, options: SharedHostOptions): void {
  let shared: Partial<SharedHost> = {};
  test.beforeAll(async () => {
    // CLI runs and a host start: on a loaded machine they can pass the default 60 s, so the setup has its own budget.
    test.setTimeout(180_000);
    assertRendererBuilt();
    const llm = options.models ? await LlmTestServer.start({ models: options.models }) : undefined;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cw-e2e-${name}-`));
    shared = { llm, dataDir };
    await options.prepare?.(dataDir, llm);
    shared.host = await startHost(dataDir);
    options.ready(shared as SharedHost);
  });
  test.afterAll(async () => {
    await shared.host?.stop();
    await shared.llm?.close();
    if (shared.dataDir) fs.rmSync(shared.dataDir, { recursive: true, force: true });
  });
}
