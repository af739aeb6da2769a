// World info interceptors (spindle.registerWorldInfoInterceptor) in a real turn: a LumiBooks-style extension in a real
// worker hides, forces and rewrites entries before the scan, and the prompt the local LLM server receives shows it;
// one that answers garbage is skipped with a note; without generation it is never run.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession, TurnStage } from '../../../shared/types/chat';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { addMainConnection, chatRig, finished, newSession, type ChatRig } from './helpers';

const FIXTURE = path.resolve('tests/fixtures/extensions/lumiverse_lorebooks');
let rig: ChatRig;
let bookId = '';

beforeEach(async () => {
  rig = await chatRig();
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

async function install(grant: string[]): Promise<void> {
  const installed = await rig.call('extensions.install', { folder: FIXTURE, grant, trust: true });
  if (!installed.ok) throw new Error(JSON.stringify(installed.error));
  await rig.host.extensions.whenSettled();
  for (let i = 0; i < 400 && !rig.host.registry.get('lumiverse_lorebooks:seen'); i++) await new Promise((r) => setTimeout(r, 5));
}

const LORE = [
  { id: 'w-projection', keywords: ['lamp'], content: 'Projection: the lamp is a copy.', enabled: true, extensions: { lumibooks_projection: true } },
  { id: 'w-outlet', keywords: ['harbour'], content: 'Outlet: the harbour is closed tonight.', enabled: true, extensions: { lumibooks_outlet: true } },
  { id: 'w-rewrite', keywords: ['lamp'], content: 'the lamp burns whale oil.', enabled: true, comment: '[rewrite] shout it' },
  { id: 'w-plain', keywords: ['lamp'], content: 'Lamps hang by the door.', enabled: true },
];

async function turn(text: string, lore: Array<Record<string, unknown>> = LORE): Promise<{ system: string; stages: TurnStage[]; sessionId: string }> {
  const sessionId = await newSession(rig, { worldInfo: lore });
  // A global book of the library's: its entries come with their book.
  const book = rig.host.library.create({ name: 'Harbour lore' });
  rig.host.library.saveEntry(book.id, { id: 'w-global', keywords: ['gull'], content: 'Gulls circle the mast.', enabled: true });
  rig.host.library.setGlobals([book.id]);
  bookId = book.id;
  rig.server.enqueue({ text: 'The reply.' });
  const sent = await rig.call('chat.send', { sessionId, text });
  if (!sent.ok) throw new Error(JSON.stringify(sent.error));
  await finished(rig, (sent.value as { turnId: string }).turnId);
  const session = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
  const messages = (rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
  return { system: messages[0]!.content, stages: session.messages.at(-1)!.trace ?? [], sessionId };
}

describe('world info interceptors', () => {
  it('hide, force and rewrite entries before the scan: the prompt holds what they decided, the trace says it', async () => {
    await install(['tools', 'generation', 'chat_mutation']);
    const { system, stages, sessionId } = await turn('Where is the lamp?');
    expect(system).not.toContain('Projection: the lamp is a copy.');
    // Forced: in the prompt though nothing says "harbour".
    expect(system).toContain('Outlet: the harbour is closed tonight.');
    expect(system).toContain('THE LAMP BURNS WHALE OIL.');
    expect(system).toContain('Lamps hang by the door.');
    // The later handler's enable does not bring the projection back: a disable by any handler wins.
    expect(stages.filter((s) => s.stage === 'world info interceptors').map((s) => s.note)).toEqual(['1 disabled, 1 forced, 1 rewritten', '1 enabled']);
    // What it was shown: every entry, in Lumiverse's shape with its book, the chat's metadata and the person's line.
    const seen = await rig.host.registry.invoke('lumiverse_lorebooks:seen', {}, { timeoutMs: 10_000 });
    expect(seen.ok && JSON.parse(seen.content)).toEqual({
      chatId: sessionId,
      entryIds: [...LORE.map((e) => e.id), 'w-global'],
      books: [...LORE.map(() => [sessionId, 'character']), [bookId, 'global']],
      lastMessage: 'Where is the lamp?',
      chatTurn: 1,
      metadata: {},
    });
  }, 60_000);

  it('one that answers something else is skipped with a note, and the world info stays as stored; without chat_mutation it sees no message text', async () => {
    await install(['tools', 'generation']);
    const { system, stages } = await turn('The lamp?', [...LORE, { id: 'w-odd', keywords: ['odd'], content: 'Odd.', enabled: true, comment: '[garbage]' }]);
    expect(system).toContain('Projection: the lamp is a copy.');
    expect(system).not.toContain('Outlet: the harbour');
    expect(stages.find((s) => s.stage === 'world info interceptors')!.note).toMatch(/^skipped: it returned something other than/);
    const seen = await rig.host.registry.invoke('lumiverse_lorebooks:seen', {}, { timeoutMs: 10_000 });
    expect(seen.ok && JSON.parse(seen.content).lastMessage).toBe('');
  }, 60_000);

  it('without generation it is never run', async () => {
    await install(['tools']);
    const { system, stages } = await turn('Where is the lamp?');
    expect(system).toContain('Projection: the lamp is a copy.');
    expect(stages.some((s) => s.stage === 'world info interceptors')).toBe(false);
  }, 60_000);
});

describe('vector-only entries', () => {
  it('are said in the turn’s trace as not read (the Workbench does not retrieve by vector); nothing of them reaches the prompt', async () => {
    await install(['tools']);
    const vectorOnly = { keywords: [], enabled: true, constant: false, lumiverse: { vectorized: true } };
    // The Workbench's own keyword-less entry (constant unset) fires on every turn, vectorized or not: not counted.
    const own = { id: 'w-own', keywords: [], enabled: true, content: 'Always here.', lumiverse: { vectorized: true } };
    const lore = [...LORE, { id: 'w-vector', content: 'Found only by its meaning.', ...vectorOnly }, { id: 'w-vector-off', content: 'Switched off.', ...vectorOnly, enabled: false }, own];
    const { system, stages } = await turn('Where is the lamp?', lore);
    expect(system).not.toContain('Found only by its meaning.');
    expect(system).toContain('Always here.');
    expect(stages.filter((s) => s.stage === 'world info' && s.note?.includes('vector')).map((s) => s.note)).toEqual([
      '1 world info entry is vector-only (vectorized, no keywords): the Workbench does not retrieve by vector, so it is not read.',
    ]);
  }, 60_000);
});
