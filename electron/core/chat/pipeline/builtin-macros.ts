// Lumiverse's built-in macros that presets and cards write, beyond the names and the council's: the core primitives
// ({{newline}}, {{trim}}, {{// comments}}…), time, dice and random picks, the conversation's last lines, and the
// variable macros over Lumiverse's three scopes (src/macros/definitions/*.ts, read for their names and answers):
// `local` lives for the turn, `chat` is the session's metadata.chat_variables (saved after a committed turn, as
// Lumiverse saves it, and shared with spindle.variables.chat), `global` is seeded from metadata.macro_variables.global.
// The comparisons and logic ({{eq}}, {{and}}…) answer "true" or nothing, for conditional blocks (scoped-blocks.ts).
import type { ChatMessage, ChatSession } from '../../../../shared/types/chat';
import { variablesAsText } from '../../../../shared/spindle/macros';
import type { MacroDefinition } from './macros';

export type VariableScope = 'local' | 'chat' | 'global';

/** A turn's macro variables; `chatChanges`: what macros set (a value) or deleted (null) of the chat's, to keep. */
export interface MacroVariables {
  local: Map<string, string>;
  chat: Map<string, string>;
  global: Map<string, string>;
  chatChanges: Map<string, string | null>;
  /** The chosen preset's multiselect prompt variables: their selected option ids ({{var::name::ison::…}}). */
  selections: Map<string, string[]>;
}

const strings = (value: unknown): Map<string, string> => new Map(Object.entries(variablesAsText(value)));

/** The variables a turn of this session starts with (Lumiverse's MacroEnv). */
export function sessionVariables(session: Pick<ChatSession, 'metadata'>): MacroVariables {
  const metadata = session.metadata ?? {};
  const macroVariables = metadata.macro_variables as { global?: unknown } | undefined;
  return { local: new Map(), chat: strings(metadata.chat_variables), global: strings(macroVariables?.global), chatChanges: new Map(), selections: new Map() };
}

/** The chosen preset's prompt variables, seeded as the turn's own before anything is expanded (as Lumiverse seeds them). */
export function seedPromptVariables(variables: MacroVariables, preset: { values: Map<string, string>; selections: Map<string, string[]> }): void {
  for (const [name, value] of preset.values) variables.local.set(name, value);
  for (const [name, ids] of preset.selections) variables.selections.set(name, ids);
}

/** {{var::name}}, or {{var::name::ison::a,b}}: whether every listed option of a multiselect variable is selected. */
function promptVariable(vars: MacroVariables, [name = '', op = '', keys = '']: string[]): string {
  if (op.trim().toLowerCase() !== 'ison') return vars.local.get(name.trim()) ?? '';
  const wanted = keys.split(',').map((k) => k.trim()).filter(Boolean);
  const selected = vars.selections.get(name.trim());
  if (wanted.length === 0) return 'true';
  return String(selected !== undefined && wanted.every((k) => selected.includes(k)));
}

const fixed = (name: string, description: string, value: string): MacroDefinition => ({ name, owner: 'built-in', description, value, resolve: () => value });
/** A macro whose answer changes between uses (time, dice, variables): run at each use, never remembered. */
const live = (name: string, description: string, resolve: (args: string[]) => string): MacroDefinition => ({ name, owner: 'built-in', description, volatile: true, resolve });

/** `{{random::a::b}}` or one comma list (`{{random::a,b,c}}`, SillyTavern's form). */
const listOf = (args: string[]): string[] => (args.length === 1 && args[0]!.includes(',') ? args[0]!.split(',').map((s) => s.trim()) : args);

function randomOf(args: string[], random: () => number): string {
  const items = listOf(args);
  if (items.length === 0) return String(Math.round(random()));
  if (items.length <= 2 && items.every((a) => a.trim() !== '' && !Number.isNaN(Number(a)))) {
    const min = parseInt(items[0]!, 10) || 0;
    const max = parseInt(items[1] ?? '1', 10) || 1;
    return max < min ? String(min) : String(Math.floor(random() * (max - min + 1)) + min);
  }
  return items[Math.floor(random() * items.length)]!;
}

function roll(notation: string | undefined, random: () => number): string {
  const match = /^(\d*)d(\d+)$/i.exec((notation || '1d6').trim());
  if (!match) return '0';
  const count = Math.min(parseInt(match[1] || '1', 10), 100);
  const sides = parseInt(match[2]!, 10);
  if (sides < 1 || count < 1) return '0';
  let total = 0;
  for (let i = 0; i < count; i++) total += Math.floor(random() * sides) + 1;
  return String(total);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A macro whose answer follows from its arguments alone (remembered per call as extensions' are). */
const pure = (name: string, description: string, resolve: (args: string[]) => string): MacroDefinition => ({ name, owner: 'built-in', description, resolve });
const yes = (holds: boolean) => (holds ? 'true' : '');
/** Lumiverse's truthiness: empty, 0, false, null, undefined, no and off are false. */
const isTruthy = (value: string) => value.trim() !== '' && !['0', 'false', 'null', 'undefined', 'no', 'off'].includes(value.trim().toLowerCase());

/** Lumiverse's comparisons: as numbers when both sides are, else as text; "true" or nothing. */
function compare(name: string, test: (order: number) => boolean): MacroDefinition {
  return pure(name, `"true" when the first ${name} the second (as numbers when both are).`, ([a = '', b = '']) => {
    const [x, y] = [a.trim(), b.trim()];
    const [nx, ny] = [parseFloat(x), parseFloat(y)];
    const order = Number.isNaN(nx) || Number.isNaN(ny) ? (x === y ? 0 : x < y ? -1 : 1) : nx === ny ? 0 : nx < ny ? -1 : 1;
    return yes(test(order));
  });
}

/** {{matches::text::pattern::flags}}: "true" when the pattern matches; an invalid or too slow pattern answers nothing, as in Lumiverse. */
function matches(test: PatternTest): MacroDefinition {
  return {
    name: 'matches',
    owner: 'built-in',
    description: '"true" when the text matches the pattern (flags as a third argument).',
    async resolve([text = '', pattern = '', flags = '']) {
      try {
        return yes(await test(pattern, flags, text));
      } catch {
        return '';
      }
    },
  };
}

const LOGIC: MacroDefinition[] = [
  compare('eq', (o) => o === 0),
  compare('ne', (o) => o !== 0),
  compare('gt', (o) => o > 0),
  compare('gte', (o) => o >= 0),
  compare('lt', (o) => o < 0),
  compare('lte', (o) => o <= 0),
  pure('and', '"true" when every argument is true.', (args) => yes(args.length > 0 && args.every(isTruthy))),
  pure('or', '"true" when any argument is true.', (args) => yes(args.some(isTruthy))),
  pure('not', '"true" when its argument is false.', ([value = '']) => yes(!isTruthy(value))),
  pure('empty', '"true" when its argument is empty.', ([value = '']) => yes(value === '')),
];

function variableMacros(vars: MacroVariables): MacroDefinition[] {
  const scopes: Array<[VariableScope, string, string]> = [
    ['local', 'var', 'this turn'],
    ['global', 'gvar', 'global'],
    ['chat', 'chatvar', "this chat's saved"],
  ];
  return scopes.flatMap(([scope, suffix, label]) => {
    const map = vars[scope];
    const set = (key: string, value: string) => {
      map.set(key, value);
      if (scope === 'chat') vars.chatChanges.set(key, value);
      return value;
    };
    const number = (key: string, parse: (s: string) => number) => parse(map.get(key) || '0') || 0;
    return [
      live(`get${suffix}`, `A ${label} variable's value.`, ([key]) => map.get((key ?? '').trim()) ?? ''),
      live(`set${suffix}`, `Sets a ${label} variable (answers nothing).`, ([key, value]) => (set((key ?? '').trim(), value ?? ''), '')),
      live(`add${suffix}`, `Adds a number to a ${label} variable; answers the sum.`, ([key, value]) => set((key ?? '').trim(), String(number((key ?? '').trim(), parseFloat) + (parseFloat(value ?? '') || 0)))),
      live(`inc${suffix}`, `Adds one to a ${label} variable; answers it.`, ([key]) => set((key ?? '').trim(), String(number((key ?? '').trim(), (s) => parseInt(s, 10)) + 1))),
      live(`dec${suffix}`, `Takes one from a ${label} variable; answers it.`, ([key]) => set((key ?? '').trim(), String(number((key ?? '').trim(), (s) => parseInt(s, 10)) - 1))),
      live(`has${suffix}`, `"true" when a ${label} variable is set.`, ([key]) => String(map.has((key ?? '').trim()))),
      live(`delete${suffix}`, `Removes a ${label} variable.`, ([key]) => {
        const name = (key ?? '').trim();
        if (map.delete(name) && scope === 'chat') vars.chatChanges.set(name, null);
        return '';
      }),
    ];
  });
}

/** Whether a pattern matches a text, run where a stranger's pattern cannot hold the host (regex-scripts.ts); throws when invalid or too slow. */
export type PatternTest = (pattern: string, flags: string, text: string) => Promise<boolean>;

export interface BuiltinSources {
  session: ChatSession;
  history: ChatMessage[];
  variables: MacroVariables;
  /** For {{matches}} (absent: it is not defined, and stays as written). */
  patterns?: PatternTest;
  now?: () => number;
  random?: () => number;
}

export function builtinMacros(sources: BuiltinSources): MacroDefinition[] {
  const { session, history } = sources;
  const now = () => new Date(sources.now?.() ?? Date.now());
  const random = sources.random ?? Math.random;
  // From the end, copying nothing: a long chat's history is 10,000 messages.
  const lastOf = (role: ChatMessage['role']) => {
    for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === role) return history[i]!.content;
    return '';
  };
  const lastUser = lastOf('user');
  return [
    fixed('space', 'A space.', ' '),
    fixed('newline', 'A line break.', '\n'),
    fixed('nl', 'A line break.', '\n'),
    fixed('noop', 'Nothing.', ''),
    fixed('trim', 'Takes the line breaks around it away (the resolver does: macros.ts).', ''),
    fixed('comment', 'A comment: nothing reaches the prompt.', ''),
    fixed('note', 'A comment: nothing reaches the prompt.', ''),
    fixed('//', 'A comment: nothing reaches the prompt.', ''),
    fixed('banned', "SillyTavern's banned words: nothing reaches the prompt.", ''),
    fixed('input', "The person's last line.", lastUser),
    fixed('lastUserMessage', "The person's last line.", lastUser),
    fixed('lastCharMessage', "The character's last reply.", lastOf('assistant')),
    fixed('lastMessageId', 'The index of the last message (-1 with none).', String(history.length - 1)),
    fixed('messageCount', 'How many messages the chat has.', String(history.length)),
    fixed('chatId', "The chat's id.", session.id),
    fixed('group', "The character's name (a chat here has one).", session.character.name),
    fixed('isGroupChat', '"false": a chat here has one character.', 'false'),
    fixed('notChar', "The persona's name.", session.persona.name),
    live('reverse', 'The text reversed.', ([text]) => [...(text ?? '')].reverse().join('')),
    live('time', 'The time now (24-hour).', () => now().toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hour12: false })),
    live('date', 'The date today.', () => now().toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' })),
    live('weekday', 'The day of the week.', () => now().toLocaleDateString('en-US', { weekday: 'long' })),
    live('isotime', 'The date and time now, ISO 8601.', () => now().toISOString()),
    live('isodate', 'The date today, YYYY-MM-DD.', () => {
      const d = now();
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    }),
    live('random', 'A whole number between two, or one of the items, at random.', (args) => randomOf(args, random)),
    live('pick', 'One of the items, at random.', (args) => {
      const items = listOf(args);
      return items.length ? items[Math.floor(random() * items.length)]! : '';
    }),
    live('roll', 'Dice in NdS notation (2d6), summed.', ([dice]) => roll(dice, random)),
    live('dice', 'Dice in NdS notation (2d6), summed.', ([dice]) => roll(dice, random)),
    ...LOGIC,
    ...(sources.patterns ? [matches(sources.patterns)] : []),
    ...variableMacros(sources.variables),
    ...['var', 'promptVar', 'presetVar'].map((name) => live(name, "The chosen preset's prompt variable (as set, else its default).", (args) => promptVariable(sources.variables, args))),
    live('hasVar', '"true" when the prompt variable is set.', ([name = '']) => String(sources.variables.local.has(name.trim()))),
  ];
}
