// @vitest-environment real-core
// The Council section's members and settings against the real core (in memory): chance, tools, missing items and tools,
// order, add, remove, settings, profiles. Members come from the bundled story-council pack; their tools are test tools
// of builtin sources (knowledge-base, dice-and-stats, scratchpad) and, where extension grouping matters, the council
// fixture extension.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, key, navButton, renderShell, settle, spokenText, typeInto } from './harness';
import { disposeAllHosts, type RealHost, type RealHostOptions } from './real-host';
import { addMember, captureBlobUrls, councilHost, standardTools, testTool } from './real-council';

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await disposeAllHosts();
});

const KB = 'knowledge-base:search_knowledge_base';
const DICE = 'dice-and-stats:roll_dice';

/**
 * The council the old fake started from: Marshal Vane (Plot, 75%, Search Knowledge Base), plus `arrange` on the core.
 * Returns Vane's id as the core made it.
 */
async function openCouncil(arrange: (host: RealHost, vane: string) => Promise<unknown> = async () => undefined, options: RealHostOptions & { extensions?: boolean } = {}) {
  const host = await councilHost(options);
  standardTools(host);
  testTool(host, { source: 'scratchpad', name: 'append_note', displayName: 'Append to Scratchpad', mode: 'write', councilEligible: false });
  const vane = await addMember(host, 'plot-enforcer', { role: 'Plot', chance: 75, tools: [KB] });
  await arrange(host, vane);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Council').click());
  await settle();
  return { ...rendered, vane, panel: byTestId(rendered.container, 'panel-council') };
}

function cards(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>('[data-testid="member"]')];
}

function setMemberCalls(host: RealHost) {
  return host.callsTo('council.setMember').map((c) => c.input as { memberId: string; patch: Record<string, unknown> });
}

/** The members as the core stores them. */
function stored(host: RealHost) {
  return host.core.settings.get().council.members;
}

/** Points a stored member at a pack item that does not exist (a pack changed under it), as only the settings file can. */
async function repointToMissing(host: RealHost, memberId: string, itemId: string) {
  await host.core.settings.update((s) => ({ ...s, council: { ...s.council, members: s.council.members.map((m) => (m.id === memberId ? { ...m, itemId } : m)) } }));
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('council members', () => {
  it('shows each member with avatar, name, pack, role and a NN% chance badge', async () => {
    const { panel, host } = await openCouncil(async (h) => {
      await addMember(h, 'continuity-keeper', { role: 'Continuity', chance: 100, tools: [] });
      // A member whose pack item is gone has no image: it shows initials.
      const ghost = await addMember(h, 'pacing-critic', { chance: 50, tools: [] });
      await repointToMissing(h, ghost, 'deleted-item');
    });
    const [vane, wren, ghost] = cards(panel);
    expect(vane!.querySelector('h3')!.textContent).toContain('Marshal Vane');
    expect(vane!.textContent).toContain('Story Council');
    expect(byLabel<HTMLInputElement>(vane!, 'Role of Marshal Vane').value).toBe('Plot');
    expect(byTestId(vane!, 'chance-badge').textContent).toBe('75%');
    expect(byLabel<HTMLInputElement>(vane!, 'Chance for Marshal Vane').value).toBe('75');
    // The avatar is the pack item's image, read with packs.avatar (the bundled SVG as a data URL).
    const img = vane!.querySelector('img.avatar') as HTMLImageElement;
    const { dataUrl } = await host.arrange('packs.avatar', { packId: 'story-council', itemId: 'plot-enforcer' });
    expect(dataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(img.getAttribute('src')).toBe(dataUrl);
    expect(host.callsTo('packs.avatar').map((c) => c.input)).toContainEqual({ packId: 'story-council', itemId: 'plot-enforcer' });
    expect(wren!.querySelector('img.avatar')).not.toBeNull();
    expect(ghost!.querySelector('.avatar')!.textContent).toBe('DE');
    expect(byTestId(wren!, 'chance-badge').textContent).toBe('100%');
    expect(byTestId(wren!, 'chance-badge').className).toContain('always');
    expect(wren!.textContent).toContain('No tools: this member never takes part.');
  });

  it('commits the number input on Enter and the slider once it settles, through council.setMember', async () => {
    const { panel, host, vane } = await openCouncil();
    const card = cards(panel)[0]!;
    const number = byLabel<HTMLInputElement>(card, 'Chance for Marshal Vane, percent');
    await settle(() => typeInto(number, '40'));
    expect(setMemberCalls(host)).toEqual([]);
    await settle(() => void key(number, { key: 'Enter' }));
    expect(setMemberCalls(host)).toEqual([{ memberId: vane, patch: { chance: 40 } }]);
    expect(stored(host)[0]!.chance).toBe(40);
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('40%');

    const slider = byLabel<HTMLInputElement>(cards(panel)[0]!, 'Chance for Marshal Vane');
    await settle(() => typeInto(slider, '65'));
    // The badge follows the slider at once; the host hears about it when the hand rests.
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('65%');
    expect(setMemberCalls(host)).toHaveLength(1);
    expect(stored(host)[0]!.chance).toBe(40);
    await settle(async () => {
      await wait(350);
    });
    expect(setMemberCalls(host)[1]).toEqual({ memberId: vane, patch: { chance: 65 } });
    expect(stored(host)[0]!.chance).toBe(65);
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('65%');
  });

  it('refuses a chance outside 0–100 or with decimals, with an error and no host call', async () => {
    const { panel, host } = await openCouncil();
    const number = byLabel<HTMLInputElement>(cards(panel)[0]!, 'Chance for Marshal Vane, percent');
    for (const bad of ['150', '12.5', '']) {
      await settle(() => typeInto(number, bad));
      await settle(() => void key(number, { key: 'Enter' }));
      const error = byTestId(cards(panel)[0]!, 'chance-error');
      expect(error.textContent).toContain('whole number from 0 to 100');
      expect(number.getAttribute('aria-invalid')).toBe('true');
      expect(number.getAttribute('aria-describedby')).toBe(error.id);
    }
    await settle(() => void number.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect(setMemberCalls(host)).toEqual([]);
    expect(stored(host)[0]!.chance).toBe(75);
    // Escape gives the host's value back.
    await settle(() => void key(number, { key: 'Escape' }));
    expect(number.value).toBe('75');
    expect(cards(panel)[0]!.querySelector('[data-testid="chance-error"]')).toBeNull();
  });

  it('shows a host refusal of a chance change inline and falls back to the stored value', async () => {
    const { panel, host } = await openCouncil();
    // The core cannot write its settings file: council.setMember is refused with SETTINGS_WRITE_FAILED.
    host.breakSettingsWrites();
    const number = byLabel<HTMLInputElement>(cards(panel)[0]!, 'Chance for Marshal Vane, percent');
    await settle(() => typeInto(number, '20'));
    await settle(() => void key(number, { key: 'Enter' }));
    expect(setMemberCalls(host)).toHaveLength(1);
    const error = byTestId(cards(panel)[0]!, 'inline-error');
    expect(error.dataset.code).toBe('SETTINGS_WRITE_FAILED');
    expect(error.textContent!.length).toBeGreaterThan('SETTINGS_WRITE_FAILED'.length);
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('75%');
    expect(stored(host)[0]!.chance).toBe(75);
  });

  it('groups tool checkboxes by source and extension, with descriptions on hover and focus, and sends the new tool list', async () => {
    const { panel, host, vane } = await openCouncil(async () => undefined, { extensions: true });
    const card = cards(panel)[0]!;
    const toggle = buttonNamed(card, 'Tools (1) for Marshal Vane');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(card.querySelector('[data-testid="tool-chip"]')!.textContent).toBe('Search Knowledge Base');
    await settle(() => toggle.click());
    const groups = [...card.querySelectorAll<HTMLElement>('[data-testid="tool-group"]')];
    const ids = groups.map((g) => g.dataset.group);
    // Prompt tools, then the pack's, then extensions, then builtin sources (the test tools).
    expect(ids.slice(0, 5)).toEqual(['prompt', 'pack:craft-circle', 'pack:story-council', 'extension:council-crasher', 'extension:council-probe']);
    expect(ids).toContain('builtin:dice-and-stats');
    expect(ids).toContain('builtin:knowledge-base');
    expect(groups.slice(0, 5).map((g) => spokenText(g.querySelector('legend')!))).toEqual([
      'Council prompt tools Prompt sidecar mode only',
      'Craft Circle Pack sidecar mode only',
      'Story Council Pack sidecar mode only',
      'Fixture: council-crasher Extension',
      'Fixture: council-probe Extension',
    ]);
    expect(card.querySelector('input[data-qualified-name="council-probe:quick"]')).not.toBeNull();
    expect(card.querySelector('input[data-qualified-name="pack.story-council:stakes_check"]')).not.toBeNull();
    // append_note is not council eligible, so it is not offered.
    expect(card.querySelector('input[data-qualified-name="scratchpad:append_note"]')).toBeNull();
    const kb = card.querySelector<HTMLInputElement>(`input[data-qualified-name="${KB}"]`)!;
    expect(kb.checked).toBe(true);
    const dice = card.querySelector<HTMLInputElement>(`input[data-qualified-name="${DICE}"]`)!;
    expect(dice.checked).toBe(false);
    const label = dice.closest('label')!;
    expect(label.title).toBe('Rolls dice in standard notation.');
    const desc = document.getElementById(dice.getAttribute('aria-describedby')!)!;
    expect(desc.textContent).toBe('Rolls dice in standard notation.');
    expect(desc.className).toBe('tool-check__desc');

    await settle(() => dice.click());
    expect(setMemberCalls(host)).toEqual([{ memberId: vane, patch: { tools: [KB, DICE] } }]);
    expect(stored(host)[0]!.tools).toEqual([KB, DICE]);
    await settle(() => card.querySelector<HTMLInputElement>(`input[data-qualified-name="${KB}"]`)!.click());
    expect(setMemberCalls(host)[1]!.patch).toEqual({ tools: [DICE] });
    expect(stored(host)[0]!.tools).toEqual([DICE]);
    expect(buttonNamed(cards(panel)[0]!, 'Tools (1) for Marshal Vane')).toBeTruthy();

    // A checked tool keeps 0–10 past deliberations for the history block.
    const kept = byLabel<HTMLSelectElement>(cards(panel)[0]!, 'Past deliberations of Roll Dice kept for Marshal Vane');
    expect(kept.value).toBe('0');
    await settle(() => typeInto(kept, '3'));
    expect(setMemberCalls(host)[2]).toEqual({ memberId: vane, patch: { toolHistoryRetention: { [DICE]: 3 } } });
    expect(stored(host)[0]!.toolHistoryRetention).toEqual({ [DICE]: 3 });
  });

  it('flags a member whose pack item is missing and a tool that is not registered', async () => {
    let ghostId = '';
    const { panel, host, vane } = await openCouncil(async (h, v) => {
      await h.arrange('council.setMember', { memberId: v, patch: { tools: [KB, 'gone-ext:vanished_tool'] } });
      ghostId = await addMember(h, 'continuity-keeper', { tools: [] });
      await repointToMissing(h, ghostId, 'deleted-item');
    });
    const warnings = byTestId(panel, 'council-warnings');
    expect(warnings.textContent).toContain('Marshal Vane: tool gone-ext:vanished_tool is not registered.');
    expect(warnings.textContent).toContain('deleted-item: pack item story-council/deleted-item is missing.');

    const [vaneCard, ghost] = cards(panel);
    expect(byTestId(vaneCard!, 'member-missing-tools').textContent).toBe('1 missing tool');
    const chip = [...vaneCard!.querySelectorAll('[data-testid="tool-chip"]')].find((c) => c.textContent?.includes('vanished'))!;
    expect(chip.className).toContain('tool-chip--missing');
    expect(chip.textContent).toContain('missing');
    await settle(() => buttonNamed(vaneCard!, 'Tools (2) for Marshal Vane').click());
    const missingGroup = vaneCard!.querySelector<HTMLElement>('[data-group="missing"]')!;
    const box = missingGroup.querySelector<HTMLInputElement>('input[data-qualified-name="gone-ext:vanished_tool"]')!;
    expect(box.checked).toBe(true);
    expect(missingGroup.textContent).toContain('missing');
    // Unchecking takes it away.
    await settle(() => box.click());
    expect(setMemberCalls(host)).toEqual([{ memberId: vane, patch: { tools: [KB] } }]);
    expect(stored(host)[0]!.tools).toEqual([KB]);
    expect(panel.querySelector('[data-testid="council-warnings"]')?.textContent ?? '').not.toContain('vanished_tool');

    expect(ghost!.className).toContain('member--flagged');
    expect(byTestId(ghost!, 'member-missing').textContent).toBe('missing item');
    expect(byTestId(ghost!, 'member-problem').textContent).toContain('story-council/deleted-item is missing');
    // It can be backed by another item from a pack.
    await settle(() => typeInto(byLabel<HTMLSelectElement>(ghost!, 'Item'), 'pacing-critic'));
    await settle(() => buttonNamed(ghost!, 'Use this item').click());
    expect(setMemberCalls(host)[1]).toEqual({ memberId: ghostId, patch: { packId: 'story-council', itemId: 'pacing-critic' } });
    expect(stored(host)[1]).toMatchObject({ id: ghostId, packId: 'story-council', itemId: 'pacing-critic' });
    expect(cards(panel)[1]!.querySelector('h3')!.textContent).toContain('Tempo');
  });

  it('moves members up and down with the keyboard-reachable buttons and keeps focus on the moved member', async () => {
    const ids: string[] = [];
    const { panel, host, vane } = await openCouncil(async (h) => {
      ids.push(await addMember(h, 'continuity-keeper', { tools: [KB] }), await addMember(h, 'pacing-critic', { tools: [KB] }));
    });
    const [wren, tempo] = ids as [string, string];
    expect(cards(panel).map((c) => c.dataset.memberId)).toEqual([vane, wren, tempo]);
    expect(buttonNamed(cards(panel)[0]!, 'Move Marshal Vane up').getAttribute('aria-disabled')).toBe('true');
    const down = buttonNamed(cards(panel)[1]!, 'Move Archivist Wren down');
    down.focus();
    await settle(() => down.click());
    expect(host.callsTo('council.reorderMembers').map((c) => c.input)).toEqual([{ memberIds: [vane, tempo, wren] }]);
    expect(stored(host).map((m) => m.id)).toEqual([vane, tempo, wren]);
    expect(cards(panel).map((c) => c.dataset.memberId)).toEqual([vane, tempo, wren]);
    // Wren is last now: focus goes to its Move up button, and the move is announced.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move Archivist Wren up');
    expect(panel.textContent).toContain('Archivist Wren moved to position 3 of 3.');
    await settle(() => buttonNamed(cards(panel)[2]!, 'Move Archivist Wren down').click());
    expect(host.callsTo('council.reorderMembers')).toHaveLength(1);
  });

  it('removes a member only after confirming', async () => {
    const { panel, host, vane } = await openCouncil();
    await settle(() => buttonNamed(cards(panel)[0]!, 'Remove Marshal Vane…').click());
    const confirm = byTestId(panel, 'confirm-remove');
    expect(document.activeElement?.textContent).toBe('Cancel');
    expect(host.callsTo('council.removeMember')).toHaveLength(0);
    expect(stored(host)).toHaveLength(1);
    await settle(() => buttonNamed(confirm, 'Remove').click());
    expect(host.callsTo('council.removeMember').map((c) => c.input)).toEqual([{ memberId: vane }]);
    expect(stored(host)).toEqual([]);
    expect(cards(panel)).toHaveLength(0);
    expect(byTestId(panel, 'empty-state').textContent).toContain('No council members yet');
    // Adding a member does not turn Council Mode on, and the help does not say it would.
    const help = panel.querySelector('#council-mode-help')!.textContent!;
    expect(help).toBe('Council Mode needs a member: add one below, then turn it on here.');
  });

  it('adds one item from a pack, and quick adds the rest of the pack', async () => {
    const { panel, host } = await openCouncil();
    const form = byTestId(panel, 'add-member');
    // The bundled packs are listed by name: Craft Circle first.
    expect(byLabel<HTMLSelectElement>(form, 'Pack').value).toBe('craft-circle');
    await settle(() => typeInto(byLabel<HTMLSelectElement>(form, 'Pack'), 'story-council'));
    // The first item not on the council yet is preselected.
    expect(byLabel<HTMLSelectElement>(form, 'Item').value).toBe('continuity-keeper');
    await settle(() => typeInto(byLabel(form, 'Role (optional)'), 'Continuity'));
    await settle(() => typeInto(byLabel(form, 'Chance %'), '60'));
    await settle(() => buttonNamed(form, 'Add member').click());
    expect(host.callsTo('council.addMember').map((c) => c.input)).toEqual([{ packId: 'story-council', itemId: 'continuity-keeper', chance: 60, role: 'Continuity' }]);
    expect(stored(host)[1]).toMatchObject({ packId: 'story-council', itemId: 'continuity-keeper', chance: 60, role: 'Continuity' });
    expect(cards(panel).map((c) => c.querySelector('h3')!.textContent)).toEqual(['1. Marshal Vane', '2. Archivist Wren']);
    expect(form.textContent).toContain('Archivist Wren joined the council.');

    await settle(() => typeInto(byLabel(form, 'Chance %'), '100'));
    await settle(() => buttonNamed(form, /^Quick add pack \(1 new\)/).click());
    expect(host.callsTo('council.quickAddPack').map((c) => c.input)).toEqual([{ packId: 'story-council', chance: 100 }]);
    expect(stored(host).map((m) => m.itemId)).toEqual(['plot-enforcer', 'continuity-keeper', 'pacing-critic']);
    expect(cards(panel)).toHaveLength(3);

    await settle(() => typeInto(byLabel<HTMLSelectElement>(form, 'Pack'), 'craft-circle'));
    expect(byLabel<HTMLSelectElement>(form, 'Item').value).toBe('voice-coach');
    await settle(() => typeInto(byLabel(form, 'Chance %'), '101'));
    expect(form.textContent).toContain('whole number from 0 to 100');
    await settle(() => buttonNamed(form, 'Add member').click());
    expect(host.callsTo('council.addMember')).toHaveLength(1);
    expect(stored(host)).toHaveLength(3);
  });

  it('an item already on the council cannot be added again, and a pack with nothing new cannot be quick-added', async () => {
    const { panel, host } = await openCouncil();
    const form = byTestId(panel, 'add-member');
    await settle(() => typeInto(byLabel<HTMLSelectElement>(form, 'Pack'), 'story-council'));
    const items = byLabel<HTMLSelectElement>(form, 'Item');
    const taken = [...items.options].find((o) => o.textContent!.includes('(already a member)'))!;
    expect(taken.value).toBe('plot-enforcer');
    expect(taken.disabled).toBe(true);
    // Chosen anyway (a script, or a change elsewhere made it a member meanwhile): Add does nothing.
    await settle(() => typeInto(items, taken.value));
    await settle(() => buttonNamed(form, 'Add member').click());
    expect(host.callsTo('council.addMember')).toHaveLength(0);
    await settle(() => typeInto(items, [...items.options].find((o) => !o.disabled)!.value));
    await settle(() => buttonNamed(form, /^Quick add pack/).click());
    expect(host.callsTo('council.quickAddPack')).toHaveLength(1);
    expect(stored(host)).toHaveLength(3);
    const done = buttonNamed(form, 'All on the council');
    expect(done.disabled).toBe(true);
    await settle(() => done.click());
    expect(host.callsTo('council.quickAddPack')).toHaveLength(1);
  });

  it('once the connection is lost, no tab promises an answer ("Asking the host…") for packs, runs or profiles it never got', async () => {
    const { panel, host } = await openCouncil(async (h) => {
      // Failures the real core cannot be driven to cheaply (its packs and runs folders unreadable, a profiles reply lost
      // on the way): these three answers are made up here.
      h.overrides['packs.list'] = () => ({ ok: false, error: { code: 'INTERNAL', message: 'The packs folder could not be read.' } });
      h.overrides['runs.list'] = () => ({ ok: false, error: { code: 'INTERNAL', message: 'The runs folder could not be read.' } });
      h.overrides['council.profiles.list'] = () => new Promise<never>(() => undefined);
    });
    const shown = async () => {
      const text: string[] = [];
      for (const tab of ['members', 'runs', 'settings']) {
        await settle(() => byTestId(panel, `council-tab-${tab}`).click());
        text.push(panel.textContent ?? '');
      }
      return text.join(' ');
    };
    // Connected, the profiles can still come; the runs cannot (their error says why).
    const connected = await shown();
    expect(connected).toContain('Asking the host for saved profiles');
    expect(connected).toContain('Could not list the stored runs');
    expect(connected).not.toContain('Asking the host for stored runs');
    await settle(() => host.setInfo({ state: 'disconnected', attempt: 21, willRetry: false }));
    expect(byTestId(panel.ownerDocument.body, 'connection-banner')).toBeTruthy();
    expect(await shown()).not.toContain('Asking the host');
  });

  it('turns Council Mode on and shows a refusal inline', async () => {
    const { panel, host } = await openCouncil();
    const mode = byLabel<HTMLInputElement>(panel, 'Council Mode');
    expect(mode.checked).toBe(false);
    await settle(() => mode.click());
    expect(host.callsTo('council.update').map((c) => c.input)).toEqual([{ patch: { councilMode: true } }]);
    expect(host.core.settings.get().council.councilMode).toBe(true);
    expect(byLabel<HTMLInputElement>(panel, 'Council Mode').checked).toBe(true);

    // The core cannot write its settings: turning it off is refused, and the refusal shows by the switch.
    host.breakSettingsWrites();
    await settle(() => byLabel<HTMLInputElement>(panel, 'Council Mode').click());
    expect(host.callsTo('council.update')).toHaveLength(2);
    const error = byTestId(byTestId(panel, 'council-head'), 'inline-error');
    expect(error.dataset.code).toBe('SETTINGS_WRITE_FAILED');
    expect(host.core.settings.get().council.councilMode).toBe(true);
    expect(byLabel<HTMLInputElement>(panel, 'Council Mode').checked).toBe(true);
  });

  it('warns before turning Council Mode on when no member can act, and turns it on only if asked again', async () => {
    // The one member has a tool but a 0% chance: it would never take part.
    const { panel, host } = await openCouncil((h, vane) => h.arrange('council.setMember', { memberId: vane, patch: { chance: 0 } }));
    await settle(() => byLabel<HTMLInputElement>(panel, 'Council Mode').click());
    const confirm = byTestId(panel, 'council-mode-confirm');
    expect(confirm.getAttribute('role')).toBe('alert');
    expect(confirm.textContent).toContain('No member can act: every member with a tool has a 0% chance');
    expect(host.callsTo('council.update')).toHaveLength(0);
    expect(byLabel<HTMLInputElement>(panel, 'Council Mode').checked).toBe(false);
    await settle(() => buttonNamed(confirm, 'Cancel').click());
    expect(panel.querySelector('[data-testid="council-mode-confirm"]')).toBeNull();
    await settle(() => byLabel<HTMLInputElement>(panel, 'Council Mode').click());
    await settle(() => buttonNamed(byTestId(panel, 'council-mode-confirm'), 'Turn on anyway').click());
    expect(host.callsTo('council.update').map((c) => c.input)).toEqual([{ patch: { councilMode: true } }]);
    expect(host.core.settings.get().council.councilMode).toBe(true);
  });

  it('follows council.changed events from the host (another window, the CLI)', async () => {
    const { panel, host, vane } = await openCouncil();
    // Another client changes the chance: the core emits council.changed.
    await settle(async () => void (await host.arrange('council.setMember', { memberId: vane, patch: { chance: 10 } })));
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('10%');
    expect(host.callsTo('council.setMember')).toHaveLength(0);
  });

  it('keeps the tabs keyboard reachable (arrow keys move between Members, Runs and Settings)', async () => {
    const { panel } = await openCouncil();
    const members = byTestId(panel, 'council-tab-members');
    expect(members.getAttribute('aria-selected')).toBe('true');
    members.focus();
    await settle(() => void key(members, { key: 'ArrowRight' }));
    expect(byTestId(panel, 'council-tab-runs').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(byTestId(panel, 'council-tab-runs'));
    expect(panel.querySelector('[data-testid="test-roll"]')).not.toBeNull();
    await settle(() => void key(document.activeElement!, { key: 'End' }));
    expect(byTestId(panel, 'council-tab-settings').getAttribute('aria-selected')).toBe('true');
  });
});

describe('council settings and profiles', () => {
  async function openSettings(arrange?: (host: RealHost, vane: string) => Promise<unknown>) {
    const opened = await openCouncil(arrange);
    await settle(() => byTestId(opened.panel, 'council-tab-settings').click());
    await settle();
    return opened;
  }

  it('changes the mode, the context numbers (validated) and the toggles through council.update', async () => {
    const { panel, host } = await openSettings();
    const tools = () => host.core.settings.get().council.toolsSettings!;
    const settings = byTestId(panel, 'council-settings');
    await settle(() => byLabel<HTMLInputElement>(settings, /^Inline/).click());
    expect(host.callsTo('council.update').at(-1)!.input).toEqual({ patch: { toolsSettings: { mode: 'inline' } } });
    expect(tools().mode).toBe('inline');

    const timeout = settings.querySelector<HTMLInputElement>('input[data-setting="timeoutMs"]')!;
    expect(timeout.value).toBe('30000');
    await settle(() => typeInto(timeout, '50'));
    expect(timeout.getAttribute('aria-invalid')).toBe('true');
    expect(settings.textContent).toContain('A whole number from 100 to 600,000.');
    await settle(() => void key(timeout, { key: 'Enter' }));
    expect(host.callsTo('council.update')).toHaveLength(1);
    await settle(() => typeInto(timeout, '5000'));
    await settle(() => void key(timeout, { key: 'Enter' }));
    expect(host.callsTo('council.update').at(-1)!.input).toEqual({ patch: { toolsSettings: { timeoutMs: 5000 } } });
    expect(tools().timeoutMs).toBe(5000);

    const words = settings.querySelector<HTMLInputElement>('input[data-setting="maxWordsPerTool"]')!;
    await settle(() => typeInto(words, '0'));
    // React's onBlur listens to focusout.
    await settle(() => void words.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect(tools().maxWordsPerTool).toBe(0);

    await settle(() => byLabel<HTMLInputElement>(settings, 'Exclude latest user message').click());
    expect(host.callsTo('council.update').at(-1)!.input).toEqual({ patch: { toolsSettings: { excludeLatestUserMessage: true } } });
    expect(tools().excludeLatestUserMessage).toBe(true);
    await settle(() => byTestId(settings, 'at-least-one').click());
    expect(host.callsTo('council.update').at(-1)!.input).toEqual({ patch: { atLeastOneMember: true } });
    expect(host.core.settings.get().council.atLeastOneMember).toBe(true);
  });

  it('saves, loads (after confirming), exports and deletes profiles', async () => {
    const blobs = captureBlobUrls();
    const { panel, host, vane } = await openSettings();
    const profiles = byTestId(panel, 'profiles');
    expect(profiles.textContent).toContain('No saved profiles yet.');
    await settle(() => typeInto(byLabel(profiles, 'Save current council as'), 'Campaign'));
    await settle(() => buttonNamed(profiles, 'Save').click());
    expect(host.callsTo('council.profiles.save').map((c) => c.input)).toEqual([{ name: 'Campaign' }]);
    expect((await host.arrange('council.profiles.list', {})).map((p) => [p.name, p.members])).toEqual([['Campaign', 1]]);
    const row = byTestId(profiles, 'profile');
    expect(row.textContent).toContain('Campaign');
    expect(row.textContent).toContain('1 member');

    // The council changes after the save (another window removes Vane); loading the profile brings Vane back.
    await settle(async () => void (await host.arrange('council.removeMember', { memberId: vane })));
    expect(stored(host)).toEqual([]);
    await settle(() => buttonNamed(row, 'Load profile Campaign…').click());
    expect(host.callsTo('council.profiles.load')).toHaveLength(0);
    await settle(() => buttonNamed(row, 'Load').click());
    expect(host.callsTo('council.profiles.load').map((c) => c.input)).toEqual([{ name: 'Campaign' }]);
    expect(stored(host).map((m) => m.itemId)).toEqual(['plot-enforcer']);
    // The count agrees with the number ("1 member", not "1 members").
    expect(profiles.textContent).toContain('Loaded “Campaign”: 1 member.');

    await settle(() => buttonNamed(row, 'Export profile Campaign').click());
    const exported = byTestId(profiles, 'profile-export');
    const file = await host.arrange('council.profiles.export', { name: 'Campaign' });
    expect(file.fileName).toBe('campaign.council-profile.json');
    expect(exported.textContent).toContain(file.fileName);
    const text = (byTestId(exported, 'export-text') as HTMLTextAreaElement).value;
    expect(text).toContain('"members"');
    expect(text).toBe(file.content);
    expect(await blobs.at(-1)!.text()).toBe(text);
    expect(byTestId(exported, 'download-link').getAttribute('download')).toBe(file.fileName);

    await settle(() => buttonNamed(row, 'Delete profile Campaign…').click());
    await settle(() => buttonNamed(row, 'Delete').click());
    expect(host.callsTo('council.profiles.remove').map((c) => c.input)).toEqual([{ name: 'Campaign' }]);
    expect(await host.arrange('council.profiles.list', {})).toEqual([]);
    expect(profiles.querySelector('[data-testid="profile"]')).toBeNull();
  });

  it('imports a profile file and shows a validation error with its path', async () => {
    const { panel, host } = await openSettings();
    const profiles = byTestId(panel, 'profiles');
    const input = byLabel<HTMLInputElement>(profiles, 'Profile file (.json)');
    // A file as another install exports it.
    await host.arrange('council.profiles.save', { name: 'Shared' });
    const { content } = await host.arrange('council.profiles.export', { name: 'Shared' });
    await host.arrange('council.profiles.remove', { name: 'Shared' });
    const good = new File([content], 'shared.json', { type: 'application/json' });
    Object.defineProperty(input, 'files', { value: [good], configurable: true });
    await settle(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await wait(20);
    });
    expect(host.callsTo('council.profiles.import')).toHaveLength(1);
    expect(profiles.textContent).toContain('Imported profile “Shared”');
    expect((await host.arrange('council.profiles.list', {})).map((p) => p.name)).toEqual(['Shared']);

    const bad = new File(['{"name":"x"}'], 'bad.json');
    Object.defineProperty(input, 'files', { value: [bad], configurable: true });
    await settle(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await wait(20);
    });
    expect(host.callsTo('council.profiles.import')).toHaveLength(2);
    const error = byTestId(profiles, 'inline-error');
    expect(error.textContent).toContain('Could not import bad.json');
    expect(error.textContent).toContain('/council');
    expect((await host.arrange('council.profiles.list', {})).map((p) => p.name)).toEqual(['Shared']);
  });
});
