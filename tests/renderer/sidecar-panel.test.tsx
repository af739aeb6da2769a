// @vitest-environment real-core
// The Sidecar section against the real core (in memory) and a local LLM test server: what it does, defaults, range
// checks before sending, the host's field errors, model picking, save.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, navButton, renderShell, settle, typeInto } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { LlmTestServer } from '../fixtures/llm-server';
import type { SidecarConfig } from '../../shared/types/llm';
import { extensionsSettled, FIXTURE_EXTENSIONS } from './real-tools';
import path from 'node:path';

const servers: LlmTestServer[] = [];

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await disposeAllHosts();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Arrange {
  /** Save the two connections (Local LM Studio on the test server, OpenAI). */
  profiles?: boolean;
  sidecar?: Partial<SidecarConfig>;
  models?: string[];
}

async function openSidecar(arrange: Arrange = {}) {
  const llm = await LlmTestServer.start({ models: arrange.models ?? ['qwen2.5-7b-instruct', 'llama-3.1-8b'] });
  servers.push(llm);
  const host = await RealHost.start();
  if (arrange.profiles) {
    await host.arrange('connections.save', { profile: { id: 'local-lm', name: 'Local LM Studio', provider: 'openai-compatible', baseUrl: `${llm.origin}/v1`, defaultModel: 'qwen2.5-7b-instruct', headers: {} } });
    await host.arrange('connections.save', { profile: { id: 'openai', name: 'OpenAI', provider: 'openai', baseUrl: 'https://api.openai.com/v1', defaultModel: 'gpt-4o-mini', headers: {} } });
  }
  if (arrange.sidecar) await host.arrange('sidecar.update', { patch: arrange.sidecar });
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Sidecar').click());
  return { ...rendered, llm, panel: byTestId(rendered.container, 'panel-sidecar') };
}

function fieldError(control: HTMLElement): string {
  const id = control.getAttribute('aria-describedby');
  return (id ? document.getElementById(id)?.textContent : '') ?? '';
}

const twoProfiles: Arrange = { profiles: true };

describe('sidecar', () => {
  it('sends the user to Connections when there is nothing to choose, and explains what the sidecar does', async () => {
    const { panel, store } = await openSidecar();
    expect(panel.querySelector('.empty-state__title')?.textContent).toBe('Sidecar model not configured');
    expect(panel.textContent).toContain('each active member’s prompt tools run on it');
    expect(panel.textContent).toContain('plans the arguments');
    await settle(() => buttonNamed(panel, 'Go to Connections').click());
    expect(store.getState().section).toBe('connections');
  });

  it('starts from the seed defaults (0.7, 0.9, 1024) and says why it is not usable yet', async () => {
    const { panel } = await openSidecar(twoProfiles);
    expect(byLabel(panel, 'Temperature').value).toBe('0.7');
    expect(byLabel(panel, 'Top P').value).toBe('0.9');
    expect(byLabel(panel, 'Max tokens').value).toBe('1024');
    const status = byTestId(panel, 'sidecar-status');
    expect(status.dataset.configured).toBe('false');
    expect(status.textContent).toContain('No sidecar connection is chosen.');
    const connection = byLabel<HTMLSelectElement>(panel, 'Connection');
    expect([...connection.options].map((o) => o.textContent)).toEqual(['— Choose a connection —', 'Local LM Studio', 'OpenAI']);
    expect(panel.textContent).toContain('prompt tools run on it');
  });

  it('checks the ranges inline and sends nothing until they are right', async () => {
    const { panel, host } = await openSidecar(twoProfiles);
    await settle(() => typeInto(byLabel(panel, 'Temperature'), '2.5'));
    await settle(() => typeInto(byLabel(panel, 'Top P'), '-0.1'));
    await settle(() => typeInto(byLabel(panel, 'Max tokens'), '10.5'));
    await settle(() => buttonNamed(panel, 'Save').click());
    expect(host.callsTo('sidecar.update')).toHaveLength(0);
    expect(byLabel(panel, 'Temperature').getAttribute('aria-invalid')).toBe('true');
    expect(fieldError(byLabel(panel, 'Temperature'))).toBe('Temperature must be from 0 to 2.');
    expect(fieldError(byLabel(panel, 'Top P'))).toBe('Top P must be from 0 to 1.');
    expect(fieldError(byLabel(panel, 'Max tokens'))).toBe('Max tokens must be a whole number from 1 to 65536.');
    expect(document.activeElement).toBe(byLabel(panel, 'Temperature'));
    await settle(() => typeInto(byLabel(panel, 'Max tokens'), '')); // empty is not a number either
    expect(fieldError(byLabel(panel, 'Max tokens'))).toBe('Max tokens must be a number from 1 to 65536.');
    // Fixing a field clears its error as it is typed.
    await settle(() => typeInto(byLabel(panel, 'Temperature'), '0.2'));
    expect(byLabel(panel, 'Temperature').getAttribute('aria-invalid')).toBeNull();
  });

  it('saves the whole config with sidecar.update and shows it is ready', async () => {
    const { panel, host } = await openSidecar(twoProfiles);
    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Connection'), 'openai'));
    expect(byLabel(panel, 'Model').placeholder).toBe('Default: gpt-4o-mini');
    await settle(() => typeInto(byLabel(panel, 'Temperature'), '0.3'));
    await settle(() => typeInto(byLabel(panel, 'Max tokens'), '512'));
    await settle(() => buttonNamed(panel, 'Save').click());
    expect(host.callsTo('sidecar.update').map((c) => c.input)).toEqual([
      { patch: { connectionProfileId: 'openai', model: '', temperature: 0.3, topP: 0.9, maxTokens: 512 } },
    ]);
    expect((await host.arrange('sidecar.get', {})).config).toEqual({ connectionProfileId: 'openai', model: '', temperature: 0.3, topP: 0.9, maxTokens: 512 });
    const status = byTestId(panel, 'sidecar-status');
    expect(status.dataset.configured).toBe('true');
    expect(status.textContent).toContain('Ready: council tools use OpenAI');
    expect(panel.textContent).toContain('Saved.');
  });

  it('puts the host’s range error on the field it names', async () => {
    const { panel, host } = await openSidecar(twoProfiles);
    // The form never sends a value out of range, so this one call goes to the core with topP made 1.5: the core's own
    // field error comes back.
    host.overrides['sidecar.update'] = async ({ patch }) => (await host.core.api.call('sidecar.update', { patch: { ...patch, topP: 1.5 } }, { origin: 'ws' })) as never;
    await settle(() => buttonNamed(panel, 'Save').click());
    expect(host.callsTo('sidecar.update')).toHaveLength(1);
    expect(byLabel(panel, 'Top P').getAttribute('aria-invalid')).toBe('true');
    expect(fieldError(byLabel(panel, 'Top P'))).toContain('/patch/topP must be <= 1');
  });

  it('counts the server\'s models in words that agree with the number ("1 model", "2 models")', async () => {
    for (const [models, text] of [[['only-one'], '1 model on the server'], [['a', 'b'], '2 models on the server']] as const) {
      const { panel } = await openSidecar({ profiles: true, sidecar: { connectionProfileId: 'local-lm' }, models: [...models] });
      await settle(() => buttonNamed(panel, 'List models').click());
      expect(byLabel<HTMLSelectElement>(panel, 'Pick the sidecar model').options[0]!.textContent).toContain(text);
      cleanup();
      await disposeAllHosts();
    }
  });

  it('picks the model from the connection’s list, or takes a typed one', async () => {
    const { panel, host } = await openSidecar({ profiles: true, sidecar: { connectionProfileId: 'local-lm' } });
    expect(byTestId(panel, 'sidecar-status').dataset.configured).toBe('true');
    await settle(() => buttonNamed(panel, 'List models').click());
    expect(host.callsTo('connections.models').map((c) => c.input)).toEqual([{ id: 'local-lm' }]);
    const pick = byLabel<HTMLSelectElement>(panel, 'Pick the sidecar model');
    await settle(() => typeInto(pick, 'llama-3.1-8b'));
    expect(byLabel(panel, 'Model').value).toBe('llama-3.1-8b');
    await settle(() => typeInto(byLabel(panel, 'Model'), 'my-finetune'));
    await settle(() => buttonNamed(panel, 'Save').click());
    expect((host.callsTo('sidecar.update')[0]!.input as { patch: { model: string } }).patch.model).toBe('my-finetune');
    expect(host.core.sidecar.config().model).toBe('my-finetune');
  });

  it('resets sampling to the defaults', async () => {
    const { panel } = await openSidecar({ profiles: true, sidecar: { connectionProfileId: 'local-lm', model: '', temperature: 1.5, topP: 0.5, maxTokens: 4000 } });
    expect(byLabel(panel, 'Temperature').value).toBe('1.5');
    await settle(() => buttonNamed(panel, 'Reset sampling to defaults').click());
    expect([byLabel(panel, 'Temperature').value, byLabel(panel, 'Top P').value, byLabel(panel, 'Max tokens').value]).toEqual(['0.7', '0.9', '1024']);
    expect(panel.textContent).toContain('Unsaved changes.');
  });

  it('offers a running extension’s sidecar endpoint beside the connections (Spindle registerSidecarEndpoint), and takes it away when it stops', async () => {
    const { panel, host } = await openSidecar(twoProfiles);
    const options = () => [...byLabel<HTMLSelectElement>(panel, 'Connection').options].map((o) => o.textContent);
    await settle(async () => void (await host.arrange('extensions.install', { folder: path.join(FIXTURE_EXTENSIONS, 'lumiverse_providers'), grant: ['tools', 'chats'] })));
    await extensionsSettled(host);
    // Its registrations reach the host after its start: the panel reads the sidecar again when the card says so.
    for (let i = 0; i < 200 && !options().includes('Echo Council — Echo Council'); i++) await settle(() => new Promise((resolve) => setTimeout(resolve, 25)));
    expect(options()).toEqual(['— Choose a connection —', 'Local LM Studio', 'OpenAI', 'Echo Council — Echo Council']);
    expect(byLabel(panel, 'Connection').querySelector('optgroup')?.getAttribute('label')).toBe('Extensions’ sidecar endpoints');
    await settle(() => typeInto(byLabel<HTMLSelectElement>(panel, 'Connection'), 'extension:lumiverse_providers/echo-council'));
    expect(buttonNamed(panel, 'List models').getAttribute('aria-disabled')).toBe('true');
    await settle(() => buttonNamed(panel, 'Save').click());
    expect(byTestId(panel, 'sidecar-status').textContent).toContain('Ready: council tools use Echo Council, the sidecar endpoint of Echo Council.');
    // Offered only while it is granted chats: a revoke takes it away, a grant brings it back.
    await settle(async () => void (await host.arrange('extensions.revoke', { id: 'lumiverse_providers', permission: 'chats' })));
    for (let i = 0; i < 200 && options().includes('Echo Council — Echo Council'); i++) await settle(() => new Promise((resolve) => setTimeout(resolve, 25)));
    expect(options()).not.toContain('Echo Council — Echo Council');
    await settle(async () => void (await host.arrange('extensions.grant', { id: 'lumiverse_providers', permission: 'chats' })));
    for (let i = 0; i < 200 && !options().includes('Echo Council — Echo Council'); i++) await settle(() => new Promise((resolve) => setTimeout(resolve, 25)));
    expect(options()).toContain('Echo Council — Echo Council');
    await settle(async () => void (await host.arrange('extensions.disable', { id: 'lumiverse_providers' })));
    for (let i = 0; i < 200 && options().includes('Echo Council — Echo Council'); i++) await settle(() => new Promise((resolve) => setTimeout(resolve, 25)));
    expect(options()).toEqual(['— Choose a connection —', 'extension:lumiverse_providers/echo-council (missing)', 'Local LM Studio', 'OpenAI']);
    expect(byTestId(panel, 'sidecar-status').textContent).toContain('is not offered now');
  });
});
