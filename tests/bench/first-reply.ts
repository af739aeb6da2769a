// First-reply benchmark: on a freshly started browser-mode host (the built door, as `npm start` runs it), a person
// opens a chat, types for a second and sends; how long from Send until the reply's first token reaches the window,
// beside a later reply in the same chat (everything loaded) as the baseline. The project's local LLM server answers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import type { HostEvent } from '../../shared/events';
import type { ClientMessage, ServerMessage } from '../../shared/ws-protocol';
import { TOKEN_PARAM, WS_PATH } from '../../shared/ws-protocol';
import { cli, startHost, type RunningHost } from '../e2e/host-process';
import { LlmTestServer } from '../fixtures/llm-server';
import { median, round, table } from './stats';

const ROUNDS = 5;
const MODEL = 'bench-model';
/** The scenario's pause between opening the chat and pressing Send: a short message being typed. */
const TYPING_MS = 1000;

/** A window's connection to the host: calls and events over the page's WebSocket contract. */
async function connect(origin: string, token: string) {
  const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 0;
  const waiting = new Map<number, (result: { ok: boolean; value?: unknown; error?: unknown }) => void>();
  const listeners = new Set<(event: HostEvent) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as ServerMessage;
    if (message.kind === 'result') waiting.get(message.id)?.(message.result as never);
    else if (message.kind === 'event') for (const listener of listeners) listener(message.event);
  });
  const call = async (method: string, input: unknown): Promise<unknown> => {
    const id = ++nextId;
    const result = await new Promise<{ ok: boolean; value?: unknown; error?: unknown }>((resolve) => {
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ kind: 'invoke', id, method, input } satisfies ClientMessage));
    });
    if (!result.ok) throw new Error(`${method} failed: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  /** The first event `match` accepts, with its time; rejects after `timeoutMs` (the turn never answered). */
  const next = (match: (event: HostEvent) => boolean, timeoutMs = 30_000) =>
    new Promise<{ event: HostEvent; at: number }>((resolve, reject) => {
      const listener = (event: HostEvent) => {
        if (!match(event)) return;
        finish();
        resolve({ event, at: performance.now() });
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no such event within ${timeoutMs} ms`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        listeners.delete(listener);
      };
      listeners.add(listener);
    });
  return { call, next, close: () => socket.close() };
}

/** One fresh start: Send → first token of the first reply, then of a second one. */
async function freshStart(llm: LlmTestServer): Promise<{ first: number; later: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-bench-first-reply-'));
  let host: RunningHost | undefined;
  let window: Awaited<ReturnType<typeof connect>> | undefined;
  try {
    const added = JSON.parse(cli(dataDir, 'connections', 'add', '--type', 'openai-compatible', '--base-url', `${llm.origin}/v1`, '--model', MODEL, '--name', 'Local', '--json')) as { profile?: { id: string }; id?: string };
    const connectionId = added.profile?.id ?? added.id!;
    host = await startHost(dataDir);
    const open = (window = await connect(host.origin, host.token));
    const { id: sessionId } = (await open.call('chat.sessions.create', {})) as { id: string };
    await open.call('chat.sessions.open', { sessionId });
    await new Promise((resolve) => setTimeout(resolve, TYPING_MS));
    const reply = async () => {
      llm.enqueue({ text: ['The', ' lamp', ' is', ' lit.'] });
      // The turn's first text, or its end or error when no text came (then the run fails with what it said).
      const first = open.next((e) => e.type === 'chat.delta' || e.type === 'chat.finished' || e.type === 'chat.error');
      const finished = open.next((e) => e.type === 'chat.finished');
      // Awaited below; a run that fails first must not leave it to reject unheard.
      finished.catch(() => undefined);
      const sent = performance.now();
      await open.call('chat.send', { sessionId, text: 'Is the lamp lit?', connectionId, model: MODEL });
      const { event, at } = await first;
      if (event.type !== 'chat.delta') throw new Error(`the reply brought no text: ${JSON.stringify(event)}`);
      await finished;
      return at - sent;
    };
    return { first: await reply(), later: await reply() };
  } finally {
    window?.close();
    await host?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function firstReplyBenchmark(opts: { json: boolean }): Promise<unknown> {
  const llm = await LlmTestServer.start({ models: [MODEL] });
  try {
    // The first start builds out/node when a source changed; it is not counted.
    await freshStart(llm);
    const runs: Array<{ first: number; later: number }> = [];
    for (let i = 0; i < ROUNDS; i++) runs.push(await freshStart(llm));
    const first = median(runs.map((r) => r.first));
    const later = median(runs.map((r) => r.later));
    const rows = [
      { what: 'a later reply: Send → first token at the window (baseline)', 'median ms': round(later, 0) },
      { what: `the first reply after a start (chat opened ${TYPING_MS / 1000} s before Send)`, 'median ms': round(first, 0) },
    ];
    if (!opts.json) console.log(table(rows));
    return { rounds: ROUNDS, rows };
  } finally {
    await llm.close();
  }
}
