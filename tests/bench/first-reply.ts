// First-reply benchmark: on a freshly started browser-mode host (the built door, as `npm start` runs it), a person
// opens a chat, types for a second and sends; how long from Send until the reply's first token reaches the window,
// beside a later reply in the same chat (everything loaded) as the baseline. The project's local LLM server answers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createWsTransport, hostSocketUrl, type SocketLike } from '../../renderer/src/api/ws-transport';
import type { MethodName } from '../../shared/contract';
import type { HostEvent } from '../../shared/contract/events';
import { TOKEN_PARAM, WS_PATH } from '../../shared/ws-protocol';
import { addLocalConnection, startHost, type RunningHost } from '../e2e/host-process';
import { LlmTestServer } from '../fixtures/llm-server';
import { median, round, table } from './stats';

const ROUNDS = 5;
const MODEL = 'bench-model';
/** The scenario's pause between opening the chat and pressing Send: a short message being typed. */
const TYPING_MS = 1000;

/** A window's connection to the host: the page's own WebSocket client (renderer/src/api/ws-transport.ts). */
function connect(origin: string, token: string) {
  const connection = createWsTransport({
    url: hostSocketUrl(new URL(origin), WS_PATH, TOKEN_PARAM, token),
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
  });
  const call = async (method: MethodName, input: unknown): Promise<unknown> => {
    const result = await connection.invoke(method, input as never);
    if (!result.ok) throw new Error(`${method} failed: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  /** The first event `match` accepts, with its time; rejects after `timeoutMs` (the turn never answered). */
  const next = (match: (event: HostEvent) => boolean, timeoutMs = 30_000) =>
    new Promise<{ event: HostEvent; at: number }>((resolve, reject) => {
      const stop = connection.onEvent((event) => {
        if (!match(event)) return;
        finish();
        resolve({ event, at: performance.now() });
      });
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no such event within ${timeoutMs} ms`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        stop();
      };
    });
  return { call, next, close: () => connection.dispose() };
}

/** One fresh start: Send → first token of the first reply, then of a second one. */
async function freshStart(llm: LlmTestServer): Promise<{ first: number; later: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-bench-first-reply-'));
  let host: RunningHost | undefined;
  let window: ReturnType<typeof connect> | undefined;
  try {
    const connectionId = addLocalConnection(dataDir, llm.origin, MODEL);
    host = await startHost(dataDir);
    const open = (window = connect(host.origin, host.token));
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
