// The regex scripts at work: the store, the thread their patterns run on, and the one call the chat makes at each of
// Lumiverse's three targets — prompt (each message as it goes to the model, nothing stored changes), response (the
// finished reply, as stored) and display (the text the window shows, nothing stored changes).
import type { Db } from '../db/chat-db';
import type { Clock } from '../ports';
import { applyRegexScripts, type RegexApplyOptions, type RegexRun, type RegexText } from './regex-apply';
import { RegexSandbox } from './regex-sandbox';
import type { RegexPlacement, RegexScript, RegexTarget } from '../../../shared/types/regex-script';
import { RegexStore } from './regex-store';

export class RegexScripts {
  readonly store: RegexStore;
  private readonly sandbox: RegexSandbox;
  /**
   * Scripts whose time ran out, by id, with the pattern that did: passed over from then on, so one hostile pattern
   * costs one time limit rather than one per message drawn, until its pattern is changed.
   */
  private readonly tooSlow = new Map<string, string>();

  constructor(
    db: Db,
    clock: Clock,
    committed?: () => void,
    passTimeoutMs?: number,
    /** The chats' preset now (settings.chat.presetId): its own scripts are at work too. */
    private readonly presetId: () => string | null = () => null,
    /** The character a chat belongs to: a branch's is its line's origin (util/branch-root.ts), as in Lumiverse. */
    private readonly characterOf: (chatId: string) => string = (chatId) => chatId,
  ) {
    this.store = new RegexStore(db, clock, committed);
    this.sandbox = new RegexSandbox(passTimeoutMs);
  }

  /** The texts after `target`'s active scripts for a chat; null when none applies. */
  apply(target: RegexTarget, chatId: string, items: readonly RegexText[], options: RegexApplyOptions = {}): Promise<RegexRun | null> {
    return this.run(this.activeIn(target, chatId), items, options);
  }

  /**
   * An edited message's text after the response scripts that run on edits (Lumiverse's run_on_edit; no macros, depth
   * 0). `mayAddMacros`: which scripts may write a macro into it (it is kept).
   */
  async onEdit(chatId: string, role: string, text: string, mayAddMacros: (script: RegexScript) => boolean): Promise<string> {
    const scripts = this.activeIn('response', chatId).filter((s) => s.run_on_edit);
    return (await this.run(scripts, [{ text, placement: placementOf(role), depth: 0 }], { mayAddMacros }))?.texts[0] ?? text;
  }

  /**
   * Whether a pattern matches a text ({{matches}}), on the patterns' thread under its time limit, as a script's would:
   * an invalid pattern or one that runs out of time is an error (RegexPassFailure).
   */
  async test(pattern: string, flags: string, text: string): Promise<boolean> {
    const [found] = await this.sandbox.matches(pattern, flags.replace(/[gy]/g, ''), '', [text]);
    return (found?.length ?? 0) > 0;
  }

  /** Whether `script` is passed over for having run past its time (until its pattern is changed). */
  isSlow(script: RegexScript): boolean {
    return this.tooSlow.get(script.id) === patternOf(script);
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }

  /** `target`'s active scripts for a chat: its own, its character's (its line's origin), its preset's and the global ones. */
  private activeIn(target: RegexTarget, chatId: string): RegexScript[] {
    const presetId = this.presetId();
    return this.store.active(target, { chatId, characterId: this.characterOf(chatId), ...(presetId ? { presetId } : {}) });
  }

  private async run(active: RegexScript[], items: readonly RegexText[], options: RegexApplyOptions): Promise<RegexRun | null> {
    if (active.length === 0 || items.length === 0) return null;
    const slow = active.filter((s) => this.isSlow(s));
    const run = await applyRegexScripts(this.sandbox, active.filter((s) => !this.isSlow(s)), items, options);
    const timedOut = run.failed.filter((f) => f.timedOut).map((f) => f.script);
    for (const script of timedOut) this.tooSlow.set(script.id, patternOf(script));
    // What the window shows through them changed: it asks again, and the Regex scripts view says which is skipped.
    if (timedOut.length) this.store.skipped(timedOut);
    run.failed.push(...slow.map((script) => ({ script, reason: 'it ran past its time limit before; it runs again once its pattern is changed' })));
    return run;
  }
}

/** What a pass of the script runs: a change to any of it may end differently. */
const patternOf = (s: RegexScript) => JSON.stringify([s.find_regex, s.flags, s.substitute_macros, s.replace_string, s.trim_strings]);

/** A message's placement: the person's words, or the model's. */
export const placementOf = (role: string): RegexPlacement => (role === 'user' ? 'user_input' : 'ai_output');

/** A run's failures in a sentence each (the turn's trace and the log say them). */
export function runNotes(run: RegexRun | null): string[] {
  return (run?.failed ?? []).map(({ script, reason }) => `regex script "${script.name}" was skipped: ${reason}`);
}
