// Long chats and many chats in the window (issue 49), in Chromium against browser mode and the production build,
// each figure beside its baseline in the same run (median of ROUNDS):
//   - opening the 10,000-message chat vs opening a 10-message chat (from the click to its newest message drawn);
//   - leaving the 10,000-message chat for a small one vs switching between two small ones;
//   - the session list of 1,000 chats vs 10 (from choosing the Workbench to its list drawn).
// Times are taken in the page (a click, then a MutationObserver and the next frame), not across the protocol.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { SessionStore } from '../../electron/core/chat/session-store';
import type { ChatSession } from '../../shared/types/chat';
import { ROOT, startHost, type RunningHost } from '../e2e/host-process';
import { median, round, table } from './stats';

const ROUNDS = 7;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TURN = 'She leans on the rail and watches the harbor lights, counting the boats that came home before the storm. ';

function session(id: string, count: number, updatedAt: number): ChatSession {
  return {
    format: 'council-workbench/session',
    version: 1,
    id,
    title: `Chat ${id}`,
    createdAt: 1,
    updatedAt,
    character: { name: 'Mara', description: 'Keeper of the light.', personality: '', scenario: '' },
    persona: { name: 'Tom', description: '' },
    worldInfo: [],
    messages: Array.from({ length: count }, (_, i) => ({ id: `${id}-m${i}`, role: i % 2 ? 'assistant' : 'user', content: `${TURN.repeat(1 + (i % 4))}(turn ${i})`, createdAt: i })),
  };
}

/** A data folder with these sessions, written through the store as the app would have written them. */
async function folder(sessions: ChatSession[]): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-bench-window-'));
  const store = new SessionStore({ dataDir });
  for (const s of sessions) store.write(s);
  await store.close();
  return dataDir;
}

/** Clicks the session's row in the page and times until `lastId` is in the document and a frame has been drawn. */
function open(page: Page, id: string, lastId: string): Promise<number> {
  return page.evaluate(
    ({ id, lastId }) =>
      new Promise<number>((resolve) => {
        const row = document.querySelector<HTMLButtonElement>(`[data-testid="session"][data-id="${id}"]`)!;
        setTimeout(() => {
          console.log(`no ${lastId} after 30 s; open: ${document.querySelector('[data-testid="open-session"]')?.getAttribute('data-session-id')}, last shown: ${[...document.querySelectorAll('[data-message-id]')].at(-1)?.getAttribute('data-message-id')}`);
          resolve(Number.NaN);
        }, 30_000);
        // Already shown (a round's first step on the chat open at start): nothing to wait for.
        if (document.querySelector(`[data-message-id="${lastId}"]`)) return resolve(0);
        const done = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started)));
        const observer = new MutationObserver(() => {
          if (!document.querySelector(`[data-message-id="${lastId}"]`)) return;
          observer.disconnect();
          done();
        });
        observer.observe(document.body, { childList: true, subtree: true });
        const started = performance.now();
        row.click();
      }),
    { id, lastId },
  );
}

/** From choosing the Workbench to its list of `count` sessions drawn (as far as the list draws at once). */
function showList(page: Page, count: number): Promise<number> {
  return page.evaluate(
    (count) =>
      new Promise<number>((resolve) => {
        const nav = [...document.querySelectorAll<HTMLButtonElement>('nav[aria-label="Sections"] button')].find((b) => b.textContent?.includes('Workbench'))!;
        // Drawn: every row, or the rows of its first page and the way to more below them.
        const drawn = () => document.querySelectorAll('[data-testid="session"]').length >= count || document.querySelector('[data-testid="more-sessions"]') !== null;
        setTimeout(() => resolve(Number.NaN), 30_000);
        const observer = new MutationObserver(() => {
          if (!drawn()) return;
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started)));
        });
        observer.observe(document.body, { childList: true, subtree: true });
        const started = performance.now();
        nav.click();
      }),
    count,
  );
}

async function rounds(measure: () => Promise<number>): Promise<number> {
  await measure();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) times.push(await measure());
  if (times.some(Number.isNaN)) throw new Error('the page did not show what was waited for within 30 s');
  return median(times);
}

export async function chatWindowBenchmark(opts: { json: boolean }): Promise<unknown> {
  if (!fs.existsSync(path.join(ROOT, 'out', 'renderer', 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing (${CHROMIUM}): apt-get install -y chromium, or set CHROMIUM_PATH.`);
  const chats = await folder([session('small-a', 10, 3), session('small-b', 10, 2), session('long', 10_000, 1)]);
  const ten = await folder(Array.from({ length: 10 }, (_, i) => session(`t${i}`, 3, i)));
  const thousand = await folder(Array.from({ length: 1000 }, (_, i) => session(`k${i}`, 3, i)));
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const hosts: RunningHost[] = [];
  const rows: Array<Record<string, string | number>> = [];
  const pair = (measure: string, value: number, baseline: number, target: number) =>
    rows.push({ measure, value: `${round(value, 1)} ms`, baseline: `${round(baseline, 1)} ms`, ratio: round(value / baseline, 2), target: `≤ ${target}×`, met: value <= target * baseline ? 'yes' : 'no' });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const host = await startHost(chats);
    hosts.push(host);
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Workbench' }).click();
    await page.getByTestId('session').first().waitFor();
    const openLong = await rounds(async () => {
      await open(page, 'small-a', 'small-a-m9');
      return open(page, 'long', 'long-m9999');
    });
    const openSmall = await rounds(async () => {
      await open(page, 'small-b', 'small-b-m9');
      return open(page, 'small-a', 'small-a-m9');
    });
    pair('open the 10,000-message chat vs a 10-message chat', openLong, openSmall, 2);
    const leaveLong = await rounds(async () => {
      await open(page, 'long', 'long-m9999');
      return open(page, 'small-b', 'small-b-m9');
    });
    const switchSmall = await rounds(async () => {
      await open(page, 'small-a', 'small-a-m9');
      return open(page, 'small-b', 'small-b-m9');
    });
    pair('leave the 10,000-message chat for a small one vs switch between two small ones', leaveLong, switchSmall, 2);

    const list = async (dataDir: string, count: number) => {
      const listHost = await startHost(dataDir);
      hosts.push(listHost);
      return rounds(async () => {
        // A fresh page each round, on another section: the list is drawn when the Workbench is chosen.
        await page.goto(listHost.url);
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Tools' }).click();
        await page.getByTestId('panel-tools').waitFor();
        return showList(page, count);
      });
    };
    pair('the session list of 1,000 chats vs 10', await list(thousand, 1000), await list(ten, 10), 1.5);
  } finally {
    await browser.close();
    for (const h of hosts) await h.stop();
    for (const dir of [chats, ten, thousand]) fs.rmSync(dir, { recursive: true, force: true });
  }
  if (!opts.json) console.log(table(rows));
  return { rounds: ROUNDS, rows };
}
