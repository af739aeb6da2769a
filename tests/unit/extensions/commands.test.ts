// spindle.commands on the host: an extension's entries checked and trimmed as Lumiverse's handleCommandsRegister does,
// replaced whole by each register, taken away by unregister, and gone with its worker.
import { describe, expect, it } from 'vitest';
import { checkedCommands, ExtensionCommands, MAX_COMMANDS_PER_EXTENSION } from '../../../electron/core/extensions/spindle-host/commands';
import { anyCaller, callSpindle } from '../../helpers/spindle-call';

describe('extension commands', () => {
  it('keeps 20 at most, drops entries without an id or label and repeated ids, and trims each field to its limit', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ id: `c${i}`, label: `Command ${i}` }));
    expect(checkedCommands(many)).toHaveLength(MAX_COMMANDS_PER_EXTENSION);
    expect(
      checkedCommands([
        null,
        'open',
        { id: ' ', label: 'Blank id' },
        { id: 'no-label' },
        { id: 'a', label: 'L'.repeat(100), description: 'D'.repeat(300), keywords: ['k'.repeat(40), 7, ...Array.from({ length: 12 }, (_, i) => `w${i}`)], scope: 'everywhere' },
        { id: 'a', label: 'Again' },
        { id: 'x'.repeat(150), label: 'Long id', description: 5, scope: 'chat-idle' },
      ]),
    ).toEqual([
      { id: 'a', label: 'L'.repeat(80), description: 'D'.repeat(200), keywords: ['k'.repeat(30), ...Array.from({ length: 9 }, (_, i) => `w${i}`)] },
      { id: 'x'.repeat(100), label: 'Long id', description: '', scope: 'chat-idle' },
    ]);
  });

  it('register replaces the whole list, unregister takes some or all, and the card is told each time; a stopped worker takes them', async () => {
    const changed: string[] = [];
    const commands = new ExtensionCommands((id) => void changed.push(id));
    const handlers = commands.handlers();
    await callSpindle(handlers, anyCaller('notes'), 'commands.register', { args: [[{ id: 'open', label: 'Open' }, { id: 'sum', label: 'Summarize' }]] });
    await callSpindle(handlers, anyCaller('other'), 'commands.register', { args: [[{ id: 'go', label: 'Go' }]] });
    expect(commands.list('notes').map((c) => c.id)).toEqual(['open', 'sum']);
    await callSpindle(handlers, anyCaller('notes'), 'commands.register', { args: [[{ id: 'sum', label: 'Summarize' }, { id: 'tag', label: 'Tag' }]] });
    expect(commands.list('notes').map((c) => c.id)).toEqual(['sum', 'tag']);
    await callSpindle(handlers, anyCaller('notes'), 'commands.unregister', { args: [['tag', 'unknown']] });
    expect(commands.find('notes', 'sum')).toMatchObject({ label: 'Summarize' });
    expect(commands.find('notes', 'tag')).toBeNull();
    await callSpindle(handlers, anyCaller('notes'), 'commands.unregister', { args: [] });
    expect(commands.list('notes')).toEqual([]);
    commands.clear('other');
    expect(commands.list('other')).toEqual([]);
    expect(changed).toEqual(['notes', 'other', 'notes', 'notes', 'notes', 'other']);
    await expect(callSpindle(handlers, anyCaller('notes'), 'commands.register', { args: ['not a list'] })).rejects.toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });
});
