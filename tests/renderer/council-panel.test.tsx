// @vitest-environment happy-dom
// The Council section's members and settings against a fake host: chance, tools, missing items and tools, order, add, remove, settings, profiles.
import { afterEach, describe, expect, it } from 'vitest';
import { installCouncil, member, pack, SVG_AVATAR, type FakeCouncil } from './council-fixtures';
import { byLabel, byTestId, buttonNamed, cleanup, extension, FakeHost, key, navButton, renderShell, settle, spokenText, typeInto } from './harness';

afterEach(() => cleanup());

async function openCouncil(setup: (host: FakeHost, council: FakeCouncil) => void = () => undefined) {
  const host = new FakeHost();
  host.extensions = [extension(), extension({ id: 'dice-and-stats', name: 'Dice and Stats' }), extension({ id: 'scratchpad', name: 'Scratchpad' })];
  const council = installCouncil(host);
  setup(host, council);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'Council').click());
  await settle();
  return { ...rendered, council, panel: byTestId(rendered.container, 'panel-council') };
}

function cards(panel: HTMLElement): HTMLElement[] {
  return [...panel.querySelectorAll<HTMLElement>('[data-testid="member"]')];
}

function setMemberCalls(host: FakeHost) {
  return host.callsTo('council.setMember').map((c) => c.input as { memberId: string; patch: Record<string, unknown> });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('council members', () => {
  it('shows each member with avatar, name, pack, role and a NN% chance badge', async () => {
    const { panel } = await openCouncil((_h, c) => {
      c.settings.members.push(member({ id: 'm-wren', itemId: 'continuity-keeper', role: 'Continuity', chance: 100, tools: [] }));
    });
    const [vane, wren] = cards(panel);
    expect(vane!.querySelector('h3')!.textContent).toContain('Marshal Vane');
    expect(vane!.textContent).toContain('Story Council');
    expect(byLabel<HTMLInputElement>(vane!, 'Role of Marshal Vane').value).toBe('Plot');
    expect(byTestId(vane!, 'chance-badge').textContent).toBe('75%');
    expect(byLabel<HTMLInputElement>(vane!, 'Chance for Marshal Vane').value).toBe('75');
    // The avatar is the pack item's image, read with packs.avatar; a member without one shows initials.
    const img = vane!.querySelector('img.avatar') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(SVG_AVATAR);
    expect(wren!.querySelector('.avatar')!.textContent).toBe('AW');
    expect(byTestId(wren!, 'chance-badge').textContent).toBe('100%');
    expect(byTestId(wren!, 'chance-badge').className).toContain('always');
    expect(wren!.textContent).toContain('No tools: this member never takes part.');
  });

  it('commits the number input on Enter and the slider once it settles, through council.setMember', async () => {
    const { panel, host } = await openCouncil();
    const card = cards(panel)[0]!;
    const number = byLabel<HTMLInputElement>(card, 'Chance for Marshal Vane, percent');
    await settle(() => typeInto(number, '40'));
    expect(setMemberCalls(host)).toEqual([]);
    await settle(() => void key(number, { key: 'Enter' }));
    expect(setMemberCalls(host)).toEqual([{ memberId: 'm-vane', patch: { chance: 40 } }]);
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('40%');

    const slider = byLabel<HTMLInputElement>(cards(panel)[0]!, 'Chance for Marshal Vane');
    await settle(() => typeInto(slider, '65'));
    // The badge follows the slider at once; the host hears about it when the hand rests.
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('65%');
    expect(setMemberCalls(host)).toHaveLength(1);
    await settle(async () => {
      await wait(350);
    });
    expect(setMemberCalls(host)[1]).toEqual({ memberId: 'm-vane', patch: { chance: 65 } });
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
    // Escape gives the host's value back.
    await settle(() => void key(number, { key: 'Escape' }));
    expect(number.value).toBe('75');
    expect(cards(panel)[0]!.querySelector('[data-testid="chance-error"]')).toBeNull();
  });

  it('shows a host refusal of a chance change inline and falls back to the stored value', async () => {
    const { panel, host } = await openCouncil();
    host.handlers['council.setMember'] = () => ({ ok: false, error: { code: 'SETTINGS_WRITE_FAILED', message: 'Disk full.', hint: 'Free some space.' } });
    const number = byLabel<HTMLInputElement>(cards(panel)[0]!, 'Chance for Marshal Vane, percent');
    await settle(() => typeInto(number, '20'));
    await settle(() => void key(number, { key: 'Enter' }));
    const error = byTestId(cards(panel)[0]!, 'inline-error');
    expect(error.dataset.code).toBe('SETTINGS_WRITE_FAILED');
    expect(error.textContent).toContain('Disk full.');
    expect(error.textContent).toContain('Free some space.');
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('75%');
  });

  it('groups tool checkboxes by source and extension, with descriptions on hover and focus, and sends the new tool list', async () => {
    const { panel, host } = await openCouncil();
    const card = cards(panel)[0]!;
    const toggle = buttonNamed(card, 'Tools (1) for Marshal Vane');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(card.querySelector('[data-testid="tool-chip"]')!.textContent).toBe('Search Knowledge Base');
    await settle(() => toggle.click());
    const groups = [...card.querySelectorAll<HTMLElement>('[data-testid="tool-group"]')];
    expect(groups.map((g) => g.dataset.group)).toEqual(['prompt', 'pack:story-council', 'extension:dice-and-stats', 'extension:knowledge-base', 'extension:scratchpad']);
    expect(groups.map((g) => spokenText(g.querySelector('legend')!))).toEqual([
      'Council prompt tools Prompt sidecar mode only',
      'Story Council Pack sidecar mode only',
      'Dice and Stats Extension',
      'Knowledge Base Extension',
      'Scratchpad Extension',
    ]);
    // append_note is not council eligible, so it is not offered.
    expect(card.querySelector('input[data-qualified-name="scratchpad:append_note"]')).toBeNull();
    const kb = card.querySelector<HTMLInputElement>('input[data-qualified-name="knowledge-base:search_knowledge_base"]')!;
    expect(kb.checked).toBe(true);
    const dice = card.querySelector<HTMLInputElement>('input[data-qualified-name="dice-and-stats:roll_dice"]')!;
    expect(dice.checked).toBe(false);
    const label = dice.closest('label')!;
    expect(label.title).toBe('Rolls dice in standard notation.');
    const desc = document.getElementById(dice.getAttribute('aria-describedby')!)!;
    expect(desc.textContent).toBe('Rolls dice in standard notation.');
    expect(desc.className).toBe('tool-check__desc');

    await settle(() => dice.click());
    expect(setMemberCalls(host)).toEqual([{ memberId: 'm-vane', patch: { tools: ['knowledge-base:search_knowledge_base', 'dice-and-stats:roll_dice'] } }]);
    await settle(() => card.querySelector<HTMLInputElement>('input[data-qualified-name="knowledge-base:search_knowledge_base"]')!.click());
    expect(setMemberCalls(host)[1]!.patch).toEqual({ tools: ['dice-and-stats:roll_dice'] });
    expect(buttonNamed(cards(panel)[0]!, 'Tools (1) for Marshal Vane')).toBeTruthy();

    // A checked tool keeps 0–10 past deliberations for the history block.
    const kept = byLabel<HTMLSelectElement>(cards(panel)[0]!, 'Past deliberations of Roll Dice kept for Marshal Vane');
    expect(kept.value).toBe('0');
    await settle(() => typeInto(kept, '3'));
    expect(setMemberCalls(host)[2]).toEqual({ memberId: 'm-vane', patch: { toolHistoryRetention: { 'dice-and-stats:roll_dice': 3 } } });
  });

  it('flags a member whose pack item is missing and a tool that is not registered', async () => {
    const { panel, host } = await openCouncil((_h, c) => {
      c.settings.members = [
        member({ tools: ['knowledge-base:search_knowledge_base', 'gone-ext:vanished_tool'] }),
        member({ id: 'm-ghost', itemId: 'deleted-item', tools: [] }),
      ];
    });
    const warnings = byTestId(panel, 'council-warnings');
    expect(warnings.textContent).toContain('Marshal Vane: tool gone-ext:vanished_tool is not registered.');
    expect(warnings.textContent).toContain('deleted-item: pack item story-council/deleted-item is missing.');

    const [vane, ghost] = cards(panel);
    expect(byTestId(vane!, 'member-missing-tools').textContent).toBe('1 missing tool');
    const chip = [...vane!.querySelectorAll('[data-testid="tool-chip"]')].find((c) => c.textContent?.includes('vanished'))!;
    expect(chip.className).toContain('tool-chip--missing');
    expect(chip.textContent).toContain('missing');
    await settle(() => buttonNamed(vane!, 'Tools (2) for Marshal Vane').click());
    const missingGroup = vane!.querySelector<HTMLElement>('[data-group="missing"]')!;
    const box = missingGroup.querySelector<HTMLInputElement>('input[data-qualified-name="gone-ext:vanished_tool"]')!;
    expect(box.checked).toBe(true);
    expect(missingGroup.textContent).toContain('missing');
    // Unchecking takes it away.
    await settle(() => box.click());
    expect(setMemberCalls(host)).toEqual([{ memberId: 'm-vane', patch: { tools: ['knowledge-base:search_knowledge_base'] } }]);

    expect(ghost!.className).toContain('member--flagged');
    expect(byTestId(ghost!, 'member-missing').textContent).toBe('missing item');
    expect(byTestId(ghost!, 'member-problem').textContent).toContain('story-council/deleted-item is missing');
    // It can be backed by another item from a pack.
    await settle(() => typeInto(byLabel<HTMLSelectElement>(ghost!, 'Item'), 'pacing-critic'));
    await settle(() => buttonNamed(ghost!, 'Use this item').click());
    expect(setMemberCalls(host)[1]).toEqual({ memberId: 'm-ghost', patch: { packId: 'story-council', itemId: 'pacing-critic' } });
  });

  it('moves members up and down with the keyboard-reachable buttons and keeps focus on the moved member', async () => {
    const { panel, host } = await openCouncil((_h, c) => {
      c.settings.members.push(member({ id: 'm-wren', itemId: 'continuity-keeper', role: '' }), member({ id: 'm-tempo', itemId: 'pacing-critic', role: '' }));
    });
    expect(cards(panel).map((c) => c.dataset.memberId)).toEqual(['m-vane', 'm-wren', 'm-tempo']);
    expect(buttonNamed(cards(panel)[0]!, 'Move Marshal Vane up').getAttribute('aria-disabled')).toBe('true');
    const down = buttonNamed(cards(panel)[1]!, 'Move Archivist Wren down');
    down.focus();
    await settle(() => down.click());
    expect(host.callsTo('council.reorderMembers').map((c) => c.input)).toEqual([{ memberIds: ['m-vane', 'm-tempo', 'm-wren'] }]);
    expect(cards(panel).map((c) => c.dataset.memberId)).toEqual(['m-vane', 'm-tempo', 'm-wren']);
    // Wren is last now: focus goes to its Move up button, and the move is announced.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Move Archivist Wren up');
    expect(panel.textContent).toContain('Archivist Wren moved to position 3 of 3.');
    await settle(() => buttonNamed(cards(panel)[2]!, 'Move Archivist Wren down').click());
    expect(host.callsTo('council.reorderMembers')).toHaveLength(1);
  });

  it('removes a member only after confirming', async () => {
    const { panel, host } = await openCouncil();
    await settle(() => buttonNamed(cards(panel)[0]!, 'Remove Marshal Vane…').click());
    const confirm = byTestId(panel, 'confirm-remove');
    expect(document.activeElement?.textContent).toBe('Cancel');
    expect(host.callsTo('council.removeMember')).toHaveLength(0);
    await settle(() => buttonNamed(confirm, 'Remove').click());
    expect(host.callsTo('council.removeMember').map((c) => c.input)).toEqual([{ memberId: 'm-vane' }]);
    expect(cards(panel)).toHaveLength(0);
    expect(byTestId(panel, 'empty-state').textContent).toContain('No council members yet');
    // Adding a member does not turn Council Mode on, and the help does not say it would.
    const help = panel.querySelector('#council-mode-help')!.textContent!;
    expect(help).toBe('Council Mode needs a member: add one below, then turn it on here.');
  });

  it('adds one item from a pack, and quick adds the rest of the pack', async () => {
    const { panel, host } = await openCouncil((_h, c) => {
      c.packs.push(pack({ id: 'craft-circle', name: 'Craft Circle', items: [{ id: 'editor', name: 'The Editor', definition: '', personality: '', behavior: '', genderIdentity: 3, avatarUrl: null }], tools: [] }));
    });
    const form = byTestId(panel, 'add-member');
    // The first item not on the council yet is preselected.
    expect(byLabel<HTMLSelectElement>(form, 'Item').value).toBe('continuity-keeper');
    await settle(() => typeInto(byLabel(form, 'Role (optional)'), 'Continuity'));
    await settle(() => typeInto(byLabel(form, 'Chance %'), '60'));
    await settle(() => buttonNamed(form, 'Add member').click());
    expect(host.callsTo('council.addMember').map((c) => c.input)).toEqual([{ packId: 'story-council', itemId: 'continuity-keeper', chance: 60, role: 'Continuity' }]);
    expect(cards(panel).map((c) => c.querySelector('h3')!.textContent)).toEqual(['1. Marshal Vane', '2. Archivist Wren']);
    expect(form.textContent).toContain('Archivist Wren joined the council.');

    await settle(() => typeInto(byLabel(form, 'Chance %'), '100'));
    await settle(() => buttonNamed(form, /^Quick add pack \(1 new\)/).click());
    expect(host.callsTo('council.quickAddPack').map((c) => c.input)).toEqual([{ packId: 'story-council', chance: 100 }]);
    expect(cards(panel)).toHaveLength(3);

    await settle(() => typeInto(byLabel<HTMLSelectElement>(form, 'Pack'), 'craft-circle'));
    expect(byLabel<HTMLSelectElement>(form, 'Item').value).toBe('editor');
    await settle(() => typeInto(byLabel(form, 'Chance %'), '101'));
    expect(form.textContent).toContain('whole number from 0 to 100');
    await settle(() => buttonNamed(form, 'Add member').click());
    expect(host.callsTo('council.addMember')).toHaveLength(1);
  });

  it('an item already on the council cannot be added again, and a pack with nothing new cannot be quick-added', async () => {
    const { panel, host } = await openCouncil();
    const form = byTestId(panel, 'add-member');
    const items = byLabel<HTMLSelectElement>(form, 'Item');
    const taken = [...items.options].find((o) => o.textContent!.includes('(already a member)'))!;
    expect(taken.disabled).toBe(true);
    // Chosen anyway (a script, or a change elsewhere made it a member meanwhile): Add does nothing.
    await settle(() => typeInto(items, taken.value));
    await settle(() => buttonNamed(form, 'Add member').click());
    expect(host.callsTo('council.addMember')).toHaveLength(0);
    await settle(() => typeInto(items, [...items.options].find((o) => !o.disabled)!.value));
    await settle(() => buttonNamed(form, /^Quick add pack/).click());
    expect(host.callsTo('council.quickAddPack')).toHaveLength(1);
    const done = buttonNamed(form, 'All on the council');
    expect(done.disabled).toBe(true);
    await settle(() => done.click());
    expect(host.callsTo('council.quickAddPack')).toHaveLength(1);
  });

  it('once the connection is lost, no tab promises an answer ("Asking the host…") for packs, runs or profiles it never got', async () => {
    const { panel, host } = await openCouncil((h) => {
      h.handlers['packs.list'] = () => ({ ok: false, error: { code: 'INTERNAL', message: 'The packs folder could not be read.' } });
      h.handlers['runs.list'] = () => ({ ok: false, error: { code: 'INTERNAL', message: 'The runs folder could not be read.' } });
      h.handlers['council.profiles.list'] = () => new Promise<never>(() => undefined);
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
    const { panel, host, council } = await openCouncil();
    const mode = byLabel<HTMLInputElement>(panel, 'Council Mode');
    expect(mode.checked).toBe(false);
    await settle(() => mode.click());
    expect(host.callsTo('council.update').map((c) => c.input)).toEqual([{ patch: { councilMode: true } }]);
    expect(council.settings.councilMode).toBe(true);
    expect(byLabel<HTMLInputElement>(panel, 'Council Mode').checked).toBe(true);

    host.handlers['council.update'] = () => ({ ok: false, error: { code: 'INVALID_INPUT', message: 'Nope.', path: '/councilMode' } });
    await settle(() => byLabel<HTMLInputElement>(panel, 'Council Mode').click());
    expect(byTestId(byTestId(panel, 'council-head'), 'inline-error').textContent).toContain('Nope.');
  });

  it('follows council.changed events from the host (another window, the CLI)', async () => {
    const { panel, host, council } = await openCouncil();
    council.settings.members[0]!.chance = 10;
    await settle(() => host.emit({ type: 'council.changed', council: council.view() }));
    expect(byTestId(cards(panel)[0]!, 'chance-badge').textContent).toBe('10%');
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
  async function openSettings(setup?: (host: FakeHost, council: FakeCouncil) => void) {
    const opened = await openCouncil(setup);
    await settle(() => byTestId(opened.panel, 'council-tab-settings').click());
    await settle();
    return opened;
  }

  it('changes the mode, the context numbers (validated) and the toggles through council.update', async () => {
    const { panel, host, council } = await openSettings();
    const settings = byTestId(panel, 'council-settings');
    await settle(() => byLabel<HTMLInputElement>(settings, /^Inline/).click());
    expect(host.callsTo('council.update').at(-1)!.input).toEqual({ patch: { toolsSettings: { mode: 'inline' } } });

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

    const words = settings.querySelector<HTMLInputElement>('input[data-setting="maxWordsPerTool"]')!;
    await settle(() => typeInto(words, '0'));
    // React's onBlur listens to focusout.
    await settle(() => void words.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect(council.settings.toolsSettings.maxWordsPerTool).toBe(0);

    await settle(() => byLabel<HTMLInputElement>(settings, 'Exclude latest user message').click());
    expect(host.callsTo('council.update').at(-1)!.input).toEqual({ patch: { toolsSettings: { excludeLatestUserMessage: true } } });
    await settle(() => byTestId(settings, 'at-least-one').click());
    expect(host.callsTo('council.update').at(-1)!.input).toEqual({ patch: { atLeastOneMember: true } });
    expect(council.settings.atLeastOneMember).toBe(true);
  });

  it('saves, loads (after confirming), exports and deletes profiles', async () => {
    const { panel, host, council } = await openSettings();
    const profiles = byTestId(panel, 'profiles');
    expect(profiles.textContent).toContain('No saved profiles yet.');
    await settle(() => typeInto(byLabel(profiles, 'Save current council as'), 'Campaign'));
    await settle(() => buttonNamed(profiles, 'Save').click());
    expect(host.callsTo('council.profiles.save').map((c) => c.input)).toEqual([{ name: 'Campaign' }]);
    const row = byTestId(profiles, 'profile');
    expect(row.textContent).toContain('Campaign');
    expect(row.textContent).toContain('1 member');

    council.settings.members = [];
    await settle(() => buttonNamed(row, 'Load profile Campaign…').click());
    expect(host.callsTo('council.profiles.load')).toHaveLength(0);
    await settle(() => buttonNamed(row, 'Load').click());
    expect(host.callsTo('council.profiles.load').map((c) => c.input)).toEqual([{ name: 'Campaign' }]);
    expect(council.settings.members).toHaveLength(1);
    // The count agrees with the number ("1 member", not "1 members").
    expect(profiles.textContent).toContain('Loaded “Campaign”: 1 member.');

    await settle(() => buttonNamed(row, 'Export profile Campaign').click());
    const exported = byTestId(profiles, 'profile-export');
    expect(exported.textContent).toContain('Campaign.council.json');
    expect((byTestId(exported, 'export-text') as HTMLTextAreaElement).value).toContain('"members"');

    await settle(() => buttonNamed(row, 'Delete profile Campaign…').click());
    await settle(() => buttonNamed(row, 'Delete').click());
    expect(host.callsTo('council.profiles.remove').map((c) => c.input)).toEqual([{ name: 'Campaign' }]);
    expect(profiles.querySelector('[data-testid="profile"]')).toBeNull();
  });

  it('imports a profile file and shows a validation error with its path', async () => {
    const { panel, host } = await openSettings();
    const profiles = byTestId(panel, 'profiles');
    const input = byLabel<HTMLInputElement>(profiles, 'Profile file (.json)');
    const good = new File([JSON.stringify({ name: 'Shared', council: { councilMode: false, members: [], toolsSettings: {}, atLeastOneMember: false } })], 'shared.json', { type: 'application/json' });
    Object.defineProperty(input, 'files', { value: [good], configurable: true });
    await settle(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await wait(20);
    });
    expect(host.callsTo('council.profiles.import')).toHaveLength(1);
    expect(profiles.textContent).toContain('Imported profile “Shared”');

    const bad = new File(['{"name":"x"}'], 'bad.json');
    Object.defineProperty(input, 'files', { value: [bad], configurable: true });
    await settle(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
      await wait(20);
    });
    const error = byTestId(profiles, 'inline-error');
    expect(error.textContent).toContain('Could not import bad.json');
    expect(error.textContent).toContain('/council');
  });
});
