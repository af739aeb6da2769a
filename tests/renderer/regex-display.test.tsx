// @vitest-environment real-core
// Display regex scripts in the Workbench chat, against the real core (its patterns on the real pattern thread): a
// rule an extension wrote changes what the window shows, by author and depth, never what is stored; the Regex scripts
// view names it and its writer, and switching it off there shows the text as written again. A chat no rule applies
// to asks the host nothing. Markup a rule writes stays text (G5).
import { afterEach, describe, expect, it } from 'vitest';
import type { RegexScriptInput } from '../../shared/types/regex-script';
import { buttonNamed, byLabel, byTestId, cleanup, settle } from './harness';
import { openWorkbench, savedSession } from './workbench-harness';
import { disposeAllHosts } from './real-host';
import path from 'node:path';
import { closeLlmServers, session } from './real-chat';
import { coreReaches, FIXTURE_EXTENSIONS } from './real-tools';
import { RegexDisplay } from '../../renderer/src/features/workbench/regex-display';
import type { HostApi } from '../../shared/host-api';

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  await closeLlmServers();
});

const CHAT = session({
  id: 's1',
  messages: [
    { id: 'u1', role: 'user', content: '[voice: loud] Is anyone there?', createdAt: 1 },
    { id: 'a1', role: 'assistant', content: 'Far away [voice: faint] a bell.', createdAt: 2 },
    { id: 'a2', role: 'assistant', content: 'Hello [voice: soft] there.', createdAt: 3 },
  ],
});
const HIDE: RegexScriptInput = { name: 'Hide voice cues', find_regex: '\\s?\\[voice:[^\\]]*\\]', replace_string: '', flags: 'gi', placement: ['ai_output'], target: 'display' };

const shownTexts = (panel: HTMLElement) => [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')].map((m) => m.querySelector('.msg__text')?.textContent ?? '');

async function open(scripts: RegexScriptInput[]) {
  return openWorkbench({
    sessions: [CHAT],
    arrange: async ({ host }) => {
      for (const input of scripts) host.core.regex.store.create(input, { owner: 'cue_keeper', unrestricted: false });
    },
  });
}

describe('display regex scripts in the chat', () => {
  it("shows the model's messages without their cues, stores them as written, and asks in one batch", async () => {
    const { panel, host } = await open([HIDE]);
    await settle();
    expect(shownTexts(panel)).toEqual(['[voice: loud] Is anyone there?', 'Far away a bell.', 'Hello there.']);
    expect((await savedSession(host)).messages.map((m) => m.content)).toEqual(CHAT.messages.map((m) => m.content));
    const asked = host.callsTo('regex.display').map((c) => c.input as { items: Array<{ role: string; depth: number; messageId?: string }> });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.items.map((i) => [i.role, i.depth])).toEqual([['user', 2], ['assistant', 1], ['assistant', 0]]);
    // Each asks with its message's id (extensions' render processors are told it).
    expect(asked[0]!.items.map((i) => i.messageId)).toEqual(CHAT.messages.map((m) => m.id));
  });

  it('counts depth from the newest message', async () => {
    const { panel } = await open([{ ...HIDE, max_depth: 0 }]);
    await settle();
    expect(shownTexts(panel)).toEqual(['[voice: loud] Is anyone there?', 'Far away [voice: faint] a bell.', 'Hello there.']);
  });

  it('lists the rule and its writer in the Regex scripts view; switched off there, the cues show again', async () => {
    const { panel, host } = await open([HIDE]);
    await settle(() => buttonNamed(panel, 'Regex scripts').click());
    const row = byTestId(panel, 'regex-row');
    expect(row.dataset.name).toBe('Hide voice cues');
    expect(row.textContent).toContain('display');
    // Written by an id no installed extension has (the rule outlived it): the id is shown.
    expect(row.textContent).toContain('cue_keeper');
    await settle(() => byLabel(panel, 'Hide voice cues on').click());
    expect(host.callsTo('regex.setDisabled').map((c) => c.input)).toEqual([{ id: host.core.regex.store.list().data[0]!.id, disabled: true }]);
    await settle();
    expect(shownTexts(panel)).toEqual(CHAT.messages.map((m) => m.content));
    expect(byLabel<HTMLInputElement>(panel, 'Hide voice cues on').checked).toBe(false);
  });

  it('names a rule’s writer as the Extensions section does', async () => {
    const { panel } = await openWorkbench({
      sessions: [CHAT],
      arrange: async ({ host }) => {
        await host.arrange('extensions.install', { folder: path.join(FIXTURE_EXTENSIONS, 'lumiverse_regex'), grant: ['tools', 'regex_scripts'], trust: true });
        await coreReaches(host, () => host.core.regex.store.list().total === 3, 'Cue Keeper wrote its rules');
      },
    });
    await settle(() => buttonNamed(panel, 'Regex scripts').click());
    const rows = [...panel.querySelectorAll<HTMLElement>('[data-testid="regex-row"]')];
    expect(rows.map((r) => r.dataset.name)).toEqual(['Cue Keeper • Hide voice cues', 'Cue Keeper • OOC out of older messages', 'Cue Keeper • End marker']);
    // The fourth column is who wrote it.
    expect(rows.map((r) => r.querySelectorAll('td')[3]!.textContent)).toEqual(['Cue Keeper', 'Cue Keeper', 'Cue Keeper']);
  });

  it("shows a branch through its card's rule: a branch's character is its line's origin, in the view's list too", async () => {
    const { panel } = await open([{ ...HIDE, scope: 'character', scope_id: 's1' }]);
    await settle();
    expect(shownTexts(panel)).toEqual(['[voice: loud] Is anyone there?', 'Far away a bell.', 'Hello there.']);
    const messages = () => [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')];
    await settle(() => buttonNamed(messages()[2]!, 'Branch from here').click());
    await settle();
    expect(panel.textContent).toContain('(branch)');
    expect(shownTexts(panel)).toEqual(['[voice: loud] Is anyone there?', 'Far away a bell.', 'Hello there.']);
    await settle(() => buttonNamed(panel, 'Regex scripts').click());
    expect(panel.textContent).toContain('Hide voice cues');
  });

  it('asks nothing for a chat no rule applies to', async () => {
    const { panel, host } = await open([{ ...HIDE, scope: 'chat', scope_id: 'another-chat' }, { ...HIDE, name: 'Prompt only', target: 'prompt' }]);
    await settle();
    expect(shownTexts(panel)).toEqual(CHAT.messages.map((m) => m.content));
    expect(host.callsTo('regex.display')).toEqual([]);
  });

  it('G5: markup a rule writes is shown as text, never made into elements', async () => {
    const markup = '<img src=x onerror="window.__pwnedByRegex=1"><script>window.__pwnedByRegex=2</script>';
    const { panel } = await open([{ ...HIDE, name: 'Card', replace_string: markup }]);
    await settle();
    const reply = [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')].at(-1)!;
    expect(reply.querySelector('.msg__text')!.textContent).toBe(`Hello${markup} there.`);
    expect(reply.querySelector('img, script')).toBeNull();
    expect((window as { __pwnedByRegex?: unknown }).__pwnedByRegex).toBeUndefined();
  });
});

describe('a display rule that writes an HTML skin', () => {
  it('has its block drawn as an HTML island in a sandbox frame, the text around it as text, no element of it in the page', async () => {
    const skin = '\n<style>.cue{color:red}</style>\n<div class="cue">$1<img src=x onerror="window.__pwnedByRegex=3"></div>\n';
    const { panel } = await open([{ ...HIDE, name: 'Skin', find_regex: '\\s?\\[voice: ([^\\]]*)\\]\\s?', replace_string: skin }]);
    await settle();
    const reply = [...panel.querySelectorAll<HTMLElement>('[data-testid="message"]')].at(-1)!;
    const island = reply.querySelector<HTMLElement>('[data-testid="html-island"]')!;
    const frame = island.querySelector('iframe')!;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.title).toBe('HTML in this message');
    // The island's markup travels to the frame as data; none of it is an element of the app's page.
    expect(reply.querySelectorAll('.msg__text style, .msg__text div.cue, .msg__text img')).toHaveLength(0);
    expect(reply.querySelector('.msg__text')!.textContent).toBe('Hello\nthere.');
    expect((window as { __pwnedByRegex?: unknown }).__pwnedByRegex).toBeUndefined();
  });
});

describe('the display pass when the host refuses it', () => {
  it('shows the text as written and does not ask again for it', async () => {
    const asked: string[] = [];
    const host = {
      invoke: async (method: string) => {
        asked.push(method);
        if (method === 'regex.list') return { ok: true, value: { scripts: [{ ...HIDE, id: 'r1', owner: 'x', scope: 'global', scope_id: null, target: ['display'], disabled: false }], revision: 1, processors: 0 } };
        return { ok: false, error: { code: 'NOT_FOUND', message: 'No Workbench session gone.' } };
      },
      onEvent: () => () => undefined,
    } as unknown as HostApi;
    const display = new RegexDisplay(host);
    await settle();
    expect(display.applies('gone')).toBe(true);
    display.ask('gone', 'Hi [voice: x]', 'assistant', 0);
    await settle();
    expect(display.shown('gone', 'Hi [voice: x]', 'assistant', 0)).toBe('Hi [voice: x]');
    display.ask('gone', 'Hi [voice: x]', 'assistant', 0);
    await settle();
    expect(asked).toEqual(['regex.list', 'regex.display']);
  });

  it('reads the scripts again when an answer was worked out under newer ones, then asks once more, and stops', async () => {
    const asked: string[] = [];
    let revision = 1;
    const script = { ...HIDE, id: 'r1', owner: 'x', scope: 'global', scope_id: null, target: ['display'], disabled: false, slow: false };
    const host = {
      invoke: async (method: string) => {
        asked.push(method);
        if (method === 'regex.list') return { ok: true, value: { scripts: [script], revision, processors: 0 } };
        // The scripts changed on the host (no event reached this window): its answers say so.
        revision = 2;
        return { ok: true, value: { texts: ['Hi'], revision: 2, skipped: [] } };
      },
      onEvent: () => () => undefined,
    } as unknown as HostApi;
    const display = new RegexDisplay(host);
    await settle();
    display.ask('s1', 'Hi [voice: x]', 'assistant', 0);
    await settle();
    expect(display.shown('s1', 'Hi [voice: x]', 'assistant', 0)).toBeUndefined();
    display.ask('s1', 'Hi [voice: x]', 'assistant', 0);
    await settle();
    expect(display.shown('s1', 'Hi [voice: x]', 'assistant', 0)).toBe('Hi');
    expect(asked).toEqual(['regex.list', 'regex.display', 'regex.list', 'regex.display']);
  });

  it("asks the host for a chat no script applies to once an extension's processor renders what is shown", async () => {
    let processors = 0;
    const host = {
      invoke: async (method: string) => {
        if (method === 'regex.list') return { ok: true, value: { scripts: [], revision: processors, processors } };
        return { ok: true, value: { texts: ['Hi (waves)'], revision: processors, skipped: [] } };
      },
      onEvent: () => () => undefined,
    } as unknown as HostApi;
    const none = new RegexDisplay(host);
    await settle();
    expect(none.applies('s1')).toBe(false);
    processors = 1;
    const display = new RegexDisplay(host);
    await settle();
    expect(display.applies('s1')).toBe(true);
    display.ask('s1', 'Hi :wave:', 'assistant', 0);
    await settle();
    expect(display.shown('s1', 'Hi :wave:', 'assistant', 0)).toBe('Hi (waves)');
  });
});
