// Runs one extension test case: a throwaway data folder, the extension installed from its folder as a person would,
// the case's chat imported, the user's turn sent to the replay model, and what happened gathered as a snapshot.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatMessage } from '../../../shared/types/chat';
import type { LlmRequest } from '../../../shared/types/llm';
import type { ExtensionTestCase, TestReply } from '../../../shared/types/extension-test';
import type { Host } from '../host';
import { ReplayServer, scripted, type Answer, type ReplayRequest } from './replay-server';
import { councilOf, DEFAULT_SEED, setUpCouncil, type CouncilSnapshot } from './council-setup';
import { cassetteFile, promptChanges, readCassette, requestOf, writeCassette, type Cassette } from './cassette';
import { call, CaseSetupError, step, watchTurn, type TurnEnd } from './case-host';

export { CaseSetupError } from './case-host';

/** Everything a case shows, without times or ids that change between runs (stable key order when written). */
export interface CaseSnapshot {
  case: string;
  /** The prompt of each request the model received, in order. */
  requests: ReplayRequest[];
  /** The turn's stages in order, with what each noted (the macros assembly expanded, world info left out…); a stage that changed the prompt carries the prompt after it. */
  stages: Array<{ stage: string; by: string; note?: string; prompt?: string }>;
  /** unoffered: the model called a tool it was not offered (nothing ran). */
  toolCalls: Array<{ name: string; arguments: string; ok: boolean | null; result: string | null; unoffered?: true }>;
  reply: { text: string; finishReason: string; error?: { code: string; message: string } };
  /** The extension's own log lines (its console, stdout and stderr; not the host's notes about it). */
  log: string[];
  /** A case with a council: its seed, rolls and block; and what the sidecar was asked. */
  council?: CouncilSnapshot | null;
  sidecarRequests?: ReplayRequest[];
}

export type StartHost = (dataDir: string, options: { councilSeed: () => number }) => Promise<Host>;

/** What a run against a cassette found: the requests whose prompt is not the recorded one, and their diff. */
export interface CassetteReport {
  notes: string[];
  diff: string;
}

export interface CaseRun {
  snapshot: CaseSnapshot;
  cassette: CassetteReport | null;
}

/** Recording: every request goes to a real model, whose answer is kept. */
export type Forward = (request: LlmRequest) => Promise<TestReply>;

const sortedRequests = (requests: ReplayRequest[]) => [...requests].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

export async function runCase(options: { extensionDir: string; caseFile: string; testCase: ExtensionTestCase; startHost: StartHost; record?: Forward }): Promise<CaseRun> {
  const { testCase, record } = options;
  const tape = cassetteFile(options.caseFile, testCase.name, testCase.cassette);
  const recorded = record ? null : readCassette(tape);
  if (!record && !recorded && !testCase.replies) throw new CaseSetupError('find the answers', { code: 'INVALID_INPUT', message: `The case has no replies and no cassette (${tape}); record one with --record --connection <id>.`, path: '/replies' });
  const taped: Cassette = { main: [], sidecar: [] };
  const answer = (which: keyof Cassette, replies: TestReply[] | undefined): Answer | null => {
    if (record)
      return async (request, body) => {
        const reply = await record(requestOf(body));
        taped[which].push({ request, reply });
        return reply;
      };
    if (recorded) return scripted(recorded[which].map((r) => r.reply));
    return replies ? scripted(replies) : null;
  };
  const sidecarMode = testCase.council && (testCase.council.mode ?? 'sidecar') === 'sidecar';
  const sidecarAnswer = sidecarMode ? answer('sidecar', testCase.sidecarReplies) : null;
  const seed = testCase.council?.seed ?? DEFAULT_SEED;
  // Everything opened is closed, whatever fails; a failed clean-up does not hide the case's result.
  const cleanups: Array<() => unknown> = [];
  try {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cw-ext-test-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const replay = await ReplayServer.start(answer('main', testCase.replies) ?? scripted([]));
    cleanups.push(() => replay.close());
    const sidecar = sidecarAnswer && (record || recorded?.sidecar.length || testCase.sidecarReplies) ? await ReplayServer.start(sidecarAnswer) : null;
    if (sidecar) cleanups.push(() => sidecar.close());
    const h = await step('start the host', () => options.startHost(dataDir, { councilSeed: () => seed }));
    cleanups.push(() => h.dispose());

    const turn = watchTurn(h);
    cleanups.push(() => turn.stop());
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

    let end: TurnEnd;
    try {
      // The replay model and the case's own switches, whatever an exported session kept (its connection is not here).
      await step('send the message', () => call(h, 'chat.send', { sessionId, text: testCase.message, connectionId: 'replay', model: 'replay', dryRun: false, council: Boolean(council) }));
      end = await turn.finished();
      // What the extension logged up to now has all arrived (a line it wrote as it loaded may come late on a busy machine).
      await h.extensions.workerCaughtUp(installed.id);
    } finally {
      turn.stop();
    }
    const session = await call(h, 'chat.sessions.get', { sessionId });
    // The council's requests are planned at once: their order is the order they arrived in, not the case's.
    const sidecarRequests = sidecar ? sortedRequests(sidecar.requests) : [];
    if (record) writeCassette(tape, taped);
    const reply = [...session.messages].reverse().find((m) => m.role === 'assistant' && m.id === end.messageId) ?? null;
    const snapshot = normalized(
      {
        case: testCase.name,
        requests: replay.requests,
        stages: stagesOf(reply),
        toolCalls: (reply?.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.argsText ?? '', ok: c.ok ?? null, result: c.result ?? null, ...(c.unoffered ? { unoffered: true as const } : {}) })),
        reply: { text: reply?.content ?? '', finishReason: end.finishReason, ...(end.error ? { error: { code: end.error.code, message: end.error.message } } : {}) },
        log: turn.log(installed.id),
        ...(council ? { council: await councilOf((method, input) => call(h, method, input), turn.council.runId) } : {}),
        ...(sidecar ? { sidecarRequests } : {}),
      },
      [dataDir, '<data-dir>'],
      [turn.council.runId, '<council-run>'],
    );
    return { snapshot, cassette: recorded ? cassetteReport(recorded, replay.requests, sidecarRequests) : null };
  } finally {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // The case's own result (or error) is what the person needs; a temp folder left behind is not.
      }
    }
  }
}

function cassetteReport(recorded: Cassette, main: ReplayRequest[], sidecar: ReplayRequest[]): CassetteReport {
  const a = promptChanges(recorded.main, main, 'main');
  // The sidecar's requests came in no fixed order: both sides sorted alike.
  const b = promptChanges(
    sortedRequests(recorded.sidecar.map((r) => r.request)).map((request) => ({ request, reply: '' })),
    sidecar,
    'sidecar',
  );
  return { notes: [...a.notes, ...b.notes], diff: a.diff + b.diff };
}

/**
 * The same words every run: the deliberation block fences each tool's output with a random marker (so an output
 * cannot fake its end); the throwaway data folder and the council's run have new names each time.
 */
function normalized(snapshot: CaseSnapshot, ...names: Array<[string | null, string]>): CaseSnapshot {
  let text = JSON.stringify(snapshot);
  for (const [value, name] of names) if (value) text = text.replaceAll(JSON.stringify(value).slice(1, -1), name);
  for (const nonce of new Set([...text.matchAll(/\[BEGIN TOOL OUTPUT ([0-9a-f]{6,})\]/g)].map((m) => m[1]!))) text = text.replaceAll(nonce, 'NONCE');
  return JSON.parse(text) as CaseSnapshot;
}

function stagesOf(reply: ChatMessage | null): CaseSnapshot['stages'] {
  return (reply?.trace ?? []).map((s) => ({ stage: s.stage, by: s.by, ...(s.note ? { note: s.note } : {}), ...(s.after !== undefined && s.after !== s.before ? { prompt: s.after } : {}) }));
}
