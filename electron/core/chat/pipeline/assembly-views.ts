// The prompt as each step of assembly left it, for the turn's breakdown: the card and history as written, then
// with the world info that fired, then with each owner's macros expanded in turn (built-ins first, then each
// extension's). Built from the values the turn's resolve already had, so no macro runs twice, and from the
// messages and entries the sent prompt kept, so each view differs from the one before only by what its step did:
// the last is the prompt as sent.
import type { ChatMessage, ChatSession, PromptReport, WorldInfoEntry } from '../../../../shared/types/chat';
import type { LlmMessage } from '../../../../shared/types/llm';
import { buildPrompt, type KeptParts, type PromptParts } from '../prompt';
import type { MacroResolver } from './macros';
import { mapTexts, textsOf, withTexts } from './prompt-texts';

export interface AssemblyView {
  stage: 'assembly' | 'world info' | 'macros' | 'regex';
  /** 'host', or the extension whose macros these are. */
  by: string;
  messages: LlmMessage[];
  note?: string;
  /** Time spent in this step (its macros, its scripts). */
  ms?: number;
}

export interface ViewsInput {
  resolver: MacroResolver;
  session: ChatSession;
  history: ChatMessage[];
  report: PromptReport;
  /** The history messages and world-info entries the sent prompt kept. */
  kept: KeptParts;
  /** The prompt as sent. */
  messages: LlmMessage[];
  blocks: Pick<PromptParts, 'deliberationBlock' | 'referenceBlock'>;
}

export async function assemblyViews(input: ViewsInput): Promise<AssemblyView[]> {
  const { resolver, report } = input;
  const owners = resolver.owners();
  const cut = report.cutMessages ? `${plural(report.cutMessages, 'oldest message')} left out to fit` : undefined;
  const nothingToShow = owners.length === 0 && report.worldInfo.length === 0;
  const views: AssemblyView[] = nothingToShow ? [{ stage: 'assembly', by: 'host', messages: input.messages, ...(cut ? { note: cut } : {}) }] : await steps(input, owners, cut);
  // The size is the whole assembly's, so it goes with its last step: a macro's longer value changes only its own.
  const last = views.at(-1)!;
  last.note = [last.note, `≈${report.total} tokens`].filter(Boolean).join('; ');
  return views;
}

async function steps(input: ViewsInput, owners: string[], cut: string | undefined): Promise<AssemblyView[]> {
  const { resolver, report } = input;
  const kept = keptPrompt(input);
  const raw = textsOf(kept.session, kept.history);
  const view = async (expanded: ReadonlySet<string>, lore: boolean) => {
    const texts = await mapTexts(raw, (text) => resolver.view(text, expanded));
    const parts = withTexts(lore ? kept.session : { ...kept.session, worldInfo: [] }, kept.history, lore ? texts : { ...texts, worldInfo: [] });
    return buildPrompt({ ...parts, ...input.blocks }).messages;
  };

  const views: AssemblyView[] = [{ stage: 'assembly', by: 'host', messages: await view(new Set(), false), ...(cut ? { note: cut } : {}) }];
  if (report.worldInfo.length) views.push({ stage: 'world info', by: 'host', messages: await view(new Set(), true), note: loreNote(report) });
  const expanded = new Set<string>();
  for (const [i, owner] of owners.entries()) {
    expanded.add(owner);
    // With every owner's macros expanded, the step is the prompt itself (a volatile macro's values, blocks decided).
    const messages = i === owners.length - 1 ? input.messages : await view(expanded, true);
    // Macros resolved only in text the prompt left out (world info that did not fire, cut messages) changed nothing.
    if (sameMessages(messages, views.at(-1)!.messages)) continue;
    const names = resolver.usedBy(owner).map((name) => `{{${name}}}`);
    views.push({ stage: 'macros', by: owner === 'built-in' ? 'host' : owner, messages, note: listed(names), ms: resolver.spent.get(owner) ?? 0 });
  }
  return views;
}

/** The history messages and world-info entries the sent prompt kept, as written, the entries made to fire as they did. */
function keptPrompt({ session, history, kept }: ViewsInput): { session: ChatSession; history: ChatMessage[] } {
  const lore: WorldInfoEntry[] = kept.worldInfo.map((i) => ({ id: session.worldInfo[i]!.id, keywords: [], content: session.worldInfo[i]!.content, enabled: true, constant: true }));
  return { session: { ...session, worldInfo: lore }, history: kept.history.map((i) => history[i]!) };
}

function sameMessages(a: LlmMessage[], b: LlmMessage[]): boolean {
  return a.length === b.length && a.every((m, i) => m.role === b[i]!.role && m.content === b[i]!.content);
}

function loreNote(report: PromptReport): string {
  const fired = report.worldInfo.filter((w) => w.included).map((w) => w.label);
  const left = report.worldInfo.length - fired.length;
  const parts = [fired.length ? `fired: ${listed(fired)}` : 'none fit'];
  if (left) parts.push(`${plural(left, 'entry', 'entries')} did not fit`);
  return parts.join('; ');
}

/** Names in a note, the first few of a long list and how many more. */
function listed(names: string[], shown = 12): string {
  return names.length > shown ? `${names.slice(0, shown).join(', ')} and ${names.length - shown} more` : names.join(', ');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
