// Macros expanded in the order Lumiverse's MacroEvaluator expands them: left to right, a macro's arguments before the
// macro (depth first), so `{{setvar::r::{{random::1::9}}}} rolled {{getvar::r}}` reads what it set; a conditional
// block decided when it is reached and only the branch taken expanded; a value that holds macros expanded again, up
// to the rounds' limit. One budget counts a whole resolve: its replacements and the characters it writes.
import type { MacroVariables } from './builtin-macros';
import type { MacroLimits } from './macros';
import { blockOf, conditionHolds, isBlockOpener, takenBranch, tagAt } from './scoped-blocks';

export interface WalkRules {
  /** Whether a call (its arguments already expanded) is one to replace. */
  known(inner: string): boolean;
  /** Its value; null leaves it as written. */
  valueOf(inner: string): Promise<string | null>;
  /** Decide conditional blocks (a resolve); false leaves their tags as written and walks inside them (a view). */
  blocks: boolean;
  variables: Pick<MacroVariables, 'local' | 'global'>;
  limits: MacroLimits;
  /** A limit was met (said once per text by the caller's notes). */
  note(text: string): void;
  /** The name a call goes by, for notes. */
  nameOf(inner: string): string;
}

interface Budget {
  expansions: number;
  stopped: boolean;
}

export function walk(text: string, rules: WalkRules): Promise<string> {
  return walkText(text, rules, { expansions: 0, stopped: false }, 0);
}

async function walkText(text: string, rules: WalkRules, budget: Budget, round: number): Promise<string> {
  if (!text.includes('{{')) return text;
  const { limits } = rules;
  const holds = async (condition: string) => conditionHolds(await walkText(condition, rules, budget, round), rules.variables);
  let out = '';
  let pos = 0;
  while (pos < text.length) {
    const start = text.indexOf('{{', pos);
    const tag = start < 0 || budget.stopped ? null : tagAt(text, start);
    if (!tag) return out + text.slice(pos);
    out += text.slice(pos, start);
    let piece: string;
    let end = tag.end;
    if (rules.blocks && isBlockOpener(tag)) {
      const block = blockOf(text, tag);
      // An {{if}}/{{unless}} with no closing tag answers whether its condition holds.
      if (!block) piece = (await holds(tag.condition)) === (tag.name === 'if') ? 'true' : '';
      else {
        piece = await walkText(await takenBranch(tag, block.branches, holds), rules, budget, round);
        end = block.end;
      }
    } else {
      const raw = text.slice(start + 2, tag.end - 2);
      const inner = raw.includes('{{') ? await walkText(raw, rules, budget, round) : raw;
      piece = await expandCall(inner, rules, budget, round);
    }
    if (out.length + piece.length > limits.maxChars) {
      rules.note(`Macro expansion stopped: the text would grow past ${limits.maxChars} characters.`);
      budget.stopped = true;
      return out + text.slice(start);
    }
    out += piece;
    pos = end;
  }
  return out;
}

/** One call whose arguments are expanded: its value (expanded again while it holds macros), or the call as written. */
async function expandCall(inner: string, rules: WalkRules, budget: Budget, round: number): Promise<string> {
  const asWritten = `{{${inner}}}`;
  if (budget.stopped || !rules.known(inner)) return asWritten;
  if (++budget.expansions > rules.limits.maxExpansions) {
    rules.note(`Macro expansion stopped after ${rules.limits.maxExpansions} replacements; the rest stays as written.`);
    budget.stopped = true;
    return asWritten;
  }
  const value = await rules.valueOf(inner);
  if (value === null) return asWritten;
  if (!value.includes('{{')) return value;
  if (round >= rules.limits.maxPasses) {
    rules.note(`Macros still expanding after ${rules.limits.maxPasses} rounds ({{${rules.nameOf(inner)}}}: a macro that expands to itself?); the rest stays as written.`);
    return value;
  }
  return walkText(value, rules, budget, round + 1);
}
