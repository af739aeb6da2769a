// @vitest-environment happy-dom
// The Connections section against a fake host: list and key status, the profile form's checks and the host's field errors,
// the key staying write-only, Test, List models, Detect local servers, Remove.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, FakeHost, navButton, renderShell, settle, typeInto } from './harness';
import { deferred, installLlmFakes, profile, type LlmFakes } from './connections-fakes';
import type { MethodOutput } from '../../shared/contract';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openConnections(arrange: (fakes: LlmFakes) => void = () => undefined) {
  const host = new FakeHost();
  const fakes = installLlmFakes(host);
  arrange(fakes);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Connections').click());
  return { ...rendered, fakes, panel: byTestId(rendered.container, 'panel-connections') };
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

describe('connection list', () => {
  it('shows the empty state with a way to add one and to detect local servers', async () => {
    const { panel } = await openConnections();
    expect(panel.querySelector('.empty-state__title')?.textContent).toBe('No connections yet');
    expect(buttonNamed(panel, 'Add connection')).toBeTruthy();
    expect(buttonNamed(panel, 'Detect local servers')).toBeTruthy();
  });

  it('lists each profile with provider, base URL, default model and how its key is held (never the key)', async () => {
    const { panel, fakes } = await openConnections((f) => {
      f.profiles.push(profile(), profile({ id: 'openai', name: 'OpenAI', provider: 'openai', baseUrl: 'https://api.openai.com/v1', defaultModel: 'gpt-4o-mini', keyRef: { kind: 'stored' } }));
      f.profiles.push(profile({ id: 'env', name: 'Anthropic', provider: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', keyRef: { kind: 'env', name: 'ANTHROPIC_API_KEY' } }));
      f.keys.set('openai', 'sk-proj-0123456789abcd');
    });
    expect(fakes.profiles).toHaveLength(3);
    const local = card(panel, 'local-lm');
    expect(local.querySelector('h2')?.textContent).toBe('Local LM Studio');
    expect(local.textContent).toContain('OpenAI-compatible');
    expect(local.textContent).toContain('http://127.0.0.1:1234/v1');
    expect(local.textContent).toContain('qwen2.5-7b-instruct');
    expect(byTestId(local, 'key-status').textContent).toBe('No key');
    expect(byTestId(card(panel, 'openai'), 'key-status').textContent).toBe('Key set …abcd');
    expect(byTestId(card(panel, 'env'), 'key-status').textContent).toBe('$ANTHROPIC_API_KEY is not set where the host runs');
    expect(panel.textContent).not.toContain('sk-proj-0123456789abcd');
  });
});

describe('adding a connection', () => {
  it('offers the five providers and follows the chosen provider’s default base URL until one is typed', async () => {
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
    expect(byTestId(form, 'secrets-warning').textContent).toContain('not encrypted');
    await settle(() => typeInto(baseUrl, 'https://proxy.example.org/v1'));
    await settle(() => typeInto(provider, 'openai'));
    expect(baseUrl.value).toBe('https://proxy.example.org/v1');
  });

  it('S10: without a keyring the form offers the explicit choice to store keys obfuscated, and stops offering it once chosen', async () => {
    const { panel, host } = await openConnections((f) => {
      f.secrets = { backend: 'safeStorage:basic_text', warning: 'No system keyring was found, so API keys are stored with a fixed obfuscation key, not real encryption.', consent: 'needed' };
    });
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Provider'), 'openai'));
    expect(byTestId(form, 'secrets-warning').textContent).toContain('not real encryption');
    expect(form.textContent).toContain('No key is saved here until you choose it.');
    await settle(() => buttonNamed(form, 'Store keys obfuscated').click());
    expect(host.calls.filter((c) => c.method === 'connections.allowObfuscatedKeys')).toHaveLength(1);
    expect(form.textContent).not.toContain('No key is saved here until you choose it.');
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
    expect(fieldError(byLabel(form, 'Header 1 name'))).toContain('The Authorization header cannot be set here. API keys go in the key field.');
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
  });
});

describe('test, models, remove', () => {
  it('tests a saved connection: latency and model count, or the error code, message and hint', async () => {
    const { panel, host, fakes } = await openConnections((f) => f.profiles.push(profile()));
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'Test Local LM Studio').click());
    expect(host.callsTo('connections.test').map((c) => c.input)).toEqual([{ id: 'local-lm' }]);
    const ok = byTestId(card(panel, 'local-lm'), 'test-result');
    expect(ok.dataset.ok).toBe('true');
    expect(ok.textContent).toMatch(/Connected · 2 models · \d+(\.\d)? ms/);

    fakes.testError = { code: 'LLM_AUTH_FAILED', message: 'The server refused the API key (401).', hint: 'Check the key, or set it again.' };
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'Test Local LM Studio').click());
    const bad = byTestId(card(panel, 'local-lm'), 'test-result');
    expect(bad.dataset.code).toBe('LLM_AUTH_FAILED');
    expect(bad.textContent).toContain('The server refused the API key (401).');
    expect(bad.textContent).toContain('Check the key, or set it again.');
    expect(bad.textContent).toMatch(/\d+(\.\d)? ms/);
  });

  it('tests the unsaved form with the typed key and fills the model picker from its list', async () => {
    const { panel, host } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'Local'));
    await settle(() => buttonNamed(form, 'List models').click());
    expect(host.callsTo('connections.test')[0]!.input).toEqual({
      profile: { name: 'Local', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', defaultModel: '', headers: {} },
    });
    const picker = byLabel<HTMLSelectElement>(form, 'Pick the default model');
    expect([...picker.options].map((o) => o.value)).toEqual(['', 'qwen2.5-7b-instruct', 'llama-3.1-8b']);
    await settle(() => typeInto(picker, 'llama-3.1-8b'));
    expect(byLabel(form, 'Default model').value).toBe('llama-3.1-8b');
    await settle(() => buttonNamed(form, 'Test connection').click());
    expect(byTestId(form, 'test-result').textContent).toContain('Connected · 2 models');
  });

  it('a test result goes when the input it tested changes or no longer validates ("Connected" never sits beside "not a URL")', async () => {
    const { panel, host } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'Local'));
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
    const { panel } = await openConnections();
    await settle(() => buttonNamed(panel, 'Add connection').click());
    const form = byTestId(panel, 'profile-form');
    await settle(() => typeInto(byLabel(form, 'Name'), 'Local'));
    await settle(() => buttonNamed(form, 'List models').click());
    expect(form.textContent).toContain('2 models on the server');
    await settle(() => typeInto(byLabel(form, 'Base URL'), 'http://127.0.0.1:8080/v1'));
    expect(form.textContent).not.toContain('on the server');
    expect(form.querySelector('[aria-label="Pick the default model"]')).toBeNull();
  });

  it('lists a saved connection’s models and makes one the default', async () => {
    const { panel, host } = await openConnections((f) => f.profiles.push(profile()));
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'List models of Local LM Studio').click());
    const list = byTestId(card(panel, 'local-lm'), 'model-list');
    const select = list.querySelector('select')!;
    expect([...select.options].map((o) => o.value)).toEqual(['qwen2.5-7b-instruct', 'llama-3.1-8b']);
    await settle(() => typeInto(select, 'llama-3.1-8b'));
    await settle(() => buttonNamed(list, 'Make default').click());
    expect((host.callsTo('connections.save')[0]!.input as { profile: { defaultModel: string } }).profile.defaultModel).toBe('llama-3.1-8b');
    expect(card(panel, 'local-lm').textContent).toContain('llama-3.1-8b');
  });

  it('removes a connection only after confirming', async () => {
    const { panel, host } = await openConnections((f) => f.profiles.push(profile(), profile({ id: 'other', name: 'Other' })));
    await settle(() => buttonNamed(card(panel, 'local-lm'), 'Remove Local LM Studio…').click());
    expect(host.callsTo('connections.remove')).toHaveLength(0);
    const confirm = byTestId(panel, 'confirm-remove');
    expect(confirm.textContent).toContain('Its stored key is deleted too.');
    await settle(() => buttonNamed(confirm, 'Remove').click());
    expect(host.callsTo('connections.remove').map((c) => c.input)).toEqual([{ id: 'local-lm' }]);
    expect(panel.querySelectorAll('[data-testid="connection"]')).toHaveLength(1);
  });
});

describe('detect local servers', () => {
  it('shows progress while probing, then offers one-click Add for each server found', async () => {
    const answer = deferred<MethodOutput<'connections.detect'>>();
    const { panel, host, fakes } = await openConnections((f) => (f.detect = () => answer.promise));
    await settle(() => buttonNamed(panel, 'Detect local servers').click());
    const detect = byTestId(panel, 'detect');
    expect(byTestId(detect, 'detect-progress').textContent).toContain('Probing Ollama (11434), LM Studio (1234)');
    expect(buttonNamed(detect, 'Detecting…').getAttribute('aria-disabled')).toBe('true');
    await settle(() =>
      answer.resolve([
        { kind: 'ollama', port: 11434, suggested: { name: 'Ollama (local)', provider: 'ollama', baseUrl: 'http://127.0.0.1:11434', defaultModel: '', headers: {} }, models: ['llama3.2:3b'] },
        { kind: 'lmstudio', port: 1234, suggested: { name: 'LM Studio (local)', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:1234/v1', defaultModel: 'qwen', headers: {} }, models: ['qwen'] },
      ]),
    );
    expect(detect.querySelector('[data-testid="detect-progress"]')).toBeNull();
    const found = [...detect.querySelectorAll<HTMLElement>('[data-testid="detected"]')];
    expect(found.map((f) => f.dataset.kind)).toEqual(['ollama', 'lmstudio']);
    expect(found[0]!.textContent).toContain('1 model: llama3.2:3b');
    await settle(() => buttonNamed(detect, 'Add Ollama on port 11434').click());
    expect((host.callsTo('connections.save')[0]!.input as { profile: object }).profile).toEqual({
      name: 'Ollama (local)',
      provider: 'ollama',
      baseUrl: 'http://127.0.0.1:11434',
      defaultModel: 'llama3.2:3b',
      headers: {},
    });
    expect(fakes.profiles.map((p) => p.provider)).toEqual(['ollama']);
    expect(byTestId(panel, 'detect').querySelector('[data-kind="ollama"]')?.textContent).toContain('Added as Ollama (local)');
    expect(card(panel, 'ollama-local-')).toBeTruthy();
  });

  it('says so when nothing answers', async () => {
    const { panel } = await openConnections();
    await settle(() => buttonNamed(panel, 'Detect local servers').click());
    expect(byTestId(panel, 'detect').textContent).toContain('No local server answered.');
  });
});
