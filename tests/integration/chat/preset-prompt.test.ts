// A chat turn built from a Lumiverse preset the person imported and chose (Megumin Suite's way): the preset's blocks
// become the prompt, a Megumin-style extension's interceptor fills its [[placeholders]] knowing which preset it is,
// and the local LLM server receives the result; a preset that is gone leaves the Workbench's own prompt, with a note.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../../shared/types/chat';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, finished, newSession, type ChatRig } from './helpers';

const FIXTURE = path.resolve('tests/fixtures/extensions/lumiverse_preset_engine');
let rig: ChatRig;

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

const LOOM = {
  name: 'Engine Suite',
  description: 'A Megumin-style preset',
  blocks: [
    { id: 'main', name: 'Main Prompt', marker: 'main_prompt', content: 'You are [[prompt1]] for {{char}} and {{user}}.' },
    { id: 'desc', name: 'Character', marker: 'char_description' },
    { id: 'wi', name: 'World Info', marker: 'world_info_before' },
    { id: 'hist', name: 'Chat History', marker: 'chat_history' },
    { id: 'cot', name: 'Reasoning', content: '[[COT]]', position: 'in_history', depth: 0 },
    { id: 'ai1', name: 'Prefill hook', content: '[[AI1]]', role: 'assistant', position: 'post_history' },
  ],
};

async function sendTurn(text: string): Promise<{ sent: Array<{ role: string; content: string }>; session: ChatSession }> {
  const sessionId = await newSession(rig, {
    character: { name: 'Seraphina', description: 'A guardian of the glade.', personality: '', scenario: '' },
    persona: { name: 'Ada', description: '' },
    worldInfo: [{ id: 'w1', keywords: ['lamp'], content: 'The lamp burns whale oil.', enabled: true }],
  });
  rig.server.enqueue({ text: 'The reply.' });
  const started = await rig.call('chat.send', { sessionId, text });
  if (!started.ok) throw new Error(JSON.stringify(started.error));
  await finished(rig, (started.value as { turnId: string }).turnId);
  const session = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
  return { sent: (rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages, session };
}

describe('a chat prompt from a Lumiverse preset', () => {
  it('imports the Loom file, builds the prompt from its blocks, and the interceptor fills its placeholders knowing the preset', async () => {
    const installed = await rig.call('extensions.install', { folder: FIXTURE, grant: ['tools', 'interceptor'], trust: true });
    if (!installed.ok) throw new Error(JSON.stringify(installed.error));
    await rig.host.extensions.whenSettled();
    const imported = await rig.call('chat.presets.import', { fileName: 'Engine Suite.json', json: JSON.stringify(LOOM) });
    expect(imported).toMatchObject({ ok: true, value: { name: 'Engine Suite', blocks: 6 } });
    const presetId = (imported.value as { id: string }).id;
    expect((await rig.call('chat.presets.list', {})).value).toEqual({ presets: [{ id: presetId, name: 'Engine Suite', blocks: 6 }] });
    await rig.call('settings.update', { patch: { chat: { ...rig.host.settings.get().chat, presetId } } });
    // Its own key of the preset's metadata beside another extension's: its interceptor sees only its own.
    const metadata = { description: 'A Megumin-style preset', lumiverse_preset_engine: { mode: 'engine' }, other_extension: { secret: 'theirs' } };
    expect((await rig.call('chat.presets.update', { presetId, metadata, expected_cache_revision: 0 })).ok).toBe(true);

    const { sent, session } = await sendTurn('Where is the lamp?');
    expect(sent).toEqual([
      { role: 'system', content: 'You are a careful narrator for Seraphina and Ada.' },
      { role: 'system', content: 'A guardian of the glade.' },
      { role: 'system', content: 'The lamp burns whale oil.' },
      { role: 'user', content: 'Where is the lamp?' },
      { role: 'system', content: 'Think before you answer.' },
    ]);
    const seen = await rig.host.registry.invoke('lumiverse_preset_engine:seen', {}, { timeoutMs: 10_000 });
    expect(seen.ok && JSON.parse(seen.content)).toEqual({ seen: { presetId, ownMetadata: { mode: 'engine' }, placeholders: 3, isDryRun: false }, nested: null, started: 1 });
    expect(session.messages.at(-1)!.trace!.find((s) => s.stage === 'assembly')!.note).toContain('preset "Engine Suite"');
  }, 60_000);

  it('a chosen preset that is gone leaves the Workbench prompt, and the turn says so', async () => {
    await rig.call('settings.update', { patch: { chat: { ...rig.host.settings.get().chat, presetId: 'gone-preset' } } });
    const { sent, session } = await sendTurn('Where is the lamp?');
    expect(sent[0]!.content).toMatch(/^You are Seraphina\./);
    expect(session.messages.at(-1)!.trace!.map((s) => s.note).join('\n')).toContain('The chosen preset gone-preset is gone');
  }, 60_000);

  it("builds a preset's conditional blocks from its prompt variables, the person's values over the creator's", async () => {
    const modes = [
      { id: 'opt-gemini', label: 'Gemini', value: '0' },
      { id: 'opt-claude', label: 'Claude', value: '2' },
    ];
    const preset = {
      name: 'Devilish',
      blocks: [
        { id: 'core', name: 'Core', content: '', variables: [{ name: 'model', type: 'select', defaultValue: '0', options: modes }, { name: 'strict', type: 'switch', defaultValue: 0 }] },
        { id: 'main', name: 'Main', content: '{{setvar::tone::warm}}You are {{char}}.{{if::{{eq::{{var::model}}::2}}}} Think in <thinking> tags.{{else}} Answer at once.{{/if}}{{unless::{{var::strict}}}} Be {{getvar::tone}}.{{/unless}}{{// for the author only}}' },
        { id: 'hist', name: 'Chat History', marker: 'chat_history' },
      ],
      promptVariables: { core: { model: 'opt-claude' } },
    };
    const imported = await rig.call('chat.presets.import', { fileName: 'Devilish.json', json: JSON.stringify(preset) });
    if (!imported.ok) throw new Error(JSON.stringify(imported.error));
    await rig.call('settings.update', { patch: { chat: { ...rig.host.settings.get().chat, presetId: (imported.value as { id: string }).id } } });
    const { sent } = await sendTurn('Hello');
    expect(sent[0]).toEqual({ role: 'system', content: 'You are Seraphina. Think in <thinking> tags. Be warm.' });
  }, 60_000);

  it("starts the reply with the preset's prefill (Start Reply With): the prompt ends with it as the assistant's, macros resolved, and the saved reply begins with it; a continuation does not add it again", async () => {
    const preset = {
      name: 'Prefilled',
      blocks: [
        { id: 'main', name: 'Main', content: 'You are {{char}}.' },
        { id: 'hist', name: 'Chat History', marker: 'chat_history' },
      ],
      completionSettings: { assistantPrefill: '*{{char}} smiles* ' },
    };
    const imported = await rig.call('chat.presets.import', { fileName: 'Prefilled.json', json: JSON.stringify(preset) });
    if (!imported.ok) throw new Error(JSON.stringify(imported.error));
    await rig.call('settings.update', { patch: { chat: { ...rig.host.settings.get().chat, presetId: (imported.value as { id: string }).id } } });
    const { sent, session } = await sendTurn('Hello');
    expect(sent.at(-1)).toEqual({ role: 'assistant', content: '*Seraphina smiles* ' });
    expect(sent.at(-2)).toEqual({ role: 'user', content: 'Hello' });
    expect(session.messages.at(-1)!.content).toBe('*Seraphina smiles* The reply.');
    expect(session.messages.at(-1)!.trace!.find((s) => s.stage === 'assembly')!.note).toContain('the reply starts with its prefill');

    rig.server.enqueue({ text: ' And more.' });
    const started = await rig.call('chat.continue', { sessionId: session.id });
    if (!started.ok) throw new Error(JSON.stringify(started.error));
    await finished(rig, (started.value as { turnId: string }).turnId);
    const continued = (rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(continued.filter((m) => m.content === '*Seraphina smiles* ')).toEqual([]);
    expect(((await rig.call('chat.sessions.get', { sessionId: session.id })).value as ChatSession).messages.at(-1)!.content).toBe('*Seraphina smiles* The reply. And more.');
  }, 60_000);

  it("brings the regex scripts a preset file bundles as the preset's own: they work while it is the chat's preset, in a folder named after it; one that cannot be a rule is said, not kept", async () => {
    const preset = {
      type: 'lumiverse_preset',
      preset: {
        name: 'Little Devil',
        blocks: [
          { id: 'main', name: 'Main', content: 'You are {{char}}.' },
          { id: 'hist', name: 'Chat History', marker: 'chat_history' },
        ],
        extensions: {
          regex_scripts: [
            // SillyTavern's shape, as presets carry them: hide the model's thoughts where the reply is shown.
            { scriptName: 'Hide thoughts', findRegex: '/<Thoughts>[\\s\\S]*?<\\/Thoughts>\\s*/g', replaceString: '', placement: [2], markdownOnly: true },
            // Lumiverse's own, sent to the model without the stats block.
            { name: 'Compact stats', find_regex: '<stats>[\\s\\S]*?</stats>', replace_string: '[stats]', placement: ['user_input'], target: ['prompt'], flags: 'g' },
            { scriptName: 'Broken', findRegex: '/(unclosed/' },
          ],
        },
      },
    };
    const imported = await rig.call('chat.presets.import', { fileName: 'Little Devil.json', json: JSON.stringify(preset) });
    if (!imported.ok) throw new Error(JSON.stringify(imported.error));
    const { id: presetId } = imported.value as { id: string };
    expect(imported.value).toMatchObject({ name: 'Little Devil', blocks: 2, regexScripts: 2, regexSkipped: [expect.stringMatching(/^Script 3 \(Broken\): Invalid regex/)] });
    const listed = ((await rig.call('regex.list', {})).value as { scripts: Array<{ name: string; scope: string; scope_id: string | null; folder: string; target: string[] }> }).scripts;
    expect(listed.map((s) => ({ name: s.name, scope: s.scope, scope_id: s.scope_id, folder: s.folder, target: s.target }))).toEqual([
      { name: 'Hide thoughts', scope: 'preset', scope_id: presetId, folder: 'Little Devil', target: ['display'] },
      { name: 'Compact stats', scope: 'preset', scope_id: presetId, folder: 'Little Devil', target: ['prompt'] },
    ]);
    const sessionId = await newSession(rig, { character: { name: 'Seraphina', description: 'A guardian.', personality: '', scenario: '' } });
    const shown = async () => ((await rig.call('regex.display', { sessionId, items: [{ text: '<Thoughts>Plan the ambush.</Thoughts> The glade is quiet.', role: 'assistant', depth: 0 }] })).value as { texts: string[] }).texts[0];
    // Not the chat's preset: its scripts are not at work.
    expect(await shown()).toBe('<Thoughts>Plan the ambush.</Thoughts> The glade is quiet.');
    await rig.call('settings.update', { patch: { chat: { ...rig.host.settings.get().chat, presetId } } });
    expect(await shown()).toBe('The glade is quiet.');
    // The prompt script works on what the model is sent.
    rig.server.enqueue({ text: 'The reply.' });
    const started = await rig.call('chat.send', { sessionId, text: 'Status? <stats>HP 3, MP 9</stats>' });
    if (!started.ok) throw new Error(JSON.stringify(started.error));
    await finished(rig, (started.value as { turnId: string }).turnId);
    const sent = (rig.server.generations.at(-1)!.body as { messages: Array<{ content: string }> }).messages;
    expect(sent.at(-1)!.content).toBe('Status? [stats]');
    // The chat keeps what the person wrote.
    const saved = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
    expect(saved.messages.at(-2)!.content).toBe('Status? <stats>HP 3, MP 9</stats>');
  }, 60_000);
});
