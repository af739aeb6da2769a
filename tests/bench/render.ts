// Render benchmark: the Workbench chat in Chromium (Debian's, at 1440×900) against browser mode and the
// production build, while the local LLM server streams a reply at about 2,000 tokens/s — frames per second
// (median), the longest frame, long tasks, and how long after the server's last token the whole text is on
// screen; beside the idle page's figures in the same run. Scenarios: a 4,000-token reply in a new chat, the
// same after 200 earlier messages, a 20,000-token reply, and the long chat's again with a display regex rule on
// (every shown message, the streaming one too, goes through it on the host).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { SESSION_FORMAT, SESSION_VERSION } from '../../shared/types/chat';
import { addLocalConnection, cli, ROOT, startHost } from '../e2e/host-process';
import { LlmTestServer } from '../fixtures/llm-server';
import { round, table } from './stats';

const MODEL = 'bench-render-model';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Tokens a wire frame carries, and the wait before each frame: 13 tokens a frame with 5 ms between frames (about 6 ms with timer slack) ≈ 2,000 tokens/s. */
const TOKENS_PER_FRAME = 13;
const FRAME_DELAY_MS = 5;
const END = '⟦end⟧';

interface Figures {
  name: string;
  tokens_per_s: number | null;
  fps_median: number;
  frame_p95_ms: number;
  frame_max_ms: number;
  /** Display refreshes (at 60 Hz) that passed without a new frame. */
  frames_missed: number;
  long_tasks: number;
  text_on_screen_ms: number | null;
}

/** A card's status panel, as role-play cards have replies end with (an HTML island: drawn in a sandbox frame). */
const PANEL = (i: number) =>
  `\n<style>.status{border:1px solid #8884;border-radius:8px;padding:6px 10px}.status b{color:#c63}</style>\n<div class="status"><b>Keeper</b> · lamp oil ${i % 100}% · <details><summary>Log</summary><p>Storm at ${i}.</p></details></div>`;

/** A session file with `count` earlier messages (what people's long chats look like: a few sentences each), each reply ending with a status panel when `panels`. */
function sessionFile(id: string, title: string, count: number, connectionId: string, panels = false): string {
  const now = Date.now();
  const messages = Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 ? 'assistant' : 'user',
    content: i % 2 ? `The keeper answers at length, as keepers do. ${'The lamp burns on through the storm, and the sea keeps its counsel. '.repeat(4)}${panels ? PANEL(i) : ''}` : `Question ${i}: what do you see out there?`,
    createdAt: now - (count - i) * 1000,
  }));
  const session = { format: SESSION_FORMAT, version: SESSION_VERSION, id, title, createdAt: now, updatedAt: now, character: { name: 'Keeper', description: 'Keeps the lamp.', personality: '', scenario: '' }, persona: { name: 'You', description: '' }, worldInfo: [], messages, connectionId, titleSet: true };
  const file = path.join(os.tmpdir(), `cw-bench-${id}.json`);
  fs.writeFileSync(file, JSON.stringify(session));
  return file;
}

/** Starts recording animation frames and long tasks in the page. */
async function record(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Bench = { frames: number[]; long: number; on: boolean; screenAt: number | null; observer?: PerformanceObserver };
    const w = window as unknown as { __bench: Bench };
    // Each recording has its own loop and observer: those of an earlier recording stopped with it.
    const bench: Bench = (w.__bench = { frames: [], long: 0, on: true, screenAt: null });
    const tick = (t: number) => {
      if (!bench.on) return;
      bench.frames.push(performance.timeOrigin + t); // epoch ms, comparable with the server's Date.now()
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    bench.observer = new PerformanceObserver((list) => void (bench.long += list.getEntries().length));
    bench.observer.observe({ type: 'longtask' });
  });
}

async function stop(page: Page): Promise<{ frames: number[]; long: number; screenAt: number | null }> {
  return page.evaluate(() => {
    const w = window as unknown as { __bench: { frames: number[]; long: number; on: boolean; screenAt: number | null; observer?: PerformanceObserver } };
    w.__bench.on = false;
    w.__bench.observer?.disconnect();
    return { frames: w.__bench.frames, long: w.__bench.long, screenAt: w.__bench.screenAt };
  });
}

function figures(name: string, frames: number[], long: number, extra: Partial<Figures>): Figures {
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!).sort((a, b) => a - b);
  const at = (p: number) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] ?? NaN;
  return { name, tokens_per_s: null, fps_median: round(1000 / at(0.5), 1), frame_p95_ms: round(at(0.95), 1), frame_max_ms: round(gaps[gaps.length - 1] ?? NaN, 1), frames_missed: gaps.reduce((sum, gap) => sum + Math.max(0, Math.round(gap / (1000 / 60)) - 1), 0), long_tasks: long, text_on_screen_ms: null, ...extra };
}

async function openSession(page: Page, url: string, title: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
  await page.getByRole('button', { name: new RegExp(`^${title}`) }).first().click();
  await page.getByTestId('composer').getByRole('textbox').waitFor();
}

/**
 * Milliseconds from choosing a chat in the list until its newest message is on screen and, with `islands`, every
 * HTML island the window drew has its frame's height (its sandbox loaded, sanitized and measured what it draws).
 */
async function openTime(page: Page, url: string, title: string, islands: boolean): Promise<number> {
  await page.goto(url);
  await page.getByRole('navigation').getByText('Workbench', { exact: true }).click();
  const button = page.getByRole('button', { name: new RegExp(`^${title}`) }).first();
  await button.waitFor();
  const start = Date.now();
  await button.click();
  await page.getByTestId('message').last().waitFor();
  if (islands) {
    await page.waitForFunction(() => {
      const frames = [...document.querySelectorAll<HTMLIFrameElement>('iframe[title="HTML in this message"]')];
      return frames.length > 0 && frames.every((frame) => parseFloat(frame.style.height) > 0);
    });
  }
  return Date.now() - start;
}

/** `CW_BENCH_TRACE=<folder>`: also writes a Chromium performance trace of each streaming scenario there (open it in DevTools' Performance panel). */
const TRACE_DIR = process.env.CW_BENCH_TRACE;
/** `CW_BENCH_ONLY=new|long|big|regex|islands` runs one streaming scenario; `CW_BENCH_REPEAT=N` streams the long chat's N times in a row. */
const ONLY = process.env.CW_BENCH_ONLY;
const LONG_REPEATS = Number(process.env.CW_BENCH_REPEAT ?? 1);
/** `CW_BENCH_PROFILE=<folder>`: also writes the page's JavaScript CPU profile of each streaming scenario there (.cpuprofile, for DevTools). */
const PROFILE_DIR = process.env.CW_BENCH_PROFILE;

const WORDS = 'the lamp keeper storm harbor light tide rope gull stone window night bell ship answer slowly across under beyond quiet old'.split(' ');

/** What a reply looks like: a token a word, sentences of 8–20 words, paragraphs of 3–6 sentences (the same text every run). */
function replyTokens(count: number): string[] {
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const tokens: string[] = [];
  let sentence = 8 + next(13);
  let sentences = 3 + next(4);
  for (let i = 0; i < count; i++) {
    let word = WORDS[next(WORDS.length)]!;
    if (--sentence === 0) {
      word += '.';
      sentence = 8 + next(13);
      if (--sentences === 0) {
        tokens.push(`${word}\n\n`);
        sentences = 3 + next(4);
        continue;
      }
    }
    tokens.push(`${word} `);
  }
  return tokens;
}

const fileName = (scenario: string) => scenario.replace(/[^a-z0-9]+/gi, '-');

async function stream(page: Page, llm: LlmTestServer, name: string, tokens: number, tail = ''): Promise<Figures> {
  const words = replyTokens(tokens);
  const chunks = Array.from({ length: Math.ceil(tokens / TOKENS_PER_FRAME) }, (_, i) => words.slice(i * TOKENS_PER_FRAME, (i + 1) * TOKENS_PER_FRAME).join(''));
  // What `tail` holds (a status panel) comes in the last frames, before the end marker the page watches for.
  if (tail) chunks.push(tail, '\n');
  chunks[chunks.length - 1] += END;
  const sent: number[] = [];
  llm.enqueue({ text: chunks, delayMs: FRAME_DELAY_MS, onFrame: (i, at) => void (sent[i] = at) });
  // The page notes when the end marker is on screen: it looks only at the nodes that changed, so watching costs
  // the page nothing that grows with the reply. The benchmark then waits on that one promise: no polling from here
  // into the page while it streams (a protocol call runs on the page's main thread and would cost frames).
  await page.evaluate((end) => {
    const w = window as unknown as { __bench: { screenAt: number | null }; __benchEnd: Promise<void> };
    w.__benchEnd = new Promise((resolve) => {
      const observer = new MutationObserver((records) => {
        const changed = records.flatMap((r) => (r.type === 'characterData' ? [r.target] : [...r.addedNodes]));
        // The node may be the reply's whole bubble (the finished reply mounted anew), not only text inside it.
        // Or a container mounted anew around it (a list window re-rendered), so a reply inside it counts too.
        const inReply = (node: Node) => {
          const element = node instanceof Element ? node : node.parentElement;
          if (element?.closest('[data-role="assistant"]')) return true;
          return [...(element?.querySelectorAll('[data-role="assistant"]') ?? [])].some((reply) => reply.textContent?.includes(end));
        };
        if (changed.some((node) => node.textContent?.includes(end) && inReply(node))) {
          w.__bench.screenAt = Date.now();
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(document.querySelector('[data-testid="chat"]') ?? document.body, { subtree: true, childList: true, characterData: true });
    });
  }, END);
  await record(page);
  const traced = TRACE_DIR ? page.context().browser() : null;
  if (traced) await traced.startTracing(page, { path: path.join(TRACE_DIR!, `${fileName(name)}.json`) });
  const profiler = PROFILE_DIR ? await page.context().newCDPSession(page) : null;
  if (profiler) {
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.send('Profiler.start');
  }
  await page.getByTestId('composer').getByRole('textbox').fill('Tell me everything.');
  await page.keyboard.press('Enter');
  await page.evaluate((end) => {
    // If it times out, say whether the reply is on the page at all (the watcher missed it) or never came.
    const shown = () => [...document.querySelectorAll('[data-role="assistant"]')].some((reply) => reply.textContent?.includes(end));
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(shown() ? 'the reply is on screen but its end was not seen arriving' : 'the reply never reached the screen')), 120_000));
    return Promise.race([(window as unknown as { __benchEnd: Promise<void> }).__benchEnd, timeout]);
  }, END);
  const recorded = await stop(page);
  if (traced) await traced.stopTracing();
  if (profiler) {
    const { profile } = await profiler.send('Profiler.stop');
    fs.writeFileSync(path.join(PROFILE_DIR!, `${fileName(name)}.cpuprofile`), JSON.stringify(profile));
    await profiler.detach();
  }
  // Frame 0 is the role; chunk k is frame k + 1. Only the frames while the reply streams count.
  const first = sent[1]!;
  const last = sent[chunks.length]!;
  const screenAt = recorded.screenAt!;
  const frames = recorded.frames.filter((t) => t >= first && t <= screenAt);
  return figures(name, frames, recorded.long, { tokens_per_s: round((tokens / (last - first)) * 1000, 0), text_on_screen_ms: screenAt - last });
}

export async function renderBenchmark(opts: { json: boolean }): Promise<Figures[]> {
  if (!fs.existsSync(path.join(ROOT, 'out', 'renderer', 'index.html'))) {
    if (!opts.json) console.log('Building the renderer (production) first…');
    spawnSync(path.join(ROOT, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: ROOT, stdio: 'ignore' });
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing (${CHROMIUM}): apt-get install -y chromium, or set CHROMIUM_PATH.`);
  const llm = await LlmTestServer.start({ models: [MODEL] });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-bench-render-'));
  const connectionId = addLocalConnection(dataDir, llm.origin, MODEL);
  for (const [id, title, count] of [['fresh', 'Fresh chat', 0], ['long', 'Long chat', 200], ['big', 'Big reply', 0]] as const) cli(dataDir, 'sessions', 'import', sessionFile(id, title, count, connectionId));
  cli(dataDir, 'sessions', 'import', sessionFile('panels', 'Panels chat', 200, connectionId, true));
  let host = await startHost(dataDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const rows: Figures[] = [];
  const opens = { plain: [] as number[], panels: [] as number[] };
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await openSession(page, host.url, 'Fresh chat');
    await record(page);
    await page.waitForTimeout(2000);
    const idle = await stop(page);
    rows.push(figures('idle page (baseline)', idle.frames, idle.long, {}));
    if (!ONLY || ONLY === 'new') rows.push(await stream(page, llm, '4,000 tokens, new chat', 4000));
    if (!ONLY || ONLY === 'long') {
      await openSession(page, host.url, 'Long chat');
      for (let i = 0; i < LONG_REPEATS; i++) rows.push(await stream(page, llm, '4,000 tokens after 200 messages', 4000));
    }
    if (!ONLY || ONLY === 'big') {
      await openSession(page, host.url, 'Big reply');
      rows.push(await stream(page, llm, '20,000 tokens', 20_000));
    }
    if (!ONLY || ONLY === 'islands') {
      // Opening the long chat, beside opening it with a status panel in every reply (3 runs each, in turns).
      for (let run = 0; run < 3; run++) {
        opens.plain.push(await openTime(page, host.url, 'Long chat', false));
        opens.panels.push(await openTime(page, host.url, 'Panels chat', true));
      }
      // The long chat again, every reply with a card's status panel drawn as an HTML island, and one in the reply.
      await openSession(page, host.url, 'Panels chat');
      await page.locator('iframe[title="HTML in this message"]').first().waitFor();
      rows.push(await stream(page, llm, '4,000 tokens after 200 messages with status panels', 4000, PANEL(4000)));
    }
    if (!ONLY || ONLY === 'regex') {
      // An extension that keeps a display rule (hiding voice cues), as published ones do; its worker writes the rule.
      await host.stop();
      cli(dataDir, 'extensions', 'install', path.join(ROOT, 'tests', 'fixtures', 'extensions', 'lumiverse_regex'), '--grant', 'requested');
      host = await startHost(dataDir);
      await openSession(page, host.url, 'Long chat');
      await page.getByRole('button', { name: 'Regex scripts' }).click();
      await page.getByTestId('regex-row').filter({ hasText: 'Hide voice cues' }).waitFor();
      await page.getByRole('button', { name: 'Hide regex scripts' }).click();
      rows.push(await stream(page, llm, '4,000 tokens after 200 messages, a display rule on', 4000));
    }
  } finally {
    await browser.close();
    await host.stop();
    await llm.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (!opts.json) {
    console.log(table(rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v ?? '—'])))));
    console.log('Targets: ≥ 55 fps median and no frame over 50 ms while streaming; the whole text on screen ≤ 100 ms after the last token.');
    if (opens.panels.length) {
      console.log(`Opening the 200-message chat: ${opens.plain.join(', ')} ms (baseline); with a status panel in every reply, its islands drawn: ${opens.panels.join(', ')} ms.`);
    }
  }
  return rows;
}
