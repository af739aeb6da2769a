// @vitest-environment real-core
// Choosing what the chat's prompt is built from, against the real core: the Workbench's own prompt or a Lumiverse
// preset imported from its file (chosen at once), back again; a file that is not a preset says why where the person looks.
import { afterEach, describe, expect, it } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, controlFrames, navButton, renderShell, settle, typeInto } from './harness';
import { session } from './real-chat';
import { disposeAllHosts, RealHost } from './real-host';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
});

async function openPicker() {
  controlFrames();
  const host = await RealHost.start();
  await host.arrange('chat.sessions.import', { json: JSON.stringify(session({ id: 's1', title: 'Tavern night' })) });
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Workbench').click());
  await settle();
  return { host, picker: byTestId(rendered.container, 'preset-picker') };
}

async function choose(picker: HTMLElement, name: string, text: string) {
  const input = byLabel<HTMLInputElement>(picker, 'Lumiverse preset file');
  Object.defineProperty(input, 'files', { value: [new File([text], name, { type: 'application/json' })], configurable: true });
  await settle(() => void input.dispatchEvent(new Event('change', { bubbles: true })));
  await settle();
}

describe('the chat prompt picker', () => {
  it('imports a Loom preset, chooses it at once, lists it, and goes back to the Workbench prompt', async () => {
    const { host, picker } = await openPicker();
    const select = byLabel<HTMLSelectElement>(picker, 'Prompt');
    expect(select.value).toBe('');
    expect(buttonNamed(picker, 'Import preset…')).toBeDefined();
    await choose(picker, 'Engine Suite.json', JSON.stringify({ name: 'Engine Suite', blocks: [{ id: 'main', name: 'Main', content: 'Hi' }, { id: 'h', name: 'History', marker: 'chat_history' }] }));
    const chosen = (await host.arrange('settings.get', {})).chat?.presetId;
    expect(chosen).toMatch(/^[0-9a-f-]{36}$/);
    expect(select.value).toBe(chosen);
    expect([...select.options].map((o) => o.textContent)).toEqual(["The Workbench's prompt (card, persona, world info, history)", 'Preset: Engine Suite (2 blocks)']);
    expect(picker.querySelector('[role="status"]')!.textContent).toContain('Imported “Engine Suite” (2 blocks)');
    await settle(() => typeInto(select, ''));
    expect((await host.arrange('settings.get', {})).chat?.presetId).toBe('');
    // One made elsewhere since (an extension's, another window's import) is listed when the person opens the list.
    await host.arrange('chat.presets.import', { json: JSON.stringify({ name: 'Another', blocks: [] }) });
    await settle(() => select.focus());
    await settle();
    expect([...select.options].map((o) => o.textContent)).toContain('Preset: Another (0 blocks)');
  });

  it('a file that is not a Lumiverse preset is refused with the reason and the field, and nothing is chosen', async () => {
    const { host, picker } = await openPicker();
    await choose(picker, 'st-preset.json', JSON.stringify({ prompts: [{ identifier: 'main' }] }));
    const alert = picker.querySelector<HTMLElement>('[role="alert"]')!;
    expect(alert.textContent).toContain('Could not import st-preset.json');
    expect(alert.textContent).toContain('SillyTavern prompt-manager preset');
    expect((await host.arrange('settings.get', {})).chat?.presetId ?? '').toBe('');
    expect((await host.arrange('chat.presets.list', {})).presets).toEqual([]);
  });
});
