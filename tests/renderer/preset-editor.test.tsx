// @vitest-environment real-core
// The preset editor against the real core: the blocks of the chat's preset in order, one switched off, moved and
// edited, each saved at once at its revision; a change another writer made meanwhile is not undone (the preset is
// read again and the person told); while it shows, extensions see Lumiverse's preset editor open on that preset.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrontendsProvider } from '../../renderer/src/features/frontends/frontends-context';
import { createFrontendsStore } from '../../renderer/src/features/frontends/frontends-store';
import { PresetEditor } from '../../renderer/src/features/workbench/PresetEditor';
import { buttonNamed, byTestId, cleanup, controlFrames, renderShell, settle, typeInto } from './harness';
import { disposeAllHosts, RealHost } from './real-host';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  vi.restoreAllMocks();
});

const LOOM = {
  name: 'Loom Suite',
  blocks: [
    {
      id: 'main',
      name: 'Main Prompt',
      content: 'Be {{char}}.',
      variables: [
        { id: 'v1', name: 'tone', label: 'Tone', type: 'select', defaultValue: 'dry', options: [{ id: 'dry', label: 'Dry', value: 'dryly' }, { id: 'warm', label: 'Warm', value: 'warmly' }] },
        { id: 'v2', name: 'nsfw', label: 'Mature', type: 'switch', defaultValue: 0 },
        { id: 'v3', name: 'pov', label: 'Point of view', type: 'text', defaultValue: 'second person' },
        { id: 'v4', name: 'length', label: 'Paragraphs', type: 'number', defaultValue: 3, min: 1, max: 9 },
      ],
    },
    { id: 'desc', name: 'Character', marker: 'char_description' },
    { id: 'hist', name: 'Chat History', marker: 'chat_history' },
  ],
};

async function openEditor(choose = true) {
  controlFrames();
  const host = await RealHost.start();
  const { id } = await host.arrange('chat.presets.import', { fileName: 'Loom Suite.json', json: JSON.stringify(LOOM) });
  if (choose) {
    const settings = await host.arrange('settings.get', {});
    await host.arrange('settings.update', { patch: { chat: { ...settings.chat, presetId: id } } });
  }
  const frontends = createFrontendsStore();
  const rendered = await renderShell(
    host,
    <FrontendsProvider value={{ store: frontends, brokers: new Map() }}>
      <PresetEditor />
    </FrontendsProvider>,
  );
  await settle();
  const editor = byTestId(rendered.container, 'preset-editor');
  const rows = () => [...editor.querySelectorAll<HTMLElement>('[data-block-id]')];
  return { host, presetId: id, frontends, editor, rows, unmount: rendered.unmount };
}

const stored = async (host: RealHost, presetId: string) => host.arrange('chat.presets.get', { presetId });

describe('the preset editor', () => {
  it('says how to get a preset when the chat has none', async () => {
    const { editor, frontends } = await openEditor(false);
    expect(editor.textContent).toContain('Choose or import a Lumiverse preset');
    expect(frontends.getState().presetEditor).toBeNull();
  });

  it('shows the blocks in order; switching one off, moving one and editing one are each saved at once at its revision', async () => {
    const { host, presetId, editor, rows, frontends } = await openEditor();
    expect(rows().map((row) => row.dataset.blockId)).toEqual(['main', 'desc', 'hist']);
    expect(rows()[1]!.textContent).toContain("the character's description");
    // Extensions see the editor open on it.
    expect(frontends.getState().presetEditor).toMatchObject({ id: presetId, cache_revision: 0 });

    await settle(() => editor.querySelector<HTMLInputElement>('input[aria-label="Use Main Prompt"]')!.click());
    expect((await stored(host, presetId)).prompt_order[0]).toMatchObject({ id: 'main', enabled: false });
    expect(rows()[0]!.dataset.enabled).toBe('false');

    await settle(() => buttonNamed(editor, 'Move Chat History up').click());
    expect((await stored(host, presetId)).prompt_order.map((b) => b.id)).toEqual(['main', 'hist', 'desc']);
    expect(buttonNamed(editor, 'Move Main Prompt up').getAttribute('aria-disabled')).toBe('true');

    await settle(() => buttonNamed(editor, 'Edit Main Prompt').click());
    const form = byTestId(editor, 'preset-block-form');
    typeInto(form.querySelector('textarea')!, 'Be {{char}}, and brief.');
    typeInto(form.querySelector('select')!, 'user');
    await settle(() => void form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true })));
    const after = await stored(host, presetId);
    expect(after.prompt_order[0]).toMatchObject({ content: 'Be {{char}}, and brief.', role: 'user', enabled: false });
    expect(after.cache_revision).toBe(3);
    expect(editor.querySelector('[data-testid="preset-block-form"]')).toBeNull();
    // A marker block has no text of its own to edit.
    await settle(() => buttonNamed(editor, 'Edit Character').click());
    expect(byTestId(editor, 'preset-block-form').querySelector('textarea')).toBeNull();
    expect(byTestId(editor, 'preset-block-form').textContent).toContain("the character's description");
  });

  it("another writer's change made just before a save is kept: the save is refused, the preset read again, and the person told", async () => {
    const { host, presetId, editor, rows } = await openEditor();
    const invoke = host.invoke.bind(host);
    // An extension renames the preset between the person's last read and their click.
    vi.spyOn(host, 'invoke').mockImplementationOnce(async (method, input) => {
      await host.arrange('chat.presets.update', { presetId, name: 'Renamed by an extension', expected_cache_revision: 0 });
      return invoke(method, input);
    });
    await settle(() => editor.querySelector<HTMLInputElement>('input[aria-label="Use Main Prompt"]')!.click());
    await settle();
    expect(editor.querySelector('[role="alert"]')!.textContent).toContain('The preset changed meanwhile');
    const now = await stored(host, presetId);
    expect(now).toMatchObject({ name: 'Renamed by an extension', cache_revision: 1 });
    expect(now.prompt_order[0]).toMatchObject({ enabled: true });
    expect(editor.querySelector('h2')!.textContent).toBe('Renamed by an extension');
    expect(rows()[0]!.dataset.enabled).toBe('true');
    // Made again, it is saved.
    await settle(() => editor.querySelector<HTMLInputElement>('input[aria-label="Use Main Prompt"]')!.click());
    expect((await stored(host, presetId)).prompt_order[0]).toMatchObject({ enabled: false });
  });

  it("a block's settings (its prompt variables) show the preset's defaults and keep what the person sets, block by block", async () => {
    const { host, presetId, editor } = await openEditor();
    const settings = editor.querySelector<HTMLElement>('fieldset[aria-label="Settings of Main Prompt"]')!;
    expect(editor.querySelectorAll('fieldset.preset-variables')).toHaveLength(1);
    const tone = settings.querySelector('select')!;
    expect(tone.value).toBe('dry');
    await settle(() => typeInto(tone, 'warm'));
    expect((await stored(host, presetId)).metadata.promptVariables).toEqual({ main: { tone: 'warm' } });
    await settle(() => editor.querySelector<HTMLInputElement>('fieldset[aria-label="Settings of Main Prompt"] input[type="checkbox"]')!.click());
    // Text is kept when the person leaves the field.
    const pov = editor.querySelector<HTMLInputElement>('fieldset[aria-label="Settings of Main Prompt"] input:not([type])')!;
    expect(pov.value).toBe('second person');
    typeInto(pov, 'first person');
    await settle(() => void pov.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect((await stored(host, presetId)).metadata.promptVariables).toEqual({ main: { tone: 'warm', nsfw: 1, pov: 'first person' } });
    // A number is kept as a number; a number field left empty keeps the value it had.
    const paragraphs = editor.querySelector<HTMLInputElement>('fieldset[aria-label="Settings of Main Prompt"] input[type="number"]')!;
    typeInto(paragraphs, '5');
    await settle(() => void paragraphs.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })));
    const emptied = editor.querySelector<HTMLInputElement>('fieldset[aria-label="Settings of Main Prompt"] input[type="number"]')!;
    typeInto(emptied, '');
    await settle(() => void emptied.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect((await stored(host, presetId)).metadata.promptVariables).toEqual({ main: { tone: 'warm', nsfw: 1, pov: 'first person', length: 5 } });
    expect(editor.querySelector<HTMLInputElement>('fieldset[aria-label="Settings of Main Prompt"] input[type="number"]')!.value).toBe('5');
    expect(editor.querySelector<HTMLSelectElement>('fieldset[aria-label="Settings of Main Prompt"] select')!.value).toBe('warm');
  });

  it("a block's form saves only what the person changed in it: a change made to the block meanwhile stays", async () => {
    const { host, presetId, editor } = await openEditor();
    await settle(() => buttonNamed(editor, 'Edit Main Prompt').click());
    // While the form is open, the block is switched off (here, by its checkbox; an extension's change is the same).
    await settle(() => editor.querySelector<HTMLInputElement>('input[aria-label="Use Main Prompt"]')!.click());
    const form = byTestId(editor, 'preset-block-form');
    typeInto(form.querySelector('textarea')!, 'Be {{char}}, and brief.');
    await settle(() => void form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true })));
    expect((await stored(host, presetId)).prompt_order[0]).toMatchObject({ content: 'Be {{char}}, and brief.', enabled: false });
  });

  it('closed for extensions once it no longer shows, even when a read was on its way', async () => {
    const { host, frontends, unmount } = await openEditor();
    expect(frontends.getState().presetEditor).not.toBeNull();
    // A read asked just before the view went away answers after: it opens nothing.
    let answer = () => undefined as void;
    const invoke = host.invoke.bind(host);
    vi.spyOn(host, 'invoke').mockImplementation(((method: never, input: never) => (method === 'chat.presets.get' ? new Promise((resolve) => (answer = () => resolve(invoke(method, input)))) : invoke(method, input))) as never);
    // Another writer's change: the view reads the preset again.
    await host.arrange('chat.presets.update', { presetId: frontends.getState().presetEditor!.id, name: 'Renamed', expected_cache_revision: 0 });
    await settle();
    unmount();
    expect(frontends.getState().presetEditor).toBeNull();
    await settle(() => answer());
    expect(frontends.getState().presetEditor).toBeNull();
  });
});
