// Keys stay secret: never in errors, logs, views or request bodies; the secrets file is 0600; profiles are validated (S7–S12).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConnectionService, MemoryProfileRepository } from '../../../electron/core/connections/connection-service';
import { isSecretHeader, maskHeaderSecrets, requestHeaders, stashHeaderSecrets } from '../../../electron/core/connections/header-secrets';
import { createRedactingLogger, MIN_SECRET_LENGTH, REDACTED, Redactor } from '../../../electron/core/connections/redact';
import { KEPT_SECRET, STORED_SECRET } from '../../../shared/secret-mask';
import { FileSecretStore, keyHint, MemorySecretStore, profileView } from '../../../electron/core/connections/secret-store';
import { checkBaseUrl, profileWarnings, validateProfile } from '../../../electron/core/connections/validate-profile';
import { LlmClient } from '../../../electron/core/llm/client';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { LlmTestServer } from '../../fixtures/llm-server';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { FakeClock } from '../../helpers/fake-time';
import { AUTH_HEADER, CANARY, PROVIDERS, captureLogger, collect, collectTimingOut, hello, profileFor, testClient, weatherTool } from './helpers';

let server: LlmTestServer;
beforeAll(async () => {
  server = await LlmTestServer.start();
});
afterAll(() => server.close());
beforeEach(() => server.reset());
afterEach(cleanupTempDirs);

const posix = process.platform !== 'win32';

describe('the canary key never leaks (S8, S9)', () => {
  it.each(PROVIDERS)('S8, S9: %s: not in events, errors or logs, even when the server echoes it; only in the auth header', async (provider) => {
    const { client, log } = testClient();
    server.enqueue(
      { kind: 'error', status: 401, echoAuth: true },
      { kind: 'error', status: 500, echoAuth: true },
      { kind: 'error', status: 500, echoAuth: true },
      { kind: 'error', status: 500, echoAuth: true },
      { text: 'ok', toolCalls: [{ name: 'get_weather', args: '{"city":"Oslo"}' }] },
    );
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const events = await collect(client.stream(profileFor(server, provider), { ...hello, tools: [weatherTool] }));
      seen.push(JSON.stringify(events));
    }
    const failure = await client.complete(profileFor(server, provider), hello).catch((e: unknown) => e);
    seen.push(String(failure), JSON.stringify(failure));

    // The echo really happened: the server put the key into its error bodies.
    expect(seen.join('\n')).toContain('[REDACTED]');
    expect(seen.join('\n')).toContain('LLM_AUTH_FAILED');
    expect(seen.join('\n')).not.toContain(CANARY);
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.lines.join('\n')).not.toContain(CANARY);

    expect(server.generations.length).toBeGreaterThanOrEqual(4);
    for (const request of server.generations) {
      expect(String(request.headers[AUTH_HEADER[provider]])).toContain(CANARY);
      const otherHeaders = Object.entries(request.headers).filter(([name]) => name !== AUTH_HEADER[provider]);
      expect(JSON.stringify(otherHeaders)).not.toContain(CANARY);
      expect(request.rawBody).not.toContain(CANARY);
      expect(request.url).not.toContain(CANARY);
    }
  });

  it.each(PROVIDERS)('S8: %s: a request that times out leaves no key in events, errors or logs', async (provider) => {
    // The idle timeout falls due on fake time once the request (and its key) reached the server.
    const clock = new FakeClock();
    const { client, log } = testClient({ timers: clock });
    server.enqueue({ text: ['never'], stallAfter: 0 });
    const events = await collectTimingOut(client.stream(profileFor(server, provider), hello, { idleTimeoutMs: 200 }), clock, 200, () => server.requests.length >= 1);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ error: { code: 'LLM_TIMEOUT' } });
    expect(String(server.requests[0]!.headers[AUTH_HEADER[provider]])).toContain(CANARY);
    expect(JSON.stringify(events)).not.toContain(CANARY);
    expect(log.lines.join('\n')).not.toContain(CANARY);
  });

  it('a key read from an environment variable is scrubbed the same way', async () => {
    const log = captureLogger();
    const client = new LlmClient({ secrets: new MemorySecretStore(), env: { OPENAI_API_KEY: CANARY }, log: log.logger, sleep: async () => {} });
    server.enqueue({ kind: 'error', status: 403, echoAuth: true });
    const profile: ConnectionProfile = { ...profileFor(server, 'openai'), keyRef: { kind: 'env', name: 'OPENAI_API_KEY' } };
    const events = await collect(client.stream(profile, hello));
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'LLM_AUTH_FAILED' } });
    expect(JSON.stringify(events)).not.toContain(CANARY);
    expect(log.lines.join('\n')).not.toContain(CANARY);
    expect(server.generations[0]!.headers.authorization).toBe(`Bearer ${CANARY}`);
  });

  it('the SDK never falls back to OPENAI_API_KEY from the process environment', async () => {
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-process-env-should-not-be-sent';
    try {
      const client = new LlmClient({ secrets: new MemorySecretStore(), env: {} });
      server.enqueue({ text: 'hi' });
      const { keyRef: _none, ...keyless } = profileFor(server, 'openai-compatible');
      await collect(client.stream(keyless, hello));
      expect(JSON.stringify(server.generations[0]!.headers)).not.toContain('sk-from-process-env');
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  it('S7: the connection test and model list never return the key, and views carry only hasKey and keyHint', async () => {
    const redactor = new Redactor();
    const log = captureLogger();
    const service = new ConnectionService({
      repository: new MemoryProfileRepository(),
      secrets: new MemorySecretStore(redactor),
      redactor,
      env: {},
      log: createRedactingLogger(log.logger, redactor),
    });
    const { keyRef: _none, id: _id, ...base } = profileFor(server, 'anthropic');
    const saved = service.save({ ...base, id: 'claude' }, CANARY);
    expect(saved.profile).toMatchObject({ hasKey: true, keyHint: 'Z123', keyRef: { kind: 'stored' } });
    expect(JSON.stringify(service.list())).not.toContain(CANARY);
    expect(JSON.stringify(saved)).not.toContain(CANARY);

    server.enqueueModels({ kind: 'error', status: 401, echoAuth: true });
    const result = await service.test('claude');
    expect(result).toMatchObject({ ok: false, error: { code: 'LLM_AUTH_FAILED' } });
    expect(JSON.stringify(result)).toContain('[REDACTED]');
    expect(JSON.stringify(result)).not.toContain(CANARY);
    expect(server.requests[0]!.headers['x-api-key']).toBe(CANARY);
    expect(log.lines.join('\n')).not.toContain(CANARY);
  });
});

describe('the redactor and the redacting logger', () => {
  it('scrubs known keys, their URL-encoded form and common key shapes from strings, objects and errors', () => {
    const redactor = new Redactor();
    redactor.add('my-very-secret/key+1');
    redactor.add('abc'); // too short to register: ordinary text must survive
    const error = new Error('failed with my-very-secret/key+1');
    const out = JSON.stringify(
      redactor.redactValue({
        a: 'key=my-very-secret%2Fkey%2B1',
        b: ['Authorization: Bearer sk-proj-abcdefghijklmnop', 'AIzaSyA1234567890abcdefghijklmnopqrs'],
        c: error,
        d: 'x-api-key: "zzzzzzzzzzzz"',
        e: 'abc stays',
      }),
    );
    expect(out).not.toMatch(/my-very-secret|sk-proj|AIzaSy|zzzzzzzz/);
    expect(out).toContain('abc stays');
    expect(out).toContain('[REDACTED]');
  });

  it('the logger wrapper redacts the message and every detail', () => {
    const redactor = new Redactor();
    redactor.add(CANARY);
    const log = captureLogger();
    const logger = createRedactingLogger(log.logger, redactor);
    logger.error(`boom ${CANARY}`, { nested: { deeper: [CANARY] } }, new Error(CANARY));
    logger.warn('plain');
    expect(log.lines).toHaveLength(2);
    expect(log.lines.join('\n')).not.toContain(CANARY);
    expect(log.lines[0]).toContain('[REDACTED]');
  });
});

describe('the secrets file', () => {
  it.skipIf(!posix)('S10: is created 0600, holds the key, and says it is unencrypted', () => {
    const dir = tempDir();
    const store = new FileSecretStore({ dataDir: dir });
    store.set('p1', CANARY);
    const file = path.join(dir, 'secrets.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(new FileSecretStore({ dataDir: dir }).get('p1')).toBe(CANARY);
    expect(store.describe()).toMatchObject({ backend: 'file', warning: expect.stringMatching(/unencrypted/) });
    expect(fs.readdirSync(dir)).toEqual(['secrets.json']);
  });

  it.skipIf(!posix)('a file that became world-readable is tightened back to 0600 on load, with a warning', () => {
    const dir = tempDir();
    new FileSecretStore({ dataDir: dir }).set('p1', CANARY);
    const file = path.join(dir, 'secrets.json');
    fs.chmodSync(file, 0o644);
    const log = captureLogger();
    const store = new FileSecretStore({ dataDir: dir, log: log.logger });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(store.get('p1')).toBe(CANARY);
    expect(log.lines.join('\n')).toMatch(/readable by others/);
    expect(log.lines.join('\n')).not.toContain(CANARY);
  });

  it('delete removes the key from the file; loaded keys are registered for redaction', () => {
    const dir = tempDir();
    new FileSecretStore({ dataDir: dir }).set('p1', CANARY);
    const redactor = new Redactor();
    const store = new FileSecretStore({ dataDir: dir, redactor });
    expect(redactor.redact(`x ${CANARY} y`)).toBe('x [REDACTED] y');
    store.delete('p1');
    expect(store.get('p1')).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8')).not.toContain(CANARY);
  });

  it('S11: an unreadable file is moved aside, not overwritten', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'secrets.json'), '{"version":1,"keys":{"p1":"sk-tru', { mode: 0o600 });
    const log = captureLogger();
    const store = new FileSecretStore({ dataDir: dir, log: log.logger });
    expect(store.get('p1')).toBeUndefined();
    expect(fs.readdirSync(dir).some((f) => f.startsWith('secrets.json.corrupt-'))).toBe(true);
    expect(log.lines.join('\n')).toMatch(/moved/);
  });

  it('rejects keys with line breaks without echoing them', () => {
    const store = new MemorySecretStore();
    expect(() => store.set('p1', 'sk-abc\r\nX-Evil: 1')).toThrow(/control characters/);
    try {
      store.set('p1', 'sk-abc\r\nX-Evil: 1');
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('sk-abc');
    }
  });

  it('views: hasKey and a 4-character hint, none for short or missing keys', () => {
    const secrets = new MemorySecretStore();
    secrets.set('long', 'sk-1234567890abcd');
    secrets.set('short', 'sk-12345');
    const base = profileFor(server, 'openai');
    expect(profileView({ ...base, id: 'long' }, secrets, {})).toMatchObject({ hasKey: true, keyHint: 'abcd' });
    expect(profileView({ ...base, id: 'short' }, secrets, {})).toMatchObject({ hasKey: true, keyHint: null });
    expect(profileView({ ...base, id: 'none' }, secrets, {})).toMatchObject({ hasKey: false, keyHint: null });
    expect(keyHint(undefined)).toBeNull();
  });
});

describe('S12: profile validation', () => {
  const good = { id: 'p1', name: 'Mine', provider: 'openai', baseUrl: 'https://api.openai.com/v1/', defaultModel: 'gpt-4o-mini', headers: {} };

  it('accepts a good profile and normalises the URL', () => {
    const result = validateProfile(good);
    expect(result).toEqual({ ok: true, value: { ...good, baseUrl: 'https://api.openai.com/v1' } });
  });

  it('keeps an image model, trimmed, and none for an empty one', () => {
    expect(validateProfile({ ...good, imageModel: ' gpt-image-1 ' })).toMatchObject({ ok: true, value: { imageModel: 'gpt-image-1' } });
    const empty = validateProfile({ ...good, imageModel: '  ' });
    expect(empty.ok && 'imageModel' in empty.value).toBe(false);
  });

  it.each([
    ['file:///etc/passwd', /http or https/],
    ['javascript:alert(1)', /http or https/],
    ['data:text/plain,hi', /http or https/],
    ['ftp://example.com/v1', /http or https/],
    ['https://user:pass@api.example.com/v1', /user name or password/],
    ['https://sk-secret@api.example.com/v1', /user name or password/],
    ['https://api.example.com/v1?key=abc', /query/],
    ['http://169.254.169.254/latest', /link-local/],
    ['http://[fe80::1]/v1', /link-local/],
    ['not a url', /not a valid URL/],
    ['', /required/],
  ])('rejects %s with INVALID_INPUT at /baseUrl', (baseUrl, message) => {
    const result = validateProfile({ ...good, baseUrl });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: 'INVALID_INPUT', path: '/baseUrl' });
    expect(result.error.message).toMatch(message);
    expect(JSON.stringify(result.error)).not.toContain('pass@');
    expect(JSON.stringify(result.error)).not.toContain('sk-secret');
  });

  it('the LLM client refuses such a profile before sending anything', async () => {
    const { client } = testClient();
    for (const baseUrl of ['file:///tmp/x', `http://u:p@127.0.0.1:${server.port}/v1`]) {
      const events = await collect(client.stream({ ...profileFor(server, 'openai'), baseUrl }, hello));
      expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ code: 'INVALID_INPUT', path: '/baseUrl' }) }]);
    }
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    [{ headers: { Authorization: 'Bearer x' } }, '/headers/Authorization'],
    [{ headers: { 'x-api-key': 'x' } }, '/headers/x-api-key'],
    [{ headers: { 'X-Title': 'a\r\nb' } }, '/headers/X-Title'],
    [{ headers: { 'bad header': 'x' } }, '/headers/bad header'],
    [{ keyRef: { kind: 'env', name: 'AWS_SECRET_ACCESS_KEY' } }, '/keyRef/name'],
    [{ keyRef: { kind: 'env', name: 'PATH' } }, '/keyRef/name'],
    [{ keyRef: { kind: 'file' } }, '/keyRef/kind'],
    [{ provider: 'cohere' }, '/provider'],
    [{ id: '../etc' }, '/id'],
    [{ extra: 1 }, '/extra'],
    // An image model only where the provider speaks OpenAI's Images API, and a plain one.
    [{ provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', imageModel: 'gpt-image-1' }, '/imageModel'],
    [{ imageModel: 'x'.repeat(201) }, '/imageModel'],
    [{ imageModel: 'gpt\nimage' }, '/imageModel'],
    [{ imageModel: 7 }, '/imageModel'],
  ])('rejects %j at %s', (patch, pathValue) => {
    const result = validateProfile({ ...good, ...patch });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: pathValue } });
  });

  // Finding 7: credentials in other headers are accepted and kept in the secret store (header-secrets.ts).
  it.each([
    ['Helicone-Auth', 'Bearer sk-helicone-0123456789'],
    ['X-Custom', 'sk-proj-abcdefghijklmnop'],
    ['X-Goog', 'AIzaSyA-0123456789abcdefghijklmno'],
    ['X-Relay', 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6'],
    ['X-Session-Token', 'short'],
  ])('S7: %s is a secret header: stored, masked, and registered with the redactor when sent', (name, value) => {
    expect(isSecretHeader(name, value)).toBe(true);
    const redactor = new Redactor();
    const store = new MemorySecretStore();
    const saved = stashHeaderSecrets({ ...good, id: 'p', headers: { [name]: value } } as ConnectionProfile, undefined, store);
    expect(saved.headers).toEqual({ [name]: STORED_SECRET });
    expect(maskHeaderSecrets(saved.headers)).toEqual({ [name]: KEPT_SECRET });
    expect(requestHeaders(saved, store, redactor)).toEqual({ [name]: value });
    if (value.length >= MIN_SECRET_LENGTH) expect(redactor.redact(`sent ${value}`)).toBe(`sent ${REDACTED}`);
  });

  it('S7: ordinary header values are not secrets', () => {
    for (const [name, value] of [['HTTP-Referer', 'https://example.com/app'], ['X-Title', 'Council Workbench'], ['OpenAI-Beta', 'assistants=v2']]) expect(isSecretHeader(name!, value!)).toBe(false);
  });

  it('accepts ordinary header values', () => {
    expect(validateProfile({ ...good, headers: { 'HTTP-Referer': 'https://example.com/app', 'X-Title': 'Council Workbench', 'OpenAI-Beta': 'assistants=v2' } }).ok).toBe(true);
  });

  it('accepts an env key named like an API key, and warns about plain http to another machine', () => {
    expect(validateProfile({ ...good, keyRef: { kind: 'env', name: 'OPENROUTER_API_KEY' } }).ok).toBe(true);
    expect(checkBaseUrl('http://127.0.0.1:11434')).toBeNull();
    const lan = validateProfile({ ...good, baseUrl: 'http://192.168.1.20:8080/v1', keyRef: { kind: 'stored' } });
    expect(lan.ok).toBe(true);
    if (lan.ok) expect(profileWarnings(lan.value)).toEqual([expect.stringMatching(/unencrypted/)]);
    const local = validateProfile({ ...good, baseUrl: 'http://localhost:1234/v1' });
    if (local.ok) expect(profileWarnings(local.value)).toEqual([]);
  });
});
