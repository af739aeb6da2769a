// Runs one extension test case: a throwaway data folder, the extension installed from its folder as a person would,
// the case's chat imported, the user's turn sent to the replay model, and what happened gathered as a snapshot.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HostFailure, type HostError } from '../../../shared/errors';
import type { HostEvent } from '../../../shared/contract/events';
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract';
import type { ChatMessage } from '../../../shared/types/chat';
import type { ExtensionTestCase } from '../../../shared/types/extension-test';
import type { Host } from '../host';
import { ReplayServer, type ReplayRequest } from './replay-server';
import { councilOf, DEFAULT_SEED, setUpCouncil, type CouncilSnapshot } from './council-setup';

/** Everything a case shows, without times or ids that change between runs (stable key order when written). */
export interface CaseSnapshot {
  case: string;
  /** The prompt of each request the model received, in order. */
  requests: ReplayRequest[];
  /** The turn's stages in order; a stage that changed the prompt carries the prompt after it. */
  stages: Array<{ stage: string; by: string; prompt?: string }>;
  /** unoffered: the model called a tool it was not offered (nothing ran). */
  toolCalls: Array<{ name: string; arguments: string; ok: boolean | null; result: string | null; unoffered?: true }>;
  reply: { text: string; finishReason: string; error?: { code: string; message: string } };
  /** The extension's own log lines (its console, stdout and stderr; not the host's notes about it). */
  log: string[];
  /** A case with a council: its seed, rolls and block; and what the sidecar was asked. */
  council?: CouncilSnapshot | null;
  sidecarRequests?: ReplayRequest[];
}

/** How long a case's turn may take before it is a failure (the replay model answers at once). */
const TURN_LIMIT_MS = 60_000;

export type StartHost = (dataDir: string, options: { councilSeed: () => number }) => Promise<Host>;

async function call<M extends MethodName>(host: Host, method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
  const result = await host.api.call(method, input, { origin: 'cli' });
  if (!result.ok) throw new HostFailure(result.error);
  return result.value as MethodOutput<M>;
}

/** A failure of the set-up (install, import): the case cannot run; the CLI exits 2 for it. */
export class CaseSetupError extends Error {
  constructor(
    readonly step: string,
    readonly error: HostError,
  ) {
    super(`${step}: ${error.code}: ${error.message}${error.path ? ` (${error.path})` : ''}`);
  }
}

async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new CaseSetupError(name, err instanceof HostFailure ? err.error : { code: 'INTERNAL', message: (err as Error).message });
  }
}

/** Waits for the session's turn to finish (bounded), collecting the extension's log lines meanwhile. */
function watchTurn(host: Host, extensionId: string) {
  const log: string[] = [];
  let finished: ((event: Extract<HostEvent, { type: 'chat.finished' }>) => void) | null = null;
  const council = { runId: null as string | null };
  const done = new Promise<Extract<HostEvent, { type: 'chat.finished' }>>((resolve) => (finished = resolve));
  const off = host.onEvent((event) => {
    if (event.type === 'extension.log' && event.id === extensionId && event.source !== 'host') log.push(`${event.source}: ${event.text}`);
    if (event.type === 'chat.finished') finished?.(event);
    if (event.type === 'chat.council' && event.phase === 'completed') council.runId = event.runId;
  });
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`The turn did not finish within ${TURN_LIMIT_MS / 1000} s.`)), TURN_LIMIT_MS)));
  return {
    log,
    council,
    finished: () => Promise.race([done, limit]).finally(() => clearTimeout(timer)),
    stop: () => off(),
  };
}

export async function runCase(options: { extensionDir: string; caseFile: string; testCase: ExtensionTestCase; startHost: StartHost }): Promise<CaseSnapshot> {
  const { testCase } = options;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-ext-test-'));
  const replay = await ReplayServer.start(testCase.replies);
  const sidecar = testCase.sidecarReplies ? await ReplayServer.start(testCase.sidecarReplies) : null;
  const seed = testCase.council?.seed ?? DEFAULT_SEED;
  let host: Host | null = null;
  try {
    host = await step('start the host', () => options.startHost(dataDir, { councilSeed: () => seed }));
    const h = host;
    const installed = await step('install the extension', () => call(h, 'extensions.install', { folder: options.extensionDir, grant: testCase.grant ?? 'requested' }));
    await h.extensions.whenSettled();
    await step('add the replay connection', async () => {
      await call(h, 'connections.save', { profile: { id: 'replay', name: 'Replay', provider: 'openai-compatible', baseUrl: replay.baseUrl, defaultModel: 'replay' } });
      await call(h, 'settings.update', { patch: { chat: { mainConnectionId: 'replay', model: 'replay' } } });
    });
    const council = testCase.council;
    if (council) await step('set up the council', () => setUpCouncil((method, input) => call(h, method, input), council, installed.id, sidecar));
    const chatFile = path.resolve(path.dirname(options.caseFile), testCase.chat);
    const { id: sessionId } = await step(`import the chat ${testCase.chat}`, () => call(h, 'chat.sessions.importFile', { path: chatFile }));
    if (testCase.settings) {
      const { contextSize, ...sampling } = testCase.settings;
      await step('apply the settings', () => call(h, 'chat.sessions.update', { sessionId, patch: { sampling: { ...sampling, ...(contextSize ? { contextSize } : {}) } } }));
    }
    const turn = watchTurn(h, installed.id);
    let end;
    try {
      await call(h, 'chat.send', { sessionId, text: testCase.message, ...(council ? { council: true } : {}) });
      end = await turn.finished();
    } finally {
      turn.stop();
    }
    const session = await call(h, 'chat.sessions.get', { sessionId });
    // The council's requests are planned at once: their order is the order they arrived in, not the case's.
    const sidecarRequests = sidecar ? [...sidecar.requests].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)) : [];
    const reply = [...session.messages].reverse().find((m) => m.role === 'assistant' && m.id === end.messageId) ?? null;
    return withoutNonces({
      case: testCase.name,
      requests: replay.requests,
      stages: stagesOf(reply),
      toolCalls: (reply?.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.argsText ?? '', ok: c.ok ?? null, result: c.result ?? null, ...(c.unoffered ? { unoffered: true } : {}) })),
      reply: { text: reply?.content ?? '', finishReason: end.finishReason, ...(end.error ? { error: { code: end.error.code, message: end.error.message } } : {}) },
      log: turn.log,
      ...(council ? { council: await councilOf((method, input) => call(h, method, input), turn.council.runId) } : {}),
      ...(sidecar ? { sidecarRequests } : {}),
    });
  } finally {
    await host?.dispose();
    await replay.close();
    await sidecar?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The deliberation block fences each tool's output with a random marker (so an output cannot fake its end); in the
 * snapshot it is the same word every run.
 */
function withoutNonces(snapshot: CaseSnapshot): CaseSnapshot {
  let text = JSON.stringify(snapshot);
  for (const nonce of new Set([...text.matchAll(/\[BEGIN TOOL OUTPUT ([0-9a-f]{6,})\]/g)].map((m) => m[1]!))) text = text.replaceAll(nonce, 'NONCE');
  return JSON.parse(text) as CaseSnapshot;
}

function stagesOf(reply: ChatMessage | null): CaseSnapshot['stages'] {
  return (reply?.trace ?? []).map((s) => ({ stage: s.stage, by: s.by, ...(s.after !== undefined && s.after !== s.before ? { prompt: s.after } : {}) }));
}
