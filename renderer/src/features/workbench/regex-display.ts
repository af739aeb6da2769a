// The regex scripts in the window, read once for all of it (the Regex scripts view lists them from here too). It knows
// which scripts exist, so a chat no display script (and no extension's render processor) applies to asks the host
// nothing and draws at once; otherwise each shown message's text goes through them on the host (their patterns run there, under a time limit), asked for in one
// batch per render and kept until a script changes.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import { DISPLAY_BATCH } from '../../../../shared/contract/regex';
import type { HostApi } from '../../../../shared/host-api';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useHost } from '../../app/context';

type Script = MethodOutput<'regex.list'>['scripts'][number];
type Role = 'user' | 'assistant';
interface Ask {
  key: string;
  item: { text: string; role: Role; depth: number; messageId?: string };
}

/** Texts kept across renders (a long chat scrolled back and forth asks again only past this; a streaming reply adds one a batch). */
const KEPT = 500;

/**
 * Whether a script is for this session: global, its chat's own, its character's (a session is its own character; a
 * branch is its line's origin's, `characterId`), or the own script of the chats' preset.
 */
export const appliesTo = (s: Pick<Script, 'scope' | 'scope_id'>, sessionId: string, presetId: string, characterId = sessionId) =>
  s.scope === 'global' || s.scope_id === (s.scope === 'preset' ? presetId : s.scope === 'character' ? characterId : sessionId);

/** The open session's character: its line's origin when it is a branch (the window's answer names it), else itself. */
export const useCharacterOf = (sessionId: string): string => useAppStore((s) => (s.chat.openId === sessionId ? s.chat.openOrigin : null)) ?? sessionId;

export class RegexDisplay {
  private scripts: Script[] = [];
  /** Extensions' message content processors a shown message goes through (their render pass, on the host). */
  private processors = 0;
  private revision = -1;
  private listError: HostError | null = null;
  private readonly kept = new Map<string, string>();
  /** The chats' preset, whose own scripts apply too. */
  private presetId = '';
  private readonly asked = new Set<string>();
  private readonly queue = new Map<string, Ask[]>();
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private loading: Promise<void> | null = null;
  /** The newest revision the host has told of (an event, or a display answer): the scripts are read until they reach it. */
  private newest = -1;

  constructor(private readonly host: HostApi) {
    host.onEvent((event) => {
      if (event.type !== 'regex.changed') return;
      this.newest = Math.max(this.newest, event.revision);
      if (event.revision !== this.revision) void this.load();
    });
    void this.load();
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = () => this.version;

  /** Every script, in the order they run (null until first read), and why the last read failed, if it did. */
  listed(): { scripts: Script[] | null; error: HostError | null } {
    return { scripts: this.revision < 0 ? null : this.scripts, error: this.listError };
  }

  /** Whether any enabled display script, or an extension's render processor, could change this session's messages. */
  applies(sessionId: string, characterId = sessionId): boolean {
    return this.processors > 0 || this.scripts.some((s) => !s.disabled && !s.slow && s.target.includes('display') && appliesTo(s, sessionId, this.presetId, characterId));
  }

  /** The chats' preset now: another one forgets what was shown through the last one's scripts. */
  followPreset(presetId: string): void {
    if (presetId === this.presetId) return;
    this.presetId = presetId;
    this.kept.clear();
  }

  /** The text as shown, once the host has said; undefined until then. */
  shown(sessionId: string, text: string, role: Role, depth: number): string | undefined {
    return this.kept.get(keyOf(this.revision, sessionId, text, role, depth));
  }

  /** Asks for the text as shown (batched with the other messages asked in this render); `messageId` for processors. */
  ask(sessionId: string, text: string, role: Role, depth: number, messageId?: string): void {
    const key = keyOf(this.revision, sessionId, text, role, depth);
    if (this.kept.has(key) || this.asked.has(key)) return;
    this.asked.add(key);
    const first = this.queue.size === 0;
    this.queue.set(sessionId, [...(this.queue.get(sessionId) ?? []), { key, item: { text, role, depth, ...(messageId ? { messageId } : {}) } }]);
    if (first) queueMicrotask(() => void this.flush());
  }

  /** Reads the scripts again, one read at a time, until the read has the newest revision told of (a change may come during one). */
  private load(): Promise<void> {
    this.loading ??= this.host.invoke('regex.list', {}).then((result) => {
      this.loading = null;
      if (!result.ok) {
        this.listError = result.error;
        this.changed();
        return;
      }
      this.listError = null;
      const moved = result.value.revision !== this.revision;
      if (moved) {
        this.scripts = result.value.scripts;
        this.processors = result.value.processors;
        this.revision = result.value.revision;
        this.kept.clear();
        this.asked.clear();
        this.changed();
      }
      // Read again while a newer revision was told of and reads still move (a restarted host counts from 0 again).
      if (moved && this.newest > this.revision) return this.load();
      this.newest = this.revision;
    });
    return this.loading;
  }

  private async flush(): Promise<void> {
    const batches = [...this.queue];
    this.queue.clear();
    let stale = false;
    for (const [sessionId, asks] of batches) {
      for (let at = 0; at < asks.length; at += DISPLAY_BATCH) {
        const part = asks.slice(at, at + DISPLAY_BATCH);
        const result = await this.host.invoke('regex.display', { sessionId, items: part.map((a) => a.item) });
        for (const a of part) this.asked.delete(a.key);
        // A refused pass (the chat deleted meanwhile) shows the text as written, and is not asked again and again.
        if (!result.ok) part.forEach((a) => this.keep(a.key, a.item.text));
        else if (result.value.revision === this.revision) part.forEach((a, i) => this.keep(a.key, result.value.texts[i]!));
        // Worked out under scripts this window has not read yet: it reads them, and then asks again (not before).
        else {
          stale = true;
          this.newest = Math.max(this.newest, result.value.revision);
        }
      }
    }
    if (stale) await this.load();
    else this.changed();
  }

  private keep(key: string, text: string): void {
    this.kept.set(key, text);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

const keyOf = (revision: number, sessionId: string, text: string, role: Role, depth: number) => `${revision}\u0000${sessionId}\u0000${role}\u0000${depth}\u0000${text}`;

const displays = new WeakMap<HostApi, RegexDisplay>();
function displayFor(host: HostApi): RegexDisplay {
  let display = displays.get(host);
  if (!display) displays.set(host, (display = new RegexDisplay(host)));
  return display;
}

/** The window's scripts (null until read) and why reading them failed; the component redraws as they change. */
export function useRegexScripts(): { scripts: Script[] | null; error: HostError | null } {
  const display = displayFor(useHost());
  useSyncExternalStore(display.subscribe, display.snapshot);
  return display.listed();
}

/**
 * `text` as the window shows it: through the display scripts when any applies. Until the host answers, the last text
 * shown for this message stays (a streaming reply's newest words arrive a moment later), or the text itself.
 */
export function useDisplayText(sessionId: string, text: string, role: Role, depth: number, messageId?: string): string {
  const display = displayFor(useHost());
  useSyncExternalStore(display.subscribe, display.snapshot);
  display.followPreset(useAppStore((s) => s.settings?.chat?.presetId ?? ''));
  const applies = display.applies(sessionId, useCharacterOf(sessionId));
  const shown = applies ? display.shown(sessionId, text, role, depth) : text;
  const last = useRef<string | null>(null);
  useEffect(() => {
    if (applies && shown === undefined) display.ask(sessionId, text, role, depth, messageId);
  });
  if (shown !== undefined) last.current = shown;
  return shown ?? last.current ?? text;
}
