// The turn's breakdown of assembly: the card as written, the world info that fired, then each owner's macros in
// turn. Each view is the one before with its step's change only, the last is the prompt as sent, and no macro runs
// twice for the views.
import { describe, expect, it } from 'vitest';
import { assemblePrompt } from '../../../electron/core/chat/pipeline/assemble';
import type { ExtensionMacroRef } from '../../../electron/core/extensions/pipeline/pipeline-bridge';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import { sessionDocument } from '../../helpers/session-document';

const message = (id: string, role: 'user' | 'assistant', content: string): ChatMessage => ({ id, role, content, createdAt: 1 });

function session(history: ChatMessage[]): ChatSession {
  return sessionDocument({
    character: { name: 'Mara', description: 'Keeper of the light. The sky: {{sky}}. Rolls: {{omen}} and {{omen}}.', personality: 'Calls {{user}} by name.', scenario: '' },
    persona: { name: 'Tom', description: '' },
    worldInfo: [
      { id: 'lamp', keywords: ['lamp'], content: 'The lamp is {{char}}’s charge.', enabled: true },
      { id: 'moon', keywords: ['moon'], content: 'Never fires.', enabled: true },
    ],
    messages: history,
  });
}

/** An extension's pull macro that counts its calls and answers a new number each time. */
function counting(extensionName: string, name: string, value: () => string): ExtensionMacroRef & { calls: number } {
  const ref = {
    extensionId: extensionName.toLowerCase(),
    extensionName,
    name,
    description: '',
    calls: 0,
    call: async () => {
      ref.calls++;
      return { ok: true as const, value: value() };
    },
  };
  return ref;
}

async function assemble(history: ChatMessage[], extensions: ExtensionMacroRef[], limits = {}) {
  return assemblePrompt({ session: session(history), history, councilTools: [], extensions, commit: true, signal: new AbortController().signal, limits });
}

describe('assembly views', () => {
  it('shows the card as written, then the world info, then the host’s macros, then each extension’s; the last is the prompt sent', async () => {
    let rolled = 0;
    const sky = counting('Harbor Weather', 'sky', () => 'grey');
    const omen = counting('Omen Box', 'omen', () => String(++rolled));
    const history = [message('m1', 'assistant', 'The {{sky}} lamp burns.'), message('m2', 'user', 'Hello {{char}}, is the lamp lit?')];
    const { views, messages } = await assemble(history, [sky, omen]);

    expect(views.map((v) => `${v.stage}/${v.by}`)).toEqual(['assembly/host', 'world info/host', 'macros/host', 'macros/Harbor Weather', 'macros/Omen Box']);
    const system = views.map((v) => v.messages[0]!.content);
    expect(system[0]).toContain('The sky: {{sky}}. Rolls: {{omen}} and {{omen}}.');
    expect(system[0]).not.toContain('World info');
    expect(system[1]).toContain('## World info\nThe lamp is {{char}}’s charge.');
    expect(system[2]).toContain('The lamp is Mara’s charge.');
    expect(system[2]).toContain('Calls Tom by name.');
    expect(system[3]).toContain('The sky: grey. Rolls: {{omen}} and {{omen}}.');
    expect(views[3]!.messages[1]!.content).toBe('The grey lamp burns.');
    expect(views.at(-1)!.messages).toEqual(messages);
    expect(messages[0]!.content).toContain('Rolls: 1 and 1.');
    expect(views.map((v) => v.note)).toEqual([undefined, 'fired: lamp', '{{char}}, {{user}}', '{{sky}}', expect.stringMatching(/^\{\{omen\}\}; ≈\d+ tokens$/)]);
    // The views reuse the turn's values: each handler ran once for its one distinct call.
    expect([sky.calls, omen.calls]).toEqual([1, 1]);
  });

  it('keeps to the messages and entries the budget kept, so a step shows only its own change', async () => {
    const history = Array.from({ length: 30 }, (_, i) => message(`m${i}`, i % 2 ? 'assistant' : 'user', `Message ${i}: ${'words '.repeat(30)} {{char}}`));
    const { views, messages, report } = await assemble(history, [], { contextSize: 1000, maxTokens: 200 });
    expect(report.cutMessages).toBeGreaterThan(0);
    expect(views.map((v) => v.stage)).toEqual(['assembly', 'macros']);
    expect(views[0]!.messages.length).toBe(messages.length);
    expect(views[0]!.messages.at(-1)!.content).toMatch(/\{\{char\}\}$/);
    expect(views[0]!.note).toBe(`${report.cutMessages} oldest messages left out to fit`);
    expect(views[1]!.note).toBe(`{{char}}, {{user}}; ≈${report.total} tokens`);
    expect(views[1]!.messages).toEqual(messages);
  });

  it('is the sent prompt alone when nothing was expanded and no world info fired', async () => {
    const history = [message('m1', 'user', 'Plain words.')];
    const plain = session(history);
    plain.character.description = 'Keeper of the light.';
    plain.character.personality = '';
    const { views, messages } = await assemblePrompt({ session: plain, history, councilTools: [], extensions: [], commit: true, signal: new AbortController().signal });
    expect(views).toEqual([{ stage: 'assembly', by: 'host', messages, note: expect.stringMatching(/tokens$/) }]);
  });

  it('credits a failing macro’s note to its extension, and the text keeps the macro as written', async () => {
    const broken: ExtensionMacroRef = { extensionId: 'b', extensionName: 'Broken', name: 'sky', description: '', call: async () => ({ ok: false, error: { code: 'TOOL_ERROR', message: 'no sky' } }) };
    const { notes, messages } = await assemble([message('m1', 'user', 'Hi')], [broken]);
    expect(notes).toEqual([{ owner: 'Broken', text: '{{sky}} (Broken) failed: TOOL_ERROR: no sky; left as written.' }]);
    expect(messages[0]!.content).toContain('The sky: {{sky}}.');
  });

  it('is the sent prompt at its last step when world-info ids repeat and an entry did not fit', async () => {
    const history = [message('m1', 'user', 'The lamp and the moon, {{char}}?')];
    const base = session(history);
    const big = 'A very long tale of the moon. '.repeat(200);
    const twice: ChatSession = {
      ...base,
      worldInfo: [
        { id: 'same', keywords: ['lamp'], content: 'The lamp is {{char}}’s charge.', enabled: true, order: 1 },
        { id: 'same', keywords: ['moon'], content: big, enabled: true, order: 2 },
      ],
    };
    const { views, messages, report } = await assemblePrompt({ session: twice, history, councilTools: [], extensions: [], commit: true, signal: new AbortController().signal, limits: { contextSize: 600, maxTokens: 100 } });
    expect(report.worldInfo.map((w) => w.included)).toEqual([true, false]);
    expect(views.at(-1)!.messages).toEqual(messages);
    expect(views.find((v) => v.stage === 'world info')!.note).toBe('fired: lamp; 1 entry did not fit');
  });

  it('keeps a note short: a long list of entries or macros names the first and counts the rest', async () => {
    const history = [message('m1', 'user', 'Hello')];
    const many: ChatSession = { ...session(history), worldInfo: Array.from({ length: 30 }, (_, i) => ({ id: `w${i}`, keywords: [], content: `Fact ${i}.`, enabled: true, constant: true })) };
    const { views } = await assemblePrompt({ session: many, history, councilTools: [], extensions: [], commit: true, signal: new AbortController().signal });
    expect(views.find((v) => v.stage === 'world info')!.note).toMatch(/^fired: Fact 0\., Fact 1\., .* and 18 more$/);
  });
});
