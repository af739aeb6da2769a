// Macros expanded in the order Lumiverse's MacroEvaluator expands them: left to right, a macro's arguments before the
// macro (depth first), so `{{setvar::r::{{random::1::9}}}} rolled {{getvar::r}}` reads what it set; a conditional
// block decided when it is reached and only the branch taken expanded; a value that holds macros expanded again, up
// to the rounds' limit; `{{foreachMessage}}…{{/foreachMessage}}` walks its body once a message. A card or a world-info
// entry is a stranger's text, so one budget bounds a whole resolve: replacements and loop turns (Lumiverse's 10,000),
// the characters written, the characters its tag scans read, and how deep calls nest.
import type { MacroVariables } from './builtin-macros';
import type { MacroLimits } from './macros';
import { blockOf, conditionHolds, isBlockOpener, scopeOf, takenBranch, tagAt, type Meter, type Tag } from './scoped-blocks';

/** A message {{foreachMessage}} binds. */
export interface LoopMessage {
  content: string;
  name: string;
  isUser: boolean;
}

/** Lumiverse's cap on a loop's items (list-utils.ts). */
const MAX_LOOP_ITEMS = 1000;
/** Calls nested deeper than this stay as written. */
const MAX_DEPTH = 64;
/** The tag scans of one resolve read at most this many times the longest text allowed. */
const SCAN_FACTOR = 10;
/** Tags that only mean something inside a block: alone, they answer nothing (Lumiverse drops them too). */
const STRAY = new Set(['else', 'elseif', 'elif']);
const SCOPES = new Set(['if', 'unless', 'foreachmessage', 'for_each_message']);

export interface WalkRules {
  /** Whether a call (its arguments already expanded) is one to replace. */
  known(inner: string): boolean;
  /** Its value; null leaves it as written. */
  valueOf(inner: string): Promise<string | null>;
  /** Decide conditional blocks and run loops (a resolve); false leaves their tags as written and walks inside them (a view). */
  blocks: boolean;
  variables: Pick<MacroVariables, 'local' | 'global'>;
  /** The chat's messages, oldest first, for {{foreachMessage}}. */
  messages: () => readonly LoopMessage[];
  limits: MacroLimits;
  /** A limit was met. */
  note(text: string): void;
  /** The name a call goes by, for notes. */
  nameOf(inner: string): string;
}

interface Budget extends Meter {
  expansions: number;
  stopped: boolean;
}

export function walk(text: string, rules: WalkRules): Promise<string> {
  return walkText(text, rules, { expansions: 0, chars: 0, stopped: false }, 0, 0);
}

/** Spends one replacement or loop turn; false (and the walk stops, with a note) past the limits. */
function spend(rules: WalkRules, budget: Budget): boolean {
  if (budget.stopped || overRead(rules, budget)) return false;
  if (++budget.expansions <= rules.limits.maxExpansions) return true;
  rules.note(`Macro expansion stopped after ${rules.limits.maxExpansions} replacements; the rest stays as written.`);
  budget.stopped = true;
  return false;
}

/** Whether the tag scans have read past their share (unclosed or deeply nested tags would make a text quadratic). */
function overRead(rules: WalkRules, budget: Budget): boolean {
  if (budget.chars <= rules.limits.maxChars * SCAN_FACTOR) return false;
  if (!budget.stopped) rules.note('Macro expansion stopped: the text is too costly to read for its macros; the rest stays as written.');
  budget.stopped = true;
  return true;
}

async function walkText(text: string, rules: WalkRules, budget: Budget, round: number, depth: number): Promise<string> {
  if (!text.includes('{{')) return text;
  if (depth > MAX_DEPTH) {
    rules.note(`Macros nested more than ${MAX_DEPTH} deep stay as written.`);
    return text;
  }
  const holds = async (condition: string) => conditionHolds(await walkText(condition, rules, budget, round, depth + 1), rules.variables);
  let out = '';
  let pos = 0;
  while (pos < text.length) {
    const start = text.indexOf('{{', pos);
    if (start < 0 || budget.stopped) return out + text.slice(pos);
    const tag = tagAt(text, start, budget);
    out += text.slice(pos, start);
    if (overRead(rules, budget)) return out + text.slice(start);
    // An opening brace pair that never closes is text, as are the ones after it until one does.
    if (!tag) {
      out += '{{';
      pos = start + 2;
      continue;
    }
    let piece: string;
    let end = tag.end;
    if (rules.blocks && (tag.name === 'foreachmessage' || tag.name === 'for_each_message') && !tag.closing) {
      const scope = scopeOf(text, tag, budget);
      piece = scope ? await eachMessage(tag, scope.body, rules, budget, round, depth) : '';
      end = scope?.end ?? tag.end;
    } else if (rules.blocks && isBlockOpener(tag)) {
      const block = blockOf(text, tag, budget);
      // An {{if}}/{{unless}} with no closing tag answers whether its condition holds.
      if (!block) piece = (await holds(tag.condition)) === (tag.name === 'if') ? 'true' : '';
      else {
        piece = await walkText(await takenBranch(tag, block.branches, holds), rules, budget, round, depth);
        end = block.end;
      }
    } else if (rules.blocks && ((tag.closing && SCOPES.has(tag.name)) || (!tag.closing && STRAY.has(tag.name)))) {
      piece = '';
    } else {
      const raw = text.slice(start + 2, tag.end - 2);
      const inner = raw.includes('{{') ? await walkText(raw, rules, budget, round, depth + 1) : raw;
      piece = await expandCall(inner, rules, budget, round, depth);
    }
    if (out.length + piece.length > rules.limits.maxChars) {
      rules.note(`Macro expansion stopped: the text would grow past ${rules.limits.maxChars} characters.`);
      budget.stopped = true;
      return out + text.slice(start);
    }
    out += piece;
    pos = end;
  }
  return out;
}

/**
 * `{{foreachMessage}}`, `{{foreachMessage::5}}`, `{{foreachMessage::m}}`, `{{foreachMessage::5::m}}`: the body once for each
 * of the last N messages (all; at most 1,000), with `.m` its text and `.m_name`, `.m_is_user`, `.m_index`, `.m_number`,
 * `.m_count`, `.m_first`, `.m_last` bound (`msg` by default), as Lumiverse's iteration macros bind them; the names it
 * bound are as they were after. Each turn of the loop is spent from the budget.
 */
async function eachMessage(open: Tag, body: string, rules: WalkRules, budget: Budget, round: number, depth: number): Promise<string> {
  const args = (await walkText(open.condition, rules, budget, round, depth + 1)).split('::').map((a) => a.trim());
  const counted = /^\d+$/.test(args[0] ?? '');
  const count = counted ? parseInt(args[0]!, 10) : 0;
  const name = (counted ? args[1] : args[0]) || 'msg';
  const all = rules.messages();
  const messages = all.slice(-Math.min(count > 0 ? count : all.length, MAX_LOOP_ITEMS));
  const local = rules.variables.local;
  const keys = ['', '_name', '_is_user', '_index', '_number', '_count', '_first', '_last'].map((suffix) => `${name}${suffix}`);
  const saved = new Map(keys.map((key) => [key, local.get(key)]));
  let out = '';
  try {
    for (const [i, m] of messages.entries()) {
      if (!spend(rules, budget)) break;
      const values = [m.content, m.name, m.isUser ? 'true' : '', String(i), String(i + 1), String(messages.length), i === 0 ? 'true' : '', i === messages.length - 1 ? 'true' : ''];
      keys.forEach((key, k) => local.set(key, values[k]!));
      out += await walkText(body, rules, budget, round, depth + 1);
      if (out.length > rules.limits.maxChars) break;
    }
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) local.delete(key);
      else local.set(key, value);
    }
  }
  return out;
}

/** One call whose arguments are expanded: its value (expanded again while it holds macros), or the call as written. */
async function expandCall(inner: string, rules: WalkRules, budget: Budget, round: number, depth: number): Promise<string> {
  const asWritten = `{{${inner}}}`;
  if (!rules.known(inner) || !spend(rules, budget)) return asWritten;
  const value = await rules.valueOf(inner);
  if (value === null) return asWritten;
  if (!value.includes('{{')) return value;
  if (round >= rules.limits.maxPasses) {
    rules.note(`Macros still expanding after ${rules.limits.maxPasses} rounds ({{${rules.nameOf(inner)}}}: a macro that expands to itself?); the rest stays as written.`);
    return value;
  }
  return walkText(value, rules, budget, round + 1, depth);
}
