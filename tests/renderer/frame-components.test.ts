// @vitest-environment happy-dom
// ctx.components (Lumiverse's shared controls, native here) and ctx.ui.events (the drawer, the viewport), driven
// as published frontends drive them: mounted into their own surfaces, changed by the person, updated by code.
// The extension side writes innerHTML into its own surfaces, as published frontends do.
/* eslint-disable @microsoft/sdl/no-inner-html */
import { describe, expect, it, vi } from 'vitest';
import { ID, rig, settled } from './frame-rig';

/** A surface root to mount into, as a drawer tab gives one. */
async function tabRoot() {
  const r = await rig(['tools', 'ui_panels']);
  const tab = r.ctx.ui.registerDrawerTab({ id: 'main', title: 'Main' });
  return { r, root: tab.root as HTMLElement, tab };
}

const type = (field: HTMLInputElement | HTMLTextAreaElement, value: string) => {
  field.value = value;
  field.dispatchEvent(new Event('input', { bubbles: true }));
};
const change = (field: HTMLInputElement | HTMLSelectElement, value?: string) => {
  if (value !== undefined) field.value = value;
  field.dispatchEvent(new Event('change', { bubbles: true }));
};

describe('ctx.components: inputs', () => {
  it('mountTextInput by element or selector: typing calls onChange, update() sets the value, destroy leaves the target', async () => {
    const { r, root } = await tabRoot();
    root.innerHTML = '<div id="name-slot"></div>';
    const changes: string[] = [];
    const handle = r.ctx.components.mountTextInput('#name-slot', { value: 'Ada', placeholder: 'Name', ariaLabel: 'Name', onChange: (v: string) => changes.push(v) });
    const slot = root.querySelector('#name-slot')!;
    expect(handle.element).toBe(slot);
    expect(handle.componentId).toMatch(new RegExp(`^${ID}:component-\\d+$`));
    const field = slot.querySelector('input')!;
    expect(field.value).toBe('Ada');
    expect(field.getAttribute('aria-label')).toBe('Name');
    type(field, 'Grace');
    expect(changes).toEqual(['Grace']);
    handle.update({ value: 'Linus', disabled: true });
    expect(handle.getValue()).toBe('Linus');
    expect(field.disabled).toBe(true);
    handle.destroy();
    expect(slot.isConnected).toBe(true);
    expect(slot.querySelector('input')).toBeNull();

    const area = r.ctx.components.mountTextArea(slot, { rows: 6 });
    expect(slot.querySelector('textarea')!.getAttribute('rows')).toBe('6');
    expect(area.getValue()).toBe('');
  });

  it('mountNumericInput keeps integers within bounds; empty is null only when allowed; the stepper steps', async () => {
    const { r, root } = await tabRoot();
    const seen: Array<number | null> = [];
    const numeric = r.ctx.components.mountNumericInput(root, { value: 5, integer: true, min: 1, max: 10, onChange: (v: number | null) => seen.push(v) });
    const field = root.querySelector('input[type=number]') as HTMLInputElement;
    type(field, '7.6');
    type(field, '99');
    type(field, '');
    expect(seen).toEqual([8, 10]);
    expect(numeric.getValue()).toBe(10);
    change(field);
    expect(field.value).toBe('10');
    numeric.update({ allowEmpty: true });
    type(field, '');
    expect(seen.at(-1)).toBeNull();

    const stepped: Array<number | null> = [];
    const stepper = r.ctx.components.mountNumberStepper(root, { value: 2, step: 2, max: 5, onChange: (v: number | null) => stepped.push(v) });
    const more = stepper.element.querySelector('.spc--numberstepper button[aria-label="Increase"]') as HTMLButtonElement;
    more.click();
    more.click();
    (stepper.element.querySelector('.spc--numberstepper button[aria-label="Decrease"]') as HTMLButtonElement).click();
    expect(stepped).toEqual([4, 5, 3]);
  });

  it('mountRangeSlider: onDragValue while dragging, onCommit when let go, the header formatted as asked', async () => {
    const { r, root } = await tabRoot();
    const drag: Array<number | null> = [];
    const commits: number[] = [];
    const slider = r.ctx.components.mountRangeSlider(root, { min: 0, max: 2, step: 0.1, value: 0.7, label: 'Temperature', format: { suffix: '°' }, onDragValue: (v: number | null) => drag.push(v), onCommit: (v: number) => commits.push(v) });
    const range = root.querySelector('input[type=range]') as HTMLInputElement;
    expect(root.querySelector('.spc-head')!.textContent).toBe('Temperature0.7°');
    type(range, '1.2');
    expect(drag).toEqual([1.2]);
    expect(commits).toEqual([]);
    change(range);
    expect(commits).toEqual([1.2]);
    expect(slider.getValue()).toBe(1.2);
  });

  it('mountCheckbox and mountSwitch: a click is onChange(true); update() sets them from code', async () => {
    const { r, root } = await tabRoot();
    const boxes: boolean[] = [];
    const box = r.ctx.components.mountCheckbox(root, { label: 'Auto-save', hint: 'Every turn', onChange: (v: boolean) => boxes.push(v) });
    (root.querySelector('input[type=checkbox]') as HTMLInputElement).click();
    expect(boxes).toEqual([true]);
    expect(root.querySelector('.spc--checkbox label')!.textContent).toBe('Auto-save');
    box.update({ checked: false });
    expect(box.getValue()).toBe(false);

    const switched: boolean[] = [];
    const toggle = r.ctx.components.mountSwitch(root, { ariaLabel: 'Enabled', onChange: (v: boolean) => switched.push(v) });
    const button = root.querySelector('[role=switch]') as HTMLButtonElement;
    button.click();
    expect(switched).toEqual([true]);
    expect(button.getAttribute('aria-checked')).toBe('true');
    toggle.update({ checked: false });
    expect(toggle.getValue()).toBe(false);
  });

  it('a callback that throws is logged and the control keeps working', async () => {
    const { r, root } = await tabRoot();
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const handle = r.ctx.components.mountTextInput(root, {
      onChange: () => {
        throw new Error('extension bug');
      },
    });
    type(root.querySelector('input')!, 'still works');
    expect(handle.getValue()).toBe('still works');
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ message: 'extension bug' }));
    error.mockRestore();
  });
});

describe('ctx.components: pickers', () => {
  it('mountSelect: grouped options, a placeholder, clearable; choosing calls onChange; an unknown value shows none', async () => {
    const { r, root } = await tabRoot();
    const chosen: string[] = [];
    const options = [
      { value: 'auto', label: 'Automatic' },
      { value: 'json', label: 'JSON', group: 'Structured', sublabel: 'strict' },
      { value: 'xml', label: 'XML', group: 'Structured', disabled: true },
    ];
    const handle = r.ctx.components.mountSelect(root, { options, value: 'auto', ariaLabel: 'Output mode', onChange: (v: string) => chosen.push(v) });
    const field = root.querySelector('select')!;
    expect([...field.querySelectorAll('optgroup')].map((g) => g.label)).toEqual(['Structured']);
    expect([...field.options].map((o) => o.textContent)).toEqual(['Choose…', 'Automatic', 'JSON — strict', 'XML']);
    expect(field.value).toBe('auto');
    change(field, 'json');
    expect(chosen).toEqual(['json']);
    handle.update({ value: 'missing' });
    expect(handle.getValue()).toBe('');
    handle.update({ clearable: true, clearLabel: 'No connection', options: [] });
    expect([...field.options].map((o) => o.textContent)).toEqual(['No connection']);
  });

  it('mountMultiSelect: each checked option is in onChange', async () => {
    const { r, root } = await tabRoot();
    const seen: string[][] = [];
    const handle = r.ctx.components.mountMultiSelect(root, { options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }], value: ['a'], onChange: (v: string[]) => seen.push(v) });
    const boxes = [...root.querySelectorAll('input[type=checkbox]')] as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, false]);
    boxes[1]!.click();
    boxes[0]!.click();
    expect(seen).toEqual([['a', 'b'], ['b']]);
    expect(handle.getValue()).toEqual(['b']);
  });

  it('mountModelCombobox bound to a connection lists its models through the app; without an id, the open chat’s', async () => {
    const { r, root } = await tabRoot();
    const picked: string[] = [];
    const handle = r.ctx.components.mountModelCombobox(root, { connection: { kind: 'llm' }, placeholder: 'Use connection default', onChange: (v: string) => picked.push(v) });
    await settled();
    expect(r.invoked.filter((c) => c.method === 'connections.models')).toEqual([{ method: 'connections.models', input: { id: 'main-conn' } }]);
    expect([...root.querySelectorAll('datalist option')].map((o) => o.getAttribute('value'))).toEqual(['main-conn/model-a', 'main-conn/model-b']);
    change(root.querySelector('input')!, 'main-conn/model-b');
    expect(picked).toEqual(['main-conn/model-b']);
    expect(handle.getValue()).toBe('main-conn/model-b');

    // Another connection, one the app cannot list, and one given its models: nothing is asked of the app.
    handle.update({ connection: { kind: 'llm', id: 'gone' }, emptyMessage: 'No models returned by this connection.' });
    await settled();
    expect(r.invoked.at(-1)).toEqual({ method: 'connections.models', input: { id: 'gone' } });
    expect(root.querySelector('.spc-hint')!.textContent).toBe('No models returned by this connection.');
    const calls = r.invoked.length;
    r.ctx.components.mountModelCombobox(root, { models: ['x', 'y'], modelLabels: { x: 'Model X' } });
    await settled();
    expect(r.invoked.length).toBe(calls);
  });

  it('mountFolderDropdown: a new name is onCreateFolder, then onChange', async () => {
    const { r, root } = await tabRoot();
    const calls: string[] = [];
    r.ctx.components.mountFolderDropdown(root, { folders: ['Drafts'], onCreateFolder: (n: string) => calls.push(`create ${n}`), onChange: (n: string) => calls.push(`pick ${n}`) });
    const field = root.querySelector('input')!;
    change(field, 'Drafts');
    change(field, ' Lore ');
    expect(calls).toEqual(['pick Drafts', 'create Lore', 'pick Lore']);
  });
});

describe('ctx.components: display, targets, teardown', () => {
  it('badge, spinner, collapsible section (its body is the extension’s), pagination, close button', async () => {
    const { r, root } = await tabRoot();
    const badge = r.ctx.components.mountBadge(root, { text: '3 new', color: 'success' });
    expect(root.querySelector('.spc-badge--success')!.textContent).toBe('3 new');
    badge.update({ text: '4 new' });
    expect(root.querySelector('.spc-badge--success')!.textContent).toBe('4 new');
    r.ctx.components.mountSpinner(root, { size: 20 });
    expect((root.querySelector('.spc-spinner') as HTMLElement).style.width).toBe('20px');

    const section = r.ctx.components.mountCollapsibleSection(root, { title: 'Advanced', badge: 2, defaultExpanded: false });
    section.body.innerHTML = '<p id="inside">Inside</p>';
    expect(root.querySelector('details #inside')).not.toBeNull();
    expect(section.isExpanded()).toBe(false);
    section.expand();
    expect(section.isExpanded()).toBe(true);

    const pages: number[] = [];
    r.ctx.components.mountPagination(root, { currentPage: 1, totalPages: 3, onPageChange: (p: number) => pages.push(p) });
    const back = root.querySelector('button[aria-label="Previous page"]') as HTMLButtonElement;
    expect(back.disabled).toBe(true);
    (root.querySelector('button[aria-label="Next page"]') as HTMLButtonElement).click();
    expect(pages).toEqual([2]);
    expect(root.querySelector('.spc--pagination [aria-live]')!.textContent).toBe('Page 1 of 3');

    let closed = 0;
    r.ctx.components.mountCloseButton(root, { onClick: () => closed++ });
    (root.querySelector('button[aria-label="Close"]') as HTMLButtonElement).click();
    expect(closed).toBe(1);
  });

  it('a target that is not there is INVALID_INPUT; a host surface is inert (its setup goes on); unknown members are UNSUPPORTED_HERE', async () => {
    const { r, root } = await tabRoot();
    expect(() => r.ctx.components.mountSelect('#nowhere', { options: [] })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining('#nowhere') }));
    expect(() => r.ctx.components.mountBadge(42, {})).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    // Lumiverse's own screens have no surface here: a handle that does nothing, not a throw that ends the setup.
    const surface = r.ctx.components.mountHostSurface(root, 'loom', { a: 1 });
    surface.update({ a: 2 });
    expect(typeof surface.on('change', () => undefined)).toBe('function');
    surface.destroy();
    expect(() => r.ctx.components.mountTimeTravel(root, {})).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_HERE' }));
    expect(r.ctx.components.then).toBeUndefined();
    await settled();
    expect(r.store.getState().inert[ID]).toEqual(['components.mountHostSurface', 'components.mountTimeTravel']);
  });

  it('teardown removes every mounted control and its stylesheet', async () => {
    const { r, root } = await tabRoot();
    root.innerHTML = '<div id="slot"></div>';
    r.ctx.components.mountSwitch('#slot', {});
    expect([...document.querySelectorAll('style')].some((s) => s.textContent?.includes('.spc-switch'))).toBe(true);
    r.broker.stop();
    await settled();
    expect(root.querySelector('#slot')!.children.length).toBe(0);
    expect([...document.querySelectorAll('style')].some((s) => s.textContent?.includes('.spc-switch'))).toBe(false);
  });
});

describe('ctx.ui.events and placements the app shapes', () => {
  it('the drawer: its first tab shown once ready fires onActivate; leaving the Workbench and choosing tabs are drawer changes', async () => {
    const { r, tab } = await tabRoot();
    const second = r.ctx.ui.registerDrawerTab({ id: 'log', title: 'Log' });
    const first: number[] = [];
    const other: number[] = [];
    tab.onActivate(() => first.push(1));
    second.onActivate(() => other.push(1));
    const changes: unknown[] = [];
    r.ctx.ui.events.onDrawerChange((s: unknown) => changes.push(s));
    await settled();
    // Not ready yet: it hears nothing (its handlers may still be coming).
    expect(first).toEqual([]);
    r.markReady();
    await settled();
    expect(first).toEqual([1]);
    expect(r.ctx.ui.events.getDrawerState()).toEqual({ open: true, tabId: tab.tabId });

    r.panel.shown = false;
    r.panel.update();
    await settled();
    expect(r.ctx.ui.events.getDrawerState()).toEqual({ open: false, tabId: tab.tabId });

    r.panel.shown = true;
    r.panel.update();
    second.activate();
    await settled();
    expect(other).toEqual([1]);
    expect(first).toEqual([1]);
    expect(changes).toEqual([
      { open: true, tabId: tab.tabId },
      { open: false, tabId: tab.tabId },
      { open: true, tabId: tab.tabId },
      { open: true, tabId: second.tabId },
    ]);
  });

  it('the viewport is the window’s, and a resize is a keyboard-state change', async () => {
    const { r } = await tabRoot();
    expect(r.ctx.ui.events.getKeyboardState()).toEqual({ visible: false, insetBottom: 0, viewportWidth: innerWidth, viewportHeight: innerHeight });
    const seen: unknown[] = [];
    r.ctx.ui.events.onKeyboardChange((s: unknown) => seen.push(s));
    window.dispatchEvent(new Event('resize'));
    expect(seen).toHaveLength(1);
  });

  it("a float widget's getPosition is Lumiverse's bottom-right default until the app says where it put it, then that", async () => {
    const { r } = await tabRoot();
    const widget = r.ctx.ui.createFloatWidget({ width: 200, height: 100 });
    expect(widget.getPosition()).toEqual({ x: innerWidth - 216, y: innerHeight - 116 });
    const moved: unknown[] = [];
    widget.onDragEnd((p: unknown) => moved.push(p));
    r.broker.notify('surface', { surfaceId: widget.widgetId, what: 'position', position: { x: 30, y: 40 } });
    await settled();
    expect(widget.getPosition()).toEqual({ x: 30, y: 40 });
    // Being placed is not a drag.
    expect(moved).toEqual([]);
  });

  it('a float widget created fullscreen starts fullscreen', async () => {
    const { r } = await tabRoot();
    const widget = r.ctx.ui.createFloatWidget({ width: 300, height: 200, fullscreen: true });
    await settled();
    expect(widget.isFullscreen()).toBe(true);
    expect(r.store.getState().surfaces.find((s) => s.kind === 'float')).toMatchObject({ fullscreen: true });
  });
});
