// @vitest-environment real-core
// The shell: every section, navigation by mouse and keyboard, the skip link, and Ctrl/Cmd+digit shortcuts.
import { afterEach, describe, expect, it } from 'vitest';
import { SECTIONS } from '../../renderer/src/app/sections';
import { byTestId, cleanup, key, navButton, renderShell, settle } from './harness';
import { disposeAllHosts, RealHost } from './real-host';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
});

/**
 * A fresh core with nothing of the person's own, and without its built-in tools (the note tools and the council's prompt
 * tools are always there otherwise), so every section shows its empty state.
 */
async function emptyHost(): Promise<RealHost> {
  const host = await RealHost.start();
  for (const source of new Set(host.core.registry.list().map((t) => t.qualifiedName.slice(0, t.qualifiedName.indexOf(':'))))) host.core.registry.unregisterAll(source);
  return host;
}

function current(container: HTMLElement): string | null | undefined {
  return container.querySelector('nav [aria-current="page"] .nav__label')?.textContent;
}

function heading(container: HTMLElement): string | null | undefined {
  return container.querySelector('main h1')?.textContent;
}

describe('shell', () => {
  it('lists the sections in a labelled nav, Council first', async () => {
    const { container } = await renderShell(await emptyHost());
    const nav = container.querySelector('nav[aria-label="Sections"]');
    expect(nav).not.toBeNull();
    const labels = [...nav!.querySelectorAll('button .nav__label')].map((el) => el.textContent);
    expect(labels.slice(0, 7)).toEqual(['Council', 'Tools', 'Extensions', 'Sidecar', 'Connections', 'Workbench', 'MCP servers']);
    expect(labels).toEqual(SECTIONS.map((s) => s.label));
    expect(current(container)).toBe('Council');
    expect(nav!.querySelectorAll('[aria-current="page"]')).toHaveLength(1);
    // Real, focusable buttons.
    for (const button of nav!.querySelectorAll('button')) {
      expect(button.getAttribute('type')).toBe('button');
      expect(button.tabIndex).toBe(0);
    }
  });

  it('shows each section with its own empty state when its nav button is clicked', async () => {
    const { container } = await renderShell(await emptyHost());
    for (const spec of SECTIONS) {
      await settle(() => navButton(container, spec.label).click());
      expect(current(container)).toBe(spec.label);
      expect(heading(container)).toBe(spec.label);
      const panel = byTestId(container, `panel-${spec.id}`);
      expect(panel.querySelector('.empty-state__title')?.textContent).toBe(spec.empty.title);
      expect(panel.querySelector('.empty-state__body')?.textContent).toBe(spec.empty.body);
      expect([...panel.querySelectorAll('.empty-state__steps li')].map((li) => li.textContent)).toEqual(spec.empty.steps);
    }
  });

  it('a window the host refused shows the banner only: no section claims it is empty ("No council members yet") under it', async () => {
    const host = await emptyHost();
    host.setInfo({ state: 'unauthorized' });
    const { container } = await renderShell(host);
    for (const spec of SECTIONS) {
      await settle(() => navButton(container, spec.label).click());
      expect(byTestId(container, 'connection-banner').textContent).toContain('not connected to the host');
      expect(container.querySelector(`[data-testid="panel-${spec.id}"] [data-testid="empty-state"]`), spec.label).toBeNull();
    }
    // Accepted, the sections say what will appear in them again.
    await settle(() => host.setInfo({ state: 'connected' }));
    await settle(() => navButton(container, 'Tools').click());
    expect(byTestId(container, 'panel-tools').querySelector('.empty-state__title')?.textContent).toBe('No tools registered');
  });

  it('says what appears in Tools and what to do about it', async () => {
    const { container } = await renderShell(await emptyHost());
    await settle(() => navButton(container, 'Tools').click());
    const text = byTestId(container, 'panel-tools').textContent ?? '';
    expect(text).toContain('Tools registered by extensions, built-ins and MCP servers appear here');
    expect(text).toContain('Enable an extension in Extensions');
  });

  it('moves focus with the arrow keys, Home and End, wrapping around', async () => {
    const { container } = await renderShell(await emptyHost());
    const council = navButton(container, 'Council');
    council.focus();
    expect(document.activeElement).toBe(council);

    await settle(() => void key(document.activeElement!, { key: 'ArrowDown' }));
    expect(document.activeElement).toBe(navButton(container, 'Tools'));
    await settle(() => void key(document.activeElement!, { key: 'ArrowDown' }));
    expect(document.activeElement).toBe(navButton(container, 'Extensions'));
    await settle(() => void key(document.activeElement!, { key: 'End' }));
    expect(document.activeElement).toBe(navButton(container, SECTIONS.at(-1)!.label));
    await settle(() => void key(document.activeElement!, { key: 'ArrowDown' }));
    expect(document.activeElement).toBe(council);
    await settle(() => void key(document.activeElement!, { key: 'ArrowUp' }));
    expect(document.activeElement).toBe(navButton(container, SECTIONS.at(-1)!.label));
    await settle(() => void key(document.activeElement!, { key: 'Home' }));
    expect(document.activeElement).toBe(council);

    // Moving focus does not change the section; activating does.
    await settle(() => void key(document.activeElement!, { key: 'ArrowDown' }));
    expect(current(container)).toBe('Council');
    await settle(() => (document.activeElement as HTMLButtonElement).click());
    expect(current(container)).toBe('Tools');
    expect(heading(container)).toBe('Tools');
  });

  it('jumps to a section with Ctrl+digit or Cmd+digit, and leaves other chords alone', async () => {
    const { container } = await renderShell(await emptyHost());
    let event!: KeyboardEvent;
    await settle(() => void (event = key(document.body, { key: '3', code: 'Digit3', ctrlKey: true })));
    expect(event.defaultPrevented).toBe(true);
    expect(heading(container)).toBe('Extensions');

    await settle(() => void key(document.body, { key: '6', code: 'Digit6', metaKey: true }));
    expect(heading(container)).toBe('Workbench');
    await settle(() => void key(document.body, { key: '7', code: 'Digit7', ctrlKey: true }));
    expect(heading(container)).toBe('MCP servers');

    // Layouts where digits need Shift still report the physical key in `code`.
    await settle(() => void key(document.body, { key: '&', code: 'Digit1', ctrlKey: true }));
    expect(heading(container)).toBe('Council');

    await settle(() => void key(document.body, { key: '2', code: 'Digit2' }));
    await settle(() => void key(document.body, { key: '2', code: 'Digit2', ctrlKey: true, shiftKey: true }));
    await settle(() => void key(document.body, { key: '9', code: 'Digit9', ctrlKey: true }));
    expect(heading(container)).toBe('Council');
  });

  it('has a skip link first in the page that focuses the main region', async () => {
    const { container } = await renderShell(await emptyHost());
    const first = container.querySelector('a, button, input');
    expect(first?.textContent).toBe('Skip to content');
    await settle(() => (first as HTMLAnchorElement).click());
    const main = container.querySelector('main');
    expect(main?.id).toBe('main');
    expect(document.activeElement).toBe(main);
  });
});
