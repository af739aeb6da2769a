// @vitest-environment real-core
// The first-run path on a real core with nothing set up: Getting started shows the step to take and takes the person
// there — a connection, then who answers (a session opened for it), then a first chat with the LLM test server; once
// walked it is gone. Hide keeps it away.
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../shared/contract/events';
import { LlmTestServer } from '../fixtures/llm-server';
import { byTestId, buttonNamed, cleanup, renderShell, settle } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { coreReaches } from './real-tools';
import { localProfile } from './real-chat';
import { send } from './workbench-harness';

const servers: LlmTestServer[] = [];
afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  localStorage.clear();
});

const steps = (container: HTMLElement) => [...byTestId(container, 'first-run').querySelectorAll<HTMLElement>('[data-step]')].map((li) => `${li.dataset.step}:${li.dataset.done}${li.getAttribute('aria-current') ? ':current' : ''}`);
const section = (container: HTMLElement) => container.querySelector('[data-testid^="panel-"]')?.getAttribute('data-testid');

describe('getting started', () => {
  it('walks connection → who answers → first chat, then goes away', async () => {
    const llm = await LlmTestServer.start({ models: ['qwen2.5-7b-instruct'] });
    servers.push(llm);
    const host = await RealHost.start();
    const events: HostEvent[] = [];
    host.core.onEvent((e) => void events.push(e));
    const { container } = await renderShell(host);
    await settle();
    expect(steps(container)).toEqual(['connection:false:current', 'model:false', 'chat:false']);
    await settle(() => buttonNamed(container, 'Go to Connections').click());
    expect(section(container)).toBe('panel-connections');

    await settle(async () => void (await host.arrange('connections.save', { profile: localProfile(llm) })));
    await settle();
    // The only connection answers in the chat: chosen already.
    expect(steps(container)).toEqual(['connection:true', 'model:true', 'chat:false:current']);
    expect((await host.arrange('settings.get', {})).chat?.mainConnectionId).toBe('local-lm');
    // With two and none chosen, the person chooses.
    await settle(async () => void (await host.arrange('connections.save', { profile: { ...localProfile(llm), id: 'second', name: 'Second' } })));
    await settle(async () => void (await host.arrange('settings.update', { patch: { chat: { mainConnectionId: '', model: '', inlineMaxRounds: 3, dryRun: false } } })));
    await settle();
    expect(steps(container)).toEqual(['connection:true', 'model:false:current', 'chat:false']);
    await settle(() => buttonNamed(container, 'Choose in the Workbench').click());
    await settle();
    expect(section(container)).toBe('panel-workbench');
    // A session was opened for it, with the connection picker above the chat.
    expect(byTestId(container, 'open-session')).toBeTruthy();
    expect((await host.arrange('chat.sessions.list', {})).map((s) => s.title)).toEqual(['First chat']);

    await settle(async () => void (await host.arrange('settings.update', { patch: { chat: { mainConnectionId: 'local-lm', model: '', inlineMaxRounds: 3, dryRun: false } } })));
    await settle();
    expect(steps(container)).toEqual(['connection:true', 'model:true', 'chat:false:current']);

    llm.enqueue({ text: 'Hello there.' });
    await send(byTestId(container, 'panel-workbench'), 'Hi');
    await settle(() => coreReaches(host, () => events.some((e) => e.type === 'chat.finished'), 'the end of the reply'));
    await settle();
    await settle();
    expect(container.querySelector('[data-testid="first-run"]')).toBeNull();
  });

  it('Hide keeps it away, in this window and the next', async () => {
    const host = await RealHost.start();
    const first = await renderShell(host);
    await settle();
    await settle(() => buttonNamed(byTestId(first.container, 'first-run'), 'Hide').click());
    expect(first.container.querySelector('[data-testid="first-run"]')).toBeNull();
    cleanup();
    const again = await renderShell(host);
    await settle();
    expect(again.container.querySelector('[data-testid="first-run"]')).toBeNull();
  });
});
