// @vitest-environment real-core
// spindle.ui through the real core and a real worker: an extension's backend takes the person to a place of the app by
// Lumiverse's tab ids (an "Open connections" button), to its own drawer tab, or folds the drawer; a place the Workbench
// has not is left alone, and a flood of moves is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore } from '../../renderer/src/stores/app/app-store';
import { loadSessions, openSession } from '../../renderer/src/stores/chat/chat-commands';
import { navigate } from '../../renderer/src/features/frontends/ExtensionNavigation';
import { createFrontendsStore, frontendsActions } from '../../renderer/src/features/frontends/frontends-store';
import { buttonNamed, cleanup, renderShell, settle } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { extensionsSettled, removeWrittenExtensions, writeExtension } from './real-tools';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  removeWrittenExtensions();
});

/** An extension whose `go` tool calls spindle.ui as a settings button does, and answers what it heard. */
function guide() {
  return writeExtension(
    { id: 'guide', name: 'Guide' },
    `/* global spindle */
spindle.registerTool({ name: 'go', display_name: 'Go', description: 'Moves the app', mode: 'read', parameters: { type: 'object', properties: { tab: { type: 'string' }, close: { type: 'boolean' } } } });
spindle.on('TOOL_INVOCATION', async ({ args }) => {
  try {
    if (args.close) await spindle.ui.closeDrawer();
    else await spindle.ui.openDrawerTab(args.tab);
    return JSON.stringify({ ok: true, tabs: (await spindle.ui.getDrawerTabs()).map((t) => t.id) });
  } catch (err) {
    return JSON.stringify({ ok: false, code: err.code });
  }
});
`,
  );
}

describe('spindle.ui', () => {
  it("asks first, unless the person was just using the extension; then takes them to the section a Lumiverse tab id names; an unknown place is left alone; more than five moves in ten seconds are refused", async () => {
    const host = await RealHost.start({ bundledExtensionsDir: null });
    await host.arrange('extensions.install', { folder: guide(), grant: ['tools'] });
    await extensionsSettled(host);
    const { container } = await renderShell(host);
    const go = async (args: Record<string, unknown>) => {
      const result = await host.arrange('tools.invoke', { qualifiedName: 'guide:go', args });
      return JSON.parse((result as { content: string }).content) as { ok: boolean; code?: string; tabs?: string[] };
    };
    const shown = () => container.querySelector('main')!.getAttribute('data-panel');
    const offers = () => [...document.querySelectorAll<HTMLElement>('[data-testid="extension-navigation-offer"]')];
    expect(shown()).not.toBe('connections');
    let answer!: Awaited<ReturnType<typeof go>>;
    // Out of the blue (nobody touched it): the window stays, and the person is asked.
    await settle(async () => void (answer = await go({ tab: 'connections' })));
    expect(answer).toEqual({ ok: true, tabs: ['connections', 'council', 'spindle', 'mcpServers', 'characters'] });
    expect(shown()).not.toBe('connections');
    expect(offers().map((o) => o.textContent)).toEqual(['GuideAsks to open Connections.GoNot now']);
    await settle(() => buttonNamed(offers()[0]!, 'Go').click());
    expect(shown()).toBe('connections');
    expect(offers()).toEqual([]);
    // The person was just using it (a press on one of its surfaces): its moves are theirs.
    const own = document.createElement('div');
    own.setAttribute('data-extension-id', 'guide');
    document.body.append(own);
    own.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    await settle(async () => void (await go({ tab: 'spindle' })));
    expect(shown()).toBe('extensions');
    await settle(async () => void (await go({ tab: 'wallpaper' })));
    expect(shown()).toBe('extensions');
    await settle(async () => void (await go({ tab: 'mcpServers' })));
    expect(shown()).toBe('mcp');
    await settle(async () => void (await go({ close: true })));
    expect(await go({ tab: 'connections' })).toEqual({ ok: false, code: 'RATE_LIMITED' });
  });

  it("an extension's own drawer tab opens beside the chat (its own before another's of that id); closeDrawer folds the drawer", () => {
    const app = createAppStore();
    const frontends = createFrontendsStore();
    frontendsActions.openSurface(frontends, 'other', 'diagnostics', 'drawer', { title: 'Other' });
    frontendsActions.openSurface(frontends, 'lumivn', 'diagnostics', 'drawer', { title: 'VN diagnostics' });
    frontends.setState({ drawerOpen: false });
    expect(navigate({ type: 'extension.ui', id: 'lumivn', action: 'openDrawerTab', tabId: 'diagnostics' }, app, frontends)).toBe(true);
    expect(frontends.getState()).toMatchObject({ activeTab: 'lumivn/diagnostics', drawerOpen: true });
    expect(app.getState().section).toBe('workbench');
    // Its own, though another's of that id comes first in the drawer; one that has none gets the first.
    expect(navigate({ type: 'extension.ui', id: 'other', action: 'openDrawerTab', tabId: 'diagnostics' }, app, frontends)).toBe(true);
    expect(frontends.getState().activeTab).toBe('other/diagnostics');
    expect(navigate({ type: 'extension.ui', id: 'third', action: 'openDrawerTab', tabId: 'diagnostics' }, app, frontends)).toBe(true);
    expect(frontends.getState().activeTab).toBe('lumivn/diagnostics');
    // By the id ctx.host.surfaces lists it under (another extension's tab too, as Cubby opens them); Workbench sections by theirs.
    expect(navigate({ type: 'extension.ui', id: 'cubby', action: 'openDrawerTab', tabId: 'other/diagnostics' }, app, frontends)).toBe(true);
    expect(frontends.getState().activeTab).toBe('other/diagnostics');
    expect(navigate({ type: 'extension.ui', id: 'cubby', action: 'openDrawerTab', tabId: 'safety' }, app, frontends)).toBe(true);
    expect(app.getState().section).toBe('safety');
    expect(navigate({ type: 'extension.ui', id: 'lumivn', action: 'openDrawerTab', tabId: 'nowhere' }, app, frontends)).toBe(false);
    expect(navigate({ type: 'extension.ui', id: 'lumivn', action: 'openSettings', viewId: 'connections' }, app, frontends)).toBe(true);
    expect(app.getState().section).toBe('connections');
    expect(navigate({ type: 'extension.ui', id: 'lumivn', action: 'openSettings', viewId: null }, app, frontends)).toBe(false);
    expect(navigate({ type: 'extension.ui', id: 'lumivn', action: 'closeDrawer' }, app, frontends)).toBe(true);
    expect(frontends.getState().drawerOpen).toBe(false);
  });

  it("its frame's route to a chat (Tapestry's “go to branch”) opens that chat in the Workbench; a chat the app does not list is left alone", async () => {
    const host = await RealHost.start({ bundledExtensionsDir: null });
    const first = await host.arrange('chat.sessions.create', { title: 'The lighthouse' });
    const branch = await host.arrange('chat.sessions.create', { title: 'The lighthouse (branch)' });
    const app = createAppStore();
    const frontends = createFrontendsStore();
    await loadSessions(app, host);
    await openSession(app, host, first.id);
    app.getState().sectionSelected('connections');
    let went = false;
    await settle(() => void (went = navigate({ type: 'extension.ui', id: 'tapestry', action: 'openChat', chatId: branch.id }, app, frontends, host)));
    expect(went).toBe(true);
    expect(app.getState()).toMatchObject({ section: 'workbench', chat: { openId: branch.id, open: { id: branch.id, title: 'The lighthouse (branch)' } } });
    expect(navigate({ type: 'extension.ui', id: 'tapestry', action: 'openChat', chatId: 'no-such-chat' }, app, frontends, host)).toBe(false);
    expect(app.getState().chat.openId).toBe(branch.id);
  });
});
