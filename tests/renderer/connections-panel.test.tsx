// @vitest-environment real-core
// The Connections section against the real core (in memory) and a local LLM test server: list and key status, the
// profile form's checks and the host's field errors, the key staying write-only, Test, List models, Detect local servers,
// Remove.
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, navButton, renderShell, settle, typeInto } from './harness';
import { disposeAllHosts, RealHost, type RealHostOptions } from './real-host';
import { LlmTestServer, type ServerIdentity } from '../fixtures/llm-server';
import { MemorySecretStore, type SecretStore, type SecretStoreDescription } from '../../electron/core/connections/secret-store';
import type { ConnectionProfile } from '../../shared/types/llm';
import { tinyGguf, writeTinyGguf } from '../fixtures/local-model/tiny-gguf';
import { PROBE_CASES, rightAnswer } from '../fixtures/local-model/probe-answers';
import { tempDir } from '../helpers/temp-dir';

const MODELS = ['qwen2.5-7b-instruct', 'llama-3.1-8b'];
const servers: LlmTestServer[] = [];

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await disposeAllHosts();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(options: { models?: string[]; identity?: ServerIdentity } = {}): Promise<LlmTestServer> {
  const started = await LlmTestServer.start({ models: MODELS, ...options });
  servers.push(started);
  return started;
}

/** A loopback port nothing listens on (taken from the system, then let go). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The core with an LLM test server to talk to; connections.detect probes only `options.detect` (default: a closed port). */
async function openConnections(arrange: (host: RealHost, llm: LlmTestServer) => Promise<unknown> = async () => undefined, options: RealHostOptions = {}) {
  const llm = await server();
  const nobody = await closedPort();
  const host = await RealHost.start({ detect: { ports: { ollama: nobody, lmstudio: nobody } }, ...options });
  await arrange(host, llm);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Connections').click());
  return { ...rendered, llm, panel: byTestId(rendered.container, 'panel-connections') };
}

/** The Local LM Studio profile, on the test server. */
function localProfile(llm: LlmTestServer, partial: Partial<ConnectionProfile> = {}): ConnectionProfile {
  return { id: 'local-lm', name: 'Local LM Studio', provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, defaultModel: 'qwen2.5-7b-instruct', headers: {}, ...partial };
}

function card(panel: HTMLElement, id: string): HTMLElement {
  const found = panel.querySelector<HTMLElement>(`[data-testid="connection"][data-id="${id}"]`);
  if (!found) throw new Error(`no card for ${id}`);
  return found;
}

function fieldError(control: HTMLElement): string {
  const id = control.getAttribute('aria-describedby');
  return (id ? document.getElementById(id)?.textContent : '') ?? '';
}

/**
 * S10's store on a desktop without a keyring, as a SecretStore port: it refuses keys until the person allows obfuscated
 * storage (the desktop's own store needs Electron's safeStorage, which a test process does not have).
 */
class ConsentSecretStore implements SecretStore {
  private readonly keys = new MemorySecretStore();
  private consent: 'needed' | 'given' = 'needed';
  get(id: string) {
    return this.keys.get(id);
  }
  set(id: string, key: string) {
    if (this.consent === 'needed') throw new Error('no consent yet');
    this.keys.set(id, key);
  }
  delete(id: string) {
    this.keys.delete(id);
  }
  describe(): SecretStoreDescription {
    return { backend: 'safeStorage:basic_text', warning: 'No system keyring was found, so API keys are stored with a fixed obfuscation key, not real encryption.', consent: this.consent };
  }
  allowObfuscated() {
    this.consent = 'given';
  }
}

describe('connection list', () => {
  it('shows the empty state with a way to add one and to detect local servers', async () => {
    const { panel } = await openConnections();
    expect(panel.querySelector('.empty-state__title')?.textContent).toBe('No connections yet');
    expect(buttonNamed(panel, 'Add connection')).toBeTruthy();
    expect(buttonNamed(panel, 'Detect local servers')).toBeTruthy();
  });

  it('lists each profile with provider, base URL, default model and how its key is held (never the key)', async () => {
    const { panel, host, llm } = await openConnections(async (h, server) => {
      await h.arrange('connections.save', { profile: localProfile(server) });
      await h.arrange('connections.save', { profile: { id: 'openai', name: 'OpenAI', provider: 'openai', baseUrl: 'https://api.openai.com/v1', defaultModel: 'gpt-4o-mini', headers: {} }, key: 'sk-proj-0123456789abcd' });
      await h.arrange('connections.save', { profile: { id: 'env', name: 'Anthropic', provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', headers: {}, keyRef: { kind: 'env', name: 'ANTHROPIC_API_KEY' } } });
    });
    expect(panel.querySelectorAll('[data-testid="connection"]')).toHaveLength(3);
    const local = card(panel, 'local-lm');
    expect(local.querySelector('h2')?.textContent).toBe('Local LM Studio');
    expect(local.textContent).toContain('OpenAI-compatible');
    expect(local.textContent).toContain(`${llm.origin}/v1`);
    expect(local.textContent).toContain('qwen2.5-7b-instruct');
    expect(byTestId(local, 'key-status').textContent).toBe('No key');
    expect(byTestId(card(panel, 'openai'), 'key-status').textContent).toBe('Key set …abcd');
    expect(byTestId(card(panel, 'env'), 'key-status').textContent).toBe('$ANTHROPIC_API_KEY is not set where the host runs');
    expect(panel.textContent).not.toContain('sk-proj-0123456789abcd');
    expect(JSON.stringify(host.calls)).not.toContain('sk-proj-0123456789abcd');
  });
});

describe('adding a connection', () => {
  it('offers the six providers and follows the chosen provider’s default base URL until one is typed', async () => {
    const { panel } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    const provider = byLabel<HTMLSelectElement>(form, 'Provider');
    expect([...provider.options].map((o) => o.textContent)).toEqual([
      'OpenAI',
      'Anthropic',
      'Google Gemini',
      'OpenAI-compatible (LM Studio, llama.cpp, vLLM, KoboldCpp, OpenRouter…)',
      'Ollama',
      'Local model (built in: a GGUF run by the Workbench itself)',
    ]);
    const baseUrl = byLabel(form, 'Base URL');
    expect(baseUrl.value).toBe('http://127.0.0.1:1234/v1');
    await settle(() => typeInto(provider, 'ollama'));
    expect(baseUrl.value).toBe('http://127.0.0.1:11434');
    await settle(() => typeInto(provider, 'anthropic'));
    expect(baseUrl.value).toBe('https://api.anthropic.com/v1');
    // A provider that needs a key asks for one, with the secret store's warning right there.
    expect(byLabel<HTMLInputElement>(form, 'Stored key').checked).toBe(true);
    expect(byLabel(form, 'Key').type).toBe('password');
    expect(byTestId(form, 'secrets-warning').textContent).toContain('API keys are stored unencrypted');
    await settle(() => typeInto(baseUrl, 'https://proxy.example.org/v1'));
    await settle(() => typeInto(provider, 'openai'));
    expect(baseUrl.value).toBe('https://proxy.example.org/v1');
  });

  it('S10: without a keyring the form offers the explicit choice to store keys obfuscated, and stops offering it once chosen', async () => {
    const { panel, host } = await openConnections(undefined, { secrets: new ConsentSecretStore() });
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Provider'), 'openai'));
    expect(byTestId(form, 'secrets-warning').textContent).toContain('not real encryption');
    expect(form.textContent).toContain('No key is saved here until you choose it.');
    await settle(() => buttonNamed(form, 'Store keys obfuscated').click());
    expect(host.calls.filter((c) => c.method === 'connections.allowObfuscatedKeys')).toHaveLength(1);
    expect(form.textContent).not.toContain('No key is saved here until you choose it.');
    expect((await host.arrange('connections.secretsInfo', {})).consent).toBe('given');
  });

  it('checks the form before sending: a name, a real http(s) URL, an API_KEY variable name', async () => {
    const { panel, host } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Base URL'), 'ftp://files.example.org'));
    await settle(() => byLabel(form, 'Environment variable').click());
    await settle(() => typeInto(byLabel(form, 'Variable name'), 'GITHUB_TOKEN'));
    await settle(() => buttonNamed(form, 'Save connection').click());
    expect(host.callsTo('connections.save')).toHaveLength(0);
    expect(byLabel(form, 'Name').getAttribute('aria-invalid')).toBe('true');
    expect(fieldError(byLabel(form, 'Name'))).toContain('Give the connection a name.');
    expect(fieldError(byLabel(form, 'Base URL'))).toContain('Use http or https, not ftp.');
    expect(fieldError(byLabel(form, 'Variable name'))).toContain('ends in API_KEY');
    expect(document.activeElement).toBe(byLabel(form, 'Name'));
  });

  it('shows the host’s validation error under the field it names', async () => {
    const { panel, host } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'Metadata'));
    await settle(() => typeInto(byLabel(form, 'Base URL'), 'http://169.254.169.254/v1'));
    await settle(() => buttonNamed(form, 'Save connection').click());
    expect(host.callsTo('connections.save')).toHaveLength(1);
    const baseUrl = byLabel(form, 'Base URL');
    expect(baseUrl.getAttribute('aria-invalid')).toBe('true');
    expect(fieldError(baseUrl)).toContain('link-local address');
    // And one under extra headers for a forbidden header.
    await settle(() => typeInto(baseUrl, 'https://openrouter.ai/api/v1'));
    await settle(() => buttonNamed(form, 'Add header').click());
    await settle(() => typeInto(byLabel(form, 'Header 1 name'), 'Authorization'));
    await settle(() => typeInto(byLabel(form, 'Header 1 value'), 'Bearer x'));
    await settle(() => buttonNamed(form, 'Save connection').click());
    expect(fieldError(byLabel(form, 'Header 1 name'))).toContain('The Authorization header cannot be set here. API keys go in the key field');
    expect(await host.arrange('connections.list', {})).toEqual([]);
  });

  it('an OpenAI or compatible connection may name an image model for extensions’ images; its card shows it; other providers are not asked', async () => {
    const { panel, host } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'Pictures'));
    await settle(() => typeInto(byLabel(form, 'Image model (optional)'), ' gpt-image-1 '));
    expect(document.getElementById(byLabel(form, 'Image model (optional)').getAttribute('aria-describedby')!)?.textContent).toContain('Extensions granted Image generation');
    await settle(() => typeInto(byLabel(form, 'Provider'), 'anthropic'));
    expect(form.querySelector('[id$="-imageModel"]')).toBeNull();
    await settle(() => typeInto(byLabel(form, 'Provider'), 'openai-compatible'));
    await settle(() => typeInto(byLabel(form, 'Base URL'), 'http://127.0.0.1:1234/v1'));
    await settle(() => buttonNamed(form, 'Save connection').click());
    expect((host.callsTo('connections.save')[0]!.input as { profile: Record<string, unknown> }).profile).toMatchObject({ name: 'Pictures', imageModel: 'gpt-image-1' });
    const [saved] = await host.arrange('connections.list', {});
    expect(saved).toMatchObject({ imageModel: 'gpt-image-1' });
    expect(card(panel, saved!.id).textContent).toContain('Image modelgpt-image-1');
  });

  it('sends a typed key once and never keeps it: not in the store, not on screen, not in the form afterwards', async () => {
    const KEY = 'sk-test-SECRET-9f8e7d6c5b4a-wxyz';
    const { panel, host, store } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'OpenRouter'));
    await settle(() => typeInto(byLabel(form, 'Base URL'), 'https://openrouter.ai/api/v1'));
    await settle(() => byLabel(form, 'Stored key').click());
    await settle(() => buttonNamed(form, 'Save connection').click());
    expect(fieldError(byLabel(form, 'Key'))).toContain('Paste the API key');
    await settle(() => typeInto(byLabel(form, 'Key'), KEY));
    await settle(() => buttonNamed(form, 'Add header').click());
    await settle(() => typeInto(byLabel(form, 'Header 1 name'), 'HTTP-Referer'));
    await settle(() => typeInto(byLabel(form, 'Header 1 value'), 'https://example.org'));
    await settle(() => buttonNamed(form, 'Save connection').click());

    const save = host.callsTo('connections.save')[0]!.input as { profile: Record<string, unknown>; key?: string };
    expect(save.key).toBe(KEY);
    expect(save.profile).toEqual({
      name: 'OpenRouter',
      provider: 'openai-compatible',
      baseUrl: 'https://openrouter.ai/api/v1',
      defaultModel: '',
      headers: { 'HTTP-Referer': 'https://example.org' },
      keyRef: { kind: 'stored' },
    });
    expect(panel.querySelector('[data-testid="profile-form"]')).toBeNull();
    expect(byTestId(panel, 'saved-note').textContent).toContain('Saved OpenRouter.');
    expect(byTestId(card(panel, 'openrouter'), 'key-status').textContent).toBe('Key set …wxyz');
    expect(JSON.stringify(store.getState())).not.toContain(KEY);
    expect(JSON.stringify(store.getState())).not.toContain('SECRET');
    expect(document.body.innerHTML).not.toContain('SECRET');

    // Editing shows the hint, not the key, and an empty key box that keeps the stored key.
    await settle(() => buttonNamed(panel, 'Edit OpenRouter').click());
    const edit = byTestId(panel, 'profile-form');
    expect(byTestId(edit, 'key-current').textContent).toContain('Key set …wxyz');
    expect(byLabel(edit, 'Replace the key').value).toBe('');
    await settle(() => buttonNamed(edit, 'Save changes').click());
    const second = host.callsTo('connections.save')[1]!.input as { profile: { id?: string; keyRef?: unknown }; key?: string };
    expect(second.key).toBeUndefined();
    expect(second.profile).toMatchObject({ id: 'openrouter', keyRef: { kind: 'stored' } });
    expect(document.body.innerHTML).not.toContain('SECRET');
    // The host kept the key through the second save, and never sends it back.
    expect(host.core.connections.list()).toMatchObject([{ id: 'openrouter', hasKey: true, keyHint: 'wxyz' }]);
    expect(JSON.stringify(await host.arrange('connections.list', {}))).not.toContain('SECRET');
  });
});

describe('test, models, remove', () => {
  it('tests a saved connection: latency and model count, or the error code, message and hint', async () => {
    const { panel, host, llm } = await openConnections((h, server) => h.arrange('connections.save', { profile: localProfile(server) }));
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'Test Local LM Studio').click());
    expect(host.callsTo('connections.test').map((c) => c.input)).toEqual([{ id: 'local-lm' }]);
    const ok = byTestId(card(panel, 'local-lm'), 'test-result');
    expect(ok.dataset.ok).toBe('true');
    expect(ok.textContent).toMatch(/Connected · 2 models · \d+(\.\d)? ms/);

    llm.enqueueModels({ kind: 'error', status: 401, message: 'Invalid API key' });
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'Test Local LM Studio').click());
    const bad = byTestId(card(panel, 'local-lm'), 'test-result');
    expect(bad.dataset.code).toBe('LLM_AUTH_FAILED');
    expect(bad.textContent).toContain("The provider rejected the request's credentials (HTTP 401)");
    expect(bad.textContent).toContain('Invalid API key');
    expect(bad.textContent).toContain('Check the API key for this connection.');
    expect(bad.textContent).toMatch(/\d+(\.\d)? ms/);
  });

  it('B10: a connection a restore held says why and is not used until its Confirm; then it tests as any other', async () => {
    const { panel, host } = await openConnections(async (h, server) => {
      // Restored from a backup into a folder that did not have it: held.
      const { backup } = await h.arrange('backup.export', {});
      (backup.settings as { connections: ConnectionProfile[] }).connections = [localProfile(server)];
      await h.arrange('backup.import', { json: JSON.stringify(backup) });
    });
    const held = byTestId(card(panel, 'local-lm'), 'connection-held');
    expect(held.textContent).toContain('not used until you confirm it: new: it sends to');
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'Test Local LM Studio').click());
    expect(byTestId(card(panel, 'local-lm'), 'test-result').dataset.code).toBe('CONNECTION_HELD');
    await settle(() => buttonNamed(held, 'Confirm Local LM Studio').click());
    expect(host.callsTo('connections.confirm').map((c) => c.input)).toEqual([{ id: 'local-lm' }]);
    expect(card(panel, 'local-lm').querySelector('[data-testid="connection-held"]')).toBeNull();
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'Test Local LM Studio').click());
    expect(byTestId(card(panel, 'local-lm'), 'test-result').dataset.ok).toBe('true');
  });

  it('tests the unsaved form with the typed key and fills the model picker from its list', async () => {
    const { panel, host, llm } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'Local'));
    await settle(() => typeInto(byLabel(form, 'Base URL'), `${llm.origin}/v1`));
    await settle(() => buttonNamed(form, 'List models').click());
    expect(host.callsTo('connections.test')[0]!.input).toEqual({
      profile: { name: 'Local', provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, defaultModel: '', headers: {} },
    });
    expect(llm.requests.map((r) => r.url)).toEqual(['/v1/models']);
    const picker = byLabel<HTMLSelectElement>(form, 'Pick the default model');
    expect([...picker.options].map((o) => o.value)).toEqual(['', 'llama-3.1-8b', 'qwen2.5-7b-instruct']);
    await settle(() => typeInto(picker, 'llama-3.1-8b'));
    expect(byLabel(form, 'Default model').value).toBe('llama-3.1-8b');
    await settle(() => buttonNamed(form, 'Test connection').click());
    expect(byTestId(form, 'test-result').textContent).toContain('Connected · 2 models');
  });

  it('a test result goes when the input it tested changes or no longer validates ("Connected" never sits beside "not a URL")', async () => {
    const { panel, host, llm } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'Local'));
    await settle(() => typeInto(byLabel(form, 'Base URL'), `${llm.origin}/v1`));
    await settle(() => buttonNamed(form, 'Test connection').click());
    expect(byTestId(form, 'test-result').textContent).toContain('Connected');
    await settle(() => typeInto(byLabel(form, 'Base URL'), 'not a url'));
    expect(form.querySelector('[data-testid="test-result"]')).toBeNull();
    await settle(() => buttonNamed(form, 'Test connection').click());
    expect(host.callsTo('connections.test')).toHaveLength(1);
    expect(fieldError(byLabel(form, 'Base URL'))).toBeTruthy();
    expect(form.querySelector('[data-testid="test-result"]')).toBeNull();
  });

  it('the models listed for one server go when the form points at another ("2 models on the server" is not about the new URL)', async () => {
    const { panel, llm } = await openConnections();
    const other = await server({ models: ['other-model'] });
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'Local'));
    await settle(() => typeInto(byLabel(form, 'Base URL'), `${llm.origin}/v1`));
    await settle(() => buttonNamed(form, 'List models').click());
    expect(form.textContent).toContain('2 models on the server');
    await settle(() => typeInto(byLabel(form, 'Base URL'), `${other.origin}/v1`));
    expect(form.textContent).not.toContain('on the server');
    expect(form.querySelector('[aria-label="Pick the default model"]')).toBeNull();
  });

  it('lists a saved connection’s models and makes one the default', async () => {
    const { panel, host } = await openConnections((h, server) => h.arrange('connections.save', { profile: localProfile(server) }));
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'List models of Local LM Studio').click());
    const list = byTestId(card(panel, 'local-lm'), 'model-list');
    const select = list.querySelector('select')!;
    expect([...select.options].map((o) => o.value)).toEqual(['llama-3.1-8b', 'qwen2.5-7b-instruct']);
    await settle(() => typeInto(select, 'llama-3.1-8b'));
    await settle(() => buttonNamed(list, 'Make default').click());
    expect((host.callsTo('connections.save')[0]!.input as { profile: { defaultModel: string } }).profile.defaultModel).toBe('llama-3.1-8b');
    expect(card(panel, 'local-lm').textContent).toContain('llama-3.1-8b');
    expect(host.core.connections.get('local-lm').defaultModel).toBe('llama-3.1-8b');
  });

  it('removes a connection only after confirming', async () => {
    const { panel, host } = await openConnections(async (h, server) => {
      await h.arrange('connections.save', { profile: localProfile(server) });
      await h.arrange('connections.save', { profile: localProfile(server, { id: 'other', name: 'Other' }) });
    });
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'Remove Local LM Studio…').click());
    expect(host.callsTo('connections.remove')).toHaveLength(0);
    const confirm = byTestId(panel, 'confirm-remove');
    expect(confirm.textContent).toContain('Its stored key is deleted too.');
    await settle(() => buttonNamed(confirm, 'Remove').click());
    expect(host.callsTo('connections.remove').map((c) => c.input)).toEqual([{ id: 'local-lm' }]);
    expect(panel.querySelectorAll('[data-testid="connection"]')).toHaveLength(1);
    expect((await host.arrange('connections.list', {})).map((p) => p.id)).toEqual(['other']);
  });
});

describe('detect local servers', () => {
  it('shows progress while probing, then offers one-click Add for each server found', async () => {
    const ollama = await server({ identity: 'ollama', models: ['llama3.2:3b'] });
    const lmstudio = await server({ identity: 'lmstudio', models: ['qwen'] });
    const { panel, host } = await openConnections(undefined, { detect: { ports: { ollama: ollama.port, lmstudio: lmstudio.port } } });
    // The core probes at once; its answer is held back so the page can be seen while it waits.
    const answer = host.hold('connections.detect');
    await settle(() => buttonNamed(panel, 'Detect local servers').click());
    const detect = byTestId(panel, 'detect');
    expect(byTestId(detect, 'detect-progress').textContent).toContain('Probing Ollama (11434), LM Studio (1234)');
    expect(buttonNamed(detect, 'Detecting…').getAttribute('aria-disabled')).toBe('true');
    await settle(() => answer.release());
    expect(detect.querySelector('[data-testid="detect-progress"]')).toBeNull();
    const found = [...detect.querySelectorAll<HTMLElement>('[data-testid="detected"]')];
    expect(found.map((f) => f.dataset.kind)).toEqual(['ollama', 'lmstudio']);
    expect(found[0]!.textContent).toContain('1 model: llama3.2:3b');
    await settle(() => buttonNamed(detect, `Add Ollama on port ${ollama.port}`).click());
    expect((host.callsTo('connections.save')[0]!.input as { profile: object }).profile).toEqual({
      name: 'Ollama (local)',
      provider: 'ollama',
      baseUrl: ollama.origin,
      defaultModel: 'llama3.2:3b',
      headers: {},
    });
    expect((await host.arrange('connections.list', {})).map((p) => p.provider)).toEqual(['ollama']);
    expect(byTestId(panel, 'detect').querySelector('[data-kind="ollama"]')?.textContent).toContain('Added as Ollama (local)');
    expect(card(panel, 'ollama-local')).toBeTruthy();
  });

  it('says so when nothing answers', async () => {
    const { panel } = await openConnections();
    await settle(() => buttonNamed(panel, 'Detect local servers').click());
    expect(byTestId(panel, 'detect').textContent).toContain('No local server answered.');
  });
});

describe('local models', () => {
  it('a GGUF added by its path is listed with its header; Use makes it a connection; the local form asks no address or key', async () => {
    const { panel, host } = await openConnections();
    const gguf = writeTinyGguf(path.join(tempDir('cw-local-ui-'), 'tiny-random-llama.gguf'));
    const local = byTestId(panel, 'local-models');
    expect(local.textContent).toContain('No local models yet');
    // Not a GGUF: the host's answer shows where the person is.
    const text = path.join(path.dirname(gguf), 'notes.txt');
    fs.writeFileSync(text, 'hello');
    await settle(() => typeInto(byLabel(local, 'Model file'), text));
    await settle(() => buttonNamed(local, 'Add model').click());
    expect(local.querySelector('[role="alert"]')?.textContent).toContain('is not a GGUF model');
    await settle(() => typeInto(byLabel(local, 'Model file'), gguf));
    await settle(() => buttonNamed(local, 'Add model').click());
    const row = byTestId(local, 'local-model');
    expect(row.dataset.id).toBe('tiny-random-llama');
    expect(row.textContent).toContain('llama · 0.5 MB · context 2048');
    await settle(() => buttonNamed(local, 'Use tiny-random-llama as a connection').click());
    expect((await host.arrange('connections.list', {})).map((p) => [p.provider, p.baseUrl, p.defaultModel])).toEqual([['local', 'local:models', 'tiny-random-llama']]);
    expect(row.textContent).toContain('Used by Local tiny-random-llama');

    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel<HTMLSelectElement>(form, 'Provider'), 'local'));
    expect(form.querySelector('input[id$="baseUrl"]')).toBeNull();
    expect(form.textContent).not.toContain('Extra headers');
    expect(form.querySelector('input[type="password"]')).toBeNull();
    await settle(() => typeInto(byLabel(form, 'Name'), 'Second local'));
    await settle(() => buttonNamed(form, 'Save connection').click());
    expect(fieldError(byLabel(form, 'Default model'))).toContain('Choose one of your local models');
  });

  it('a download shows its progress and lands in the list; a bad source is answered where it was typed', async () => {
    const body = tinyGguf();
    const files = http.createServer((req, res) => {
      if (req.url !== '/m/tiny.gguf') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': String(body.length) });
      res.end(body);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    try {
      const { panel } = await openConnections();
      const local = byTestId(panel, 'local-models');
      await settle(() => typeInto(byLabel(local, 'Download a model'), 'ftp://example.org/x.gguf'));
      await settle(() => buttonNamed(local, 'Download').click());
      expect(local.querySelector('[role="alert"]')?.textContent).toContain('http or https');
      await settle(() => typeInto(byLabel(local, 'Download a model'), `http://127.0.0.1:${(files.address() as AddressInfo).port}/m/tiny.gguf`));
      await settle(() => buttonNamed(local, 'Download').click());
      await vi.waitFor(() => expect(byTestId(local, 'model-download').dataset.state, byTestId(local, 'model-download').textContent ?? '').toBe('done'));
      expect(byTestId(local, 'model-download').textContent).toContain('Done: 0.5 MB, checked, added to your models.');
      await vi.waitFor(() => expect(byTestId(local, 'local-model').dataset.id).toBe('tiny'));
    } finally {
      await new Promise<void>((resolve) => files.close(() => resolve()));
    }
  });
});

describe('the tool-calling probe', () => {
  it('a connection with a model offers the probe; its card shows beside the model, on the connection and in the sidecar', async () => {
    const { panel, llm, container } = await openConnections((host, llm) => host.arrange('connections.save', { profile: localProfile(llm) }));
    const connection = card(panel, 'local-lm');
    const probe = byTestId(connection, 'tool-calling-card');
    expect(probe.textContent).toContain('Tool calling not probed yet for this model.');
    llm.enqueue(...PROBE_CASES.map(rightAnswer));
    await settle(() => buttonNamed(probe, 'Probe tool calling').click());
    await vi.waitFor(() => expect(byTestId(connection, 'tool-calling-card').textContent).toContain('100% valid calls, 100% restraint, 100% follow-up turns'));
    await settle(() => navButton(container, 'Sidecar').click());
    const sidecar = byTestId(container, 'panel-sidecar');
    await settle(() => typeInto(byLabel<HTMLSelectElement>(sidecar, 'Connection'), 'local-lm'));
    await vi.waitFor(() => expect(byTestId(sidecar, 'tool-calling-card').textContent).toContain('(qwen2.5-7b-instruct): 100% valid calls'));
  });
});
