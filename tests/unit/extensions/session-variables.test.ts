// spindle.variables.chat for a Workbench session is the session's own store (shared with every extension and the
// {{getchatvar}} macros); a chat that is not a session keeps the extension's own scope; what an extension kept for a
// session in its own scope before moves into the session's at first use, never over a value the session has.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExtensionVariables, sessionVariables, VARIABLE_LIMITS, type SessionVariables } from '../../../electron/core/extensions/spindle-host/variables';
import type { ChatReads } from '../../../electron/core/extensions/spindle-host/chat-data';
import { SESSION_LIMITS } from '../../../shared/types/chat';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(() => cleanupTempDirs());

function sessions(stored: Record<string, Record<string, string>>): SessionVariables {
  return {
    read: (chatId) => (chatId in stored ? { ...stored[chatId] } : null),
    write: (chatId, values) => {
      stored[chatId] = { ...values };
    },
  };
}

const caller = (extensionId: string) => ({ extensionId, allowed: () => true });
const call = (handlers: ReturnType<ExtensionVariables['handlers']>, method: keyof ReturnType<ExtensionVariables['handlers']>, params: object, id = 'ext-a') =>
  (handlers[method] as unknown as (p: object, c: ReturnType<typeof caller>) => unknown)(params, caller(id));

describe('spindle.variables.chat over sessions', () => {
  it("shares a session's variables between extensions, and keeps a non-session chat's in the extension's own scope", async () => {
    const stored: Record<string, Record<string, string>> = { s1: { visits: '2' } };
    const handlers = new ExtensionVariables(tempDir(), sessions(stored)).handlers();
    await call(handlers, 'variables.chat.set', { chatId: 's1', key: 'sky', value: 'grey' }, 'ext-a');
    expect(await call(handlers, 'variables.chat.list', { chatId: 's1' }, 'ext-b')).toEqual({ visits: '2', sky: 'grey' });
    expect(stored.s1).toEqual({ visits: '2', sky: 'grey' });
    await call(handlers, 'variables.chat.delete', { chatId: 's1', key: 'visits' }, 'ext-b');
    expect(stored.s1).toEqual({ sky: 'grey' });

    await call(handlers, 'variables.chat.set', { chatId: 'elsewhere', key: 'k', value: 'v' }, 'ext-a');
    expect(await call(handlers, 'variables.chat.get', { chatId: 'elsewhere', key: 'k' }, 'ext-a')).toBe('v');
    expect(await call(handlers, 'variables.chat.get', { chatId: 'elsewhere', key: 'k' }, 'ext-b')).toBe('');
    expect(stored.elsewhere).toBeUndefined();
  });

  it("moves what an extension kept for a session in its own scope into the session's, once, without overwriting", async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, 'ext-a'), { recursive: true });
    fs.writeFileSync(path.join(root, 'ext-a', 'variables.json'), JSON.stringify({ global: {}, local: {}, chat: { s1: { visits: '9', mood: 'calm' } } }));
    const stored: Record<string, Record<string, string>> = { s1: { visits: '2' } };
    const handlers = new ExtensionVariables(root, sessions(stored)).handlers();
    expect(await call(handlers, 'variables.chat.list', { chatId: 's1' })).toEqual({ visits: '2', mood: 'calm' });
    expect(JSON.parse(fs.readFileSync(path.join(root, 'ext-a', 'variables.json'), 'utf8')).chat).toEqual({});
  });

  it("holds a story tracker's state (a 600 K character value) in a session's variables, reads a number as text, and refuses past the caps", async () => {
    const metadata: Record<string, unknown> = { chat_variables: { trust: 3, inventory: ['rope', 'lamp'] } };
    const reads = {
      saved: (id: string) => id === 's1',
      head: () => ({ metadata }),
      updateChat: (_id: string, patch: { metadata: Record<string, unknown> }) => Object.assign(metadata, patch.metadata),
    } as unknown as ChatReads;
    const handlers = new ExtensionVariables(tempDir(), sessionVariables(() => reads)).handlers();
    expect(await call(handlers, 'variables.chat.get', { chatId: 's1', key: 'trust' })).toBe('3');
    const state = JSON.stringify({ npcs: 'n'.repeat(600_000) });
    await call(handlers, 'variables.chat.set', { chatId: 's1', key: 'story_state', value: state });
    expect(await call(handlers, 'variables.chat.get', { chatId: 's1', key: 'story_state' })).toBe(state);
    // What it did not change stays as it was: a number a number, a list the text view does not show.
    expect(metadata.chat_variables).toMatchObject({ trust: 3, inventory: ['rope', 'lamp'], story_state: state });
    await call(handlers, 'variables.chat.delete', { chatId: 's1', key: 'story_state' });
    expect(metadata.chat_variables).toEqual({ trust: 3, inventory: ['rope', 'lamp'] });
    await call(handlers, 'variables.chat.set', { chatId: 's1', key: 'trust', value: '4' });
    expect(metadata.chat_variables).toEqual({ trust: '4', inventory: ['rope', 'lamp'] });
    await call(handlers, 'variables.chat.set', { chatId: 's1', key: 'story_state', value: state });
    // A chat's own value may take what its metadata holds (ChatRoom's whole history in one); an extension's local one not.
    const history = 'h'.repeat(VARIABLE_LIMITS.maxValueChars + 1);
    await call(handlers, 'variables.chat.set', { chatId: 's1', key: 'history', value: history });
    expect(await call(handlers, 'variables.chat.get', { chatId: 's1', key: 'history' })).toBe(history);
    await expect(call(handlers, 'variables.local.set', { key: 'history', value: history })).rejects.toMatchObject({ error: { code: 'INPUT_TOO_LARGE', path: '/value' } });
    await call(handlers, 'variables.chat.delete', { chatId: 's1', key: 'history' });
    await expect(call(handlers, 'variables.chat.set', { chatId: 's1', key: 'big', value: 'x'.repeat(SESSION_LIMITS.chatMetadata + 1) })).rejects.toMatchObject({ error: { code: 'INPUT_TOO_LARGE', path: '/value' } });
    for (let i = 0; i < Math.ceil(SESSION_LIMITS.chatMetadata / VARIABLE_LIMITS.maxValueChars) - 1; i++) await call(handlers, 'variables.chat.set', { chatId: 's1', key: `part${i}`, value: 'y'.repeat(VARIABLE_LIMITS.maxValueChars) });
    await expect(call(handlers, 'variables.chat.set', { chatId: 's1', key: 'one_more', value: 'z'.repeat(VARIABLE_LIMITS.maxValueChars) })).rejects.toMatchObject({ error: { code: 'INPUT_TOO_LARGE', path: '/value' } });
    expect(await call(handlers, 'variables.chat.has', { chatId: 's1', key: 'one_more' })).toBe(false);
  });
});
