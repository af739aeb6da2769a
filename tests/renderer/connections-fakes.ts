// In-memory connections, sidecar and chat handlers for the renderer FakeHost (answers like the real host, records calls), plus frame control.
import { vi } from 'vitest';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract';
import type { HostError, Result } from '../../shared/errors';
import { SESSION_FORMAT, SESSION_VERSION, type ChatSession } from '../../shared/types/chat';
import { SIDECAR_DEFAULTS, SIDECAR_RANGES, type ConnectionProfile, type ConnectionProfileView, type SidecarConfig } from '../../shared/types/llm';
import type { CouncilRun } from '../../shared/types/council';
import type { FakeHost } from './harness';

type Handler<M extends MethodName> = (input: MethodInput<M>) => Result<MethodOutput<M>> | Promise<Result<MethodOutput<M>>>;

export interface LlmFakes {
  profiles: ConnectionProfile[];
  /** Keys as the host's secret store holds them (never sent back). */
  keys: Map<string, string>;
  env: Record<string, string>;
  secrets: MethodOutput<'connections.secretsInfo'>;
  sidecar: SidecarConfig;
  sessions: Map<string, ChatSession>;
  /** What connections.test / connections.models answer (by base URL); default: ok with these models. */
  models: string[];
  testError: HostError | null;
  detect: () => Promise<MethodOutput<'connections.detect'>>;
  runs: Map<string, CouncilRun>;
  /** Next chat.send answer error, once. */
  sendError: HostError | null;
  seq: number;
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value: structuredClone(value) });
const fail = (error: HostError): Result<never> => ({ ok: false, error });

export function view(p: ConnectionProfile, fakes: Pick<LlmFakes, 'keys' | 'env'>): ConnectionProfileView {
  const key = p.keyRef?.kind === 'stored' ? fakes.keys.get(p.id) : p.keyRef?.kind === 'env' ? fakes.env[p.keyRef.name] : undefined;
  return { ...structuredClone(p), hasKey: key !== undefined, keyHint: key && key.length >= 12 ? key.slice(-4) : null };
}

export function profile(partial: Partial<ConnectionProfile> = {}): ConnectionProfile {
  return {
    id: 'local-lm',
    name: 'Local LM Studio',
    provider: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:1234/v1',
    defaultModel: 'qwen2.5-7b-instruct',
    headers: {},
    ...partial,
  };
}

export function session(partial: Partial<ChatSession> = {}): ChatSession {
  return {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    id: 's1',
    title: 'Tavern night',
    createdAt: 1,
    updatedAt: 2,
    character: { name: 'Seraphina', description: 'A guardian of the glade.', personality: 'Warm.', scenario: 'A forest at dusk.' },
    persona: { name: 'Ada', description: 'A traveller.' },
    worldInfo: [],
    messages: [],
    ...partial,
  };
}

function summary(s: ChatSession, busy = false): MethodOutput<'chat.sessions.list'>[number] {
  return { id: s.id, title: s.title, characterName: s.character.name, messageCount: s.messages.length, createdAt: s.createdAt, updatedAt: s.updatedAt, busy };
}

function checkBaseUrl(url: string): HostError | null {
  if (!/^https?:\/\/[^/]/.test(url)) return { code: 'INVALID_INPUT', message: 'The base URL must use http or https.', path: '/baseUrl' };
  if (/169\.254\./.test(url)) return { code: 'INVALID_INPUT', message: 'The base URL points at a link-local address (such as the cloud metadata service).', path: '/baseUrl' };
  return null;
}

/** Installs the handlers on `host` and returns their state, for the test to arrange and inspect. */
export function installLlmFakes(host: FakeHost, init: Partial<LlmFakes> = {}): LlmFakes {
  const fakes: LlmFakes = {
    profiles: [],
    keys: new Map(),
    env: {},
    secrets: { backend: 'file', warning: 'Keys are kept in secrets.json in the data folder, readable by your user account but not encrypted.' },
    sidecar: { connectionProfileId: '', model: '', ...SIDECAR_DEFAULTS },
    sessions: new Map(),
    models: ['qwen2.5-7b-instruct', 'llama-3.1-8b'],
    testError: null,
    detect: async () => [],
    runs: new Map(),
    sendError: null,
    seq: 0,
    ...init,
  };
  const set = <M extends MethodName>(method: M, handler: Handler<M>) => {
    (host.handlers as Record<string, unknown>)[method] = handler;
  };
  const sidecarState = (): MethodOutput<'sidecar.get'> => {
    const c = fakes.sidecar;
    const p = fakes.profiles.find((x) => x.id === c.connectionProfileId);
    const problem = !c.connectionProfileId ? 'No sidecar connection is chosen.' : !p ? `The sidecar connection ${c.connectionProfileId} no longer exists.` : undefined;
    return { config: structuredClone(c), configured: !problem, ...(problem ? { problem } : {}) };
  };

  set('connections.list', () => ok(fakes.profiles.map((p) => view(p, fakes))));
  set('connections.secretsInfo', () => ok(fakes.secrets));
  set('connections.allowObfuscatedKeys', () => {
    if (fakes.secrets.consent === 'needed') fakes.secrets = { ...fakes.secrets, consent: 'given' };
    return ok(fakes.secrets);
  });
  set('connections.save', ({ profile: input, key }) => {
    const urlError = checkBaseUrl(input.baseUrl);
    if (urlError) return fail(urlError);
    if (input.headers && Object.keys(input.headers).some((h) => h.toLowerCase() === 'authorization')) {
      return fail({ code: 'INVALID_INPUT', message: 'The Authorization header cannot be set here.', path: '/headers/Authorization', hint: 'API keys go in the key field.' });
    }
    const id = input.id ?? input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const saved: ConnectionProfile = {
      id,
      name: input.name,
      provider: input.provider,
      baseUrl: input.baseUrl.replace(/\/+$/, ''),
      defaultModel: input.defaultModel ?? '',
      headers: input.headers ?? {},
      ...(key !== undefined ? { keyRef: { kind: 'stored' as const } } : input.keyRef ? { keyRef: input.keyRef } : {}),
    };
    if (key !== undefined) fakes.keys.set(id, key);
    if (saved.keyRef?.kind !== 'stored') fakes.keys.delete(id);
    const at = fakes.profiles.findIndex((p) => p.id === id);
    if (at >= 0) fakes.profiles[at] = saved;
    else fakes.profiles.push(saved);
    const warnings = saved.baseUrl.startsWith('http:') && !saved.baseUrl.includes('127.0.0.1') ? ['This connection uses plain http to another machine.'] : [];
    return ok({ profile: view(saved, fakes), warnings });
  });
  set('connections.remove', ({ id }) => {
    const before = fakes.profiles.length;
    fakes.profiles = fakes.profiles.filter((p) => p.id !== id);
    fakes.keys.delete(id);
    return ok({ removed: fakes.profiles.length < before });
  });
  set('connections.clearKey', ({ id }) => {
    const p = fakes.profiles.find((x) => x.id === id);
    if (!p) return fail({ code: 'NOT_FOUND', message: `There is no connection ${id}.`, path: '/id' });
    delete p.keyRef;
    fakes.keys.delete(id);
    return ok(view(p, fakes));
  });
  set('connections.test', () => ok(fakes.testError ? { ok: false, models: [], error: fakes.testError } : { ok: true, models: fakes.models }));
  set('connections.models', ({ id }) => {
    if (!fakes.profiles.some((p) => p.id === id)) return fail({ code: 'NOT_FOUND', message: `There is no connection ${id}.` });
    return fakes.testError ? fail(fakes.testError) : ok({ models: fakes.models });
  });
  set('connections.detect', async () => ok(await fakes.detect()));

  set('sidecar.get', () => ok(sidecarState()));
  set('sidecar.update', ({ patch }) => {
    for (const key of ['temperature', 'topP', 'maxTokens'] as const) {
      const v = patch[key];
      const r = SIDECAR_RANGES[key];
      if (v !== undefined && (v < r.min || v > r.max)) return fail({ code: 'INVALID_INPUT', message: `${key} must be a number from ${r.min} to ${r.max}.`, path: `/${key}` });
    }
    fakes.sidecar = { ...fakes.sidecar, ...patch };
    return ok(sidecarState());
  });

  set('settings.update', ({ patch }) => {
    const p = patch as { ui?: object; chat?: object };
    host.settings = {
      ...host.settings,
      ...(p.ui ? { ui: { ...host.settings.ui, ...p.ui } } : {}),
      ...(p.chat ? { chat: { ...host.settings.chat!, ...p.chat } } : {}),
    };
    return ok(host.settings);
  });

  const sorted = () => [...fakes.sessions.values()].sort((a, b) => b.updatedAt - a.updatedAt);
  const get = (id: string) => fakes.sessions.get(id);
  const missing = (id: string) => fail({ code: 'NOT_FOUND', message: `There is no session ${id}.`, path: '/sessionId' });
  set('chat.sessions.list', () => ok(sorted().map((s) => summary(s))));
  set('chat.sessions.get', ({ sessionId }) => (get(sessionId) ? ok(get(sessionId)!) : missing(sessionId)));
  set('chat.sessions.create', (init) => {
    const s = session({ id: `s${++fakes.seq + 100}`, title: init.title ?? 'New chat', updatedAt: 1000 + fakes.seq, character: { name: 'Assistant', description: '', personality: '', scenario: '' }, persona: { name: 'User', description: '' } });
    fakes.sessions.set(s.id, s);
    return ok(s);
  });
  set('chat.sessions.update', ({ sessionId, patch }) => {
    const s = get(sessionId);
    if (!s) return missing(sessionId);
    Object.assign(s, patch);
    return ok(s);
  });
  set('chat.sessions.rename', ({ sessionId, title }) => {
    const s = get(sessionId);
    if (!s) return missing(sessionId);
    s.title = title;
    return ok(summary(s));
  });
  set('chat.sessions.delete', ({ sessionId }) => ok({ deleted: fakes.sessions.delete(sessionId) }));
  set('chat.sessions.export', ({ sessionId }) => {
    const s = get(sessionId);
    return s ? ok({ fileName: `${s.title.replace(/\s+/g, '-')}.json`, json: JSON.stringify(s, null, 2) }) : missing(sessionId);
  });
  const parseSession = (json: string): ChatSession | { error: { code: string; message: string; path: string } } => {
    let parsed: ChatSession;
    try {
      parsed = JSON.parse(json) as ChatSession;
    } catch {
      return { error: { code: 'INVALID_INPUT', message: 'The file is not valid JSON.', path: '/json' } };
    }
    if (parsed.format !== SESSION_FORMAT) return { error: { code: 'INVALID_INPUT', message: 'The session is not valid: /format must be equal to constant (const)', path: '/format' } };
    return parsed;
  };
  const addImported = (parsed: ChatSession) => {
    const copy = { ...parsed, id: fakes.sessions.has(parsed.id) ? `imported${++fakes.seq}` : parsed.id };
    fakes.sessions.set(copy.id, copy);
    return copy;
  };
  set('chat.sessions.import', ({ json }) => {
    const parsed = parseSession(json);
    return 'error' in parsed ? fail(parsed.error) : ok(summary(addImported(parsed)));
  });
  // Files as base64: these fakes take exported sessions only (cards and chats are tested against the real host, e2e).
  const fileSummary = (s: ChatSession) => ({ kind: 'session' as const, characterName: s.character.name, greetings: 0, worldInfoEntries: s.worldInfo.length, messages: s.messages.length, ignored: [], avatar: false });
  set('chat.sessions.inspectData', ({ data }) => {
    const parsed = parseSession(atob(data));
    return 'error' in parsed ? fail(parsed.error) : ok({ ...fileSummary(parsed), greetingTexts: [] });
  });
  set('chat.sessions.importData', ({ data }) => {
    const parsed = parseSession(atob(data));
    if ('error' in parsed) return fail(parsed.error);
    const copy = addImported(parsed);
    return ok({ id: copy.id, ...fileSummary(copy) });
  });
  set('chat.send', ({ sessionId, text, dryRun }) => {
    if (fakes.sendError) {
      const error = fakes.sendError;
      fakes.sendError = null;
      return fail(error);
    }
    const s = get(sessionId);
    if (!s) return missing(sessionId);
    const n = ++fakes.seq;
    if (dryRun) {
      return ok({ turnId: `t${n}`, sessionId, userMessageId: `u${n}`, assistantMessageId: `a${n}`, prompt: [{ role: 'system' as const, content: 'You are Seraphina.' }, { role: 'user' as const, content: text }], tools: [] });
    }
    s.messages.push({ id: `u${n}`, role: 'user', content: text, createdAt: n });
    return ok({ turnId: `t${n}`, sessionId, userMessageId: `u${n}`, assistantMessageId: `a${n}` });
  });
  set('chat.regenerate', ({ sessionId }) => {
    const n = ++fakes.seq;
    return ok({ turnId: `t${n}`, sessionId, assistantMessageId: `a${n}` });
  });
  set('chat.stop', () => ok({ stopped: true }));
  set('runs.get', ({ runId }) => (fakes.runs.has(runId) ? ok(fakes.runs.get(runId)!) : fail({ code: 'NOT_FOUND', message: `No run ${runId}.` })));
  set('runs.exportTrace', ({ runId }) => ok({ fileName: `${runId}.jsonl`, content: '{"type":"started"}\n' }));
  return fakes;
}

/** Takes over requestAnimationFrame: callbacks wait until the test runs the frame. */
export function controlFrames(): { pending(): number; run(): void } {
  let queue = new Map<number, () => void>();
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => {
    const id = next++;
    queue.set(id, () => cb(performance.now()));
    return id;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => void queue.delete(id));
  return {
    pending: () => queue.size,
    run: () => {
      const due = queue;
      queue = new Map();
      for (const cb of due.values()) cb();
    },
  };
}

export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
