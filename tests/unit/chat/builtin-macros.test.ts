// Lumiverse's built-in macros as presets and cards write them: the primitives, time, dice and random picks, the
// conversation's lines, and the variable macros over their three scopes, run at each use (not once per turn).
import { describe, expect, it } from 'vitest';
import { builtinMacros, sessionVariables } from '../../../electron/core/chat/pipeline/builtin-macros';
import { macroDefinitions } from '../../../electron/core/chat/pipeline/macro-catalog';
import { MacroResolver } from '../../../electron/core/chat/pipeline/macros';
import { RegexSandbox } from '../../../electron/core/regex/regex-sandbox';
import type { ChatMessage } from '../../../shared/types/chat';
import { sessionDocument } from '../../helpers/session-document';

const history: ChatMessage[] = [
  { id: 'm1', role: 'user', content: 'Is the lamp lit?', createdAt: 1 },
  { id: 'm2', role: 'assistant', content: 'It is.', createdAt: 2 },
  { id: 'm3', role: 'user', content: 'Good.', createdAt: 3 },
];
const session = sessionDocument({ id: 'chat-7', messages: history, metadata: { chat_variables: { mood: 'calm', n: 2 }, macro_variables: { global: { era: 'bronze' } } } });
// Monday 30 November 2026, 12:00 UTC: the weekday is the same in every time zone within ±11 hours.
const NOON = Date.UTC(2026, 10, 30, 12, 0, 0);

function resolver(random: () => number = () => 0) {
  const variables = sessionVariables(session);
  return { variables, macros: new MacroResolver(builtinMacros({ session, history, variables, now: () => NOON, random })) };
}

describe("Lumiverse's built-in macros", () => {
  it('primitives: line breaks, spaces, comments, banned words and {{trim}} with the line breaks around it', async () => {
    const { macros } = resolver();
    expect(await macros.resolve('a{{newline}}b{{space}}c{{noop}}d')).toBe('a\nb cd');
    expect(await macros.resolve('Keep{{// a note: with :: colons}} this{{comment::hidden}}{{banned::"word"}}.')).toBe('Keep this.');
    expect(await macros.resolve('First\n\n{{trim}}\nSecond')).toBe('FirstSecond');
    expect(await macros.resolve('{{reverse::abc}}')).toBe('cba');
  });

  it('the conversation: the last lines, the count, the chat', async () => {
    const { macros } = resolver();
    expect(await macros.resolve('{{input}}|{{lastUserMessage}}|{{lastCharMessage}}|{{messageCount}}|{{lastMessageId}}|{{chatId}}|{{isGroupChat}}')).toBe('Good.|Good.|It is.|3|2|chat-7|false');
  });

  it('time from the clock it is given', async () => {
    const { macros } = resolver();
    expect(await macros.resolve('{{isotime}} {{weekday}}')).toBe('2026-11-30T12:00:00.000Z Monday');
    expect(await macros.resolve('{{isodate}}')).toMatch(/^2026-1[12]-\d\d$/);
  });

  it('dice and random picks, drawn at each use', async () => {
    const draws = [0.5, 0.99, 0, 0.99, 0, 0.5];
    const { macros } = resolver(() => draws.shift() ?? 0);
    expect(await macros.resolve('{{random::1::6}} {{random::a,b,c}}')).toBe('4 c');
    // Two rolls of the same dice are two rolls (the first die twice at 0, the second at 0.99 and 0).
    expect(await macros.resolve('{{roll::2d6}}')).toBe('7');
    expect(await macros.resolve('{{roll::2d6}}')).toBe('5');
    expect(await macros.resolve('{{roll::lots}} {{pick}}')).toBe('0 ');
  });

  it('variables: set then read in order, counted at each use, in their scopes; only a change marks a scope to keep', async () => {
    const { macros, variables } = resolver();
    expect(await macros.resolve('{{setvar::x::5}}{{getvar::x}} {{incvar::x}} {{incvar::x}} {{hasvar::x}} {{deletevar::x}}{{hasvar::x}}')).toBe('5 6 7 true false');
    expect(variables.chatChanges).toEqual(new Map());
    expect(await macros.resolve('{{getchatvar::mood}} {{getgvar::era}} {{addchatvar::n::3}}')).toBe('calm bronze 5');
    expect(variables.chatChanges).toEqual(new Map([['n', '5']]));
    expect(Object.fromEntries(variables.chat)).toEqual({ mood: 'calm', n: '5' });
    // A key that spells another macro is only a name: nothing is set through a lookup.
    expect(await macros.resolve('{{getvar::setvar::pwn::1}}{{hasvar::pwn}}')).toBe('false');
  });

  it('keeps its built-ins over an extension\'s macro of the same name, as Lumiverse\'s registry does', async () => {
    const dice = { extensionId: 'box', extensionName: 'Dice Box', name: 'newline', description: '', value: 'six' };
    const defs = macroDefinitions({ session, history, deliberation: '', councilTools: [], extensions: [dice], commit: true, signal: new AbortController().signal });
    expect(await new MacroResolver(defs).resolve('{{char}}{{newline}}')).toBe('Seraphina\n');
  });

  it('{{matches}} runs its pattern on the patterns\' thread: a match, none, an invalid one, and one that backtracks without end answers nothing at its time limit', async () => {
    const sandbox = new RegexSandbox(200);
    try {
      const variables = sessionVariables(session);
      const patterns = async (pattern: string, flags: string, text: string) => ((await sandbox.matches(pattern, flags, '', [text]))[0] ?? []).length > 0;
      const macros = new MacroResolver(builtinMacros({ session, history, variables, patterns }));
      expect(await macros.resolve('[{{matches::Hi Helena::helena::i}}][{{matches::Hi::bye}}][{{matches::x::(::}}]')).toBe('[true][][]');
      expect(await macros.resolve(`[{{matches::${'a'.repeat(40)}!::(a+)+$}}]`)).toBe('[]');
    } finally {
      await sandbox.close();
    }
  });
});
