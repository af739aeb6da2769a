// Macros in prompt text: `{{name}}` or `{{name::arg::arg}}`, names in any case, expanded in Lumiverse's order
// (macro-walk.ts; blocks and loops: scoped-blocks.ts). Built-ins from the session and the council; extension macros
// from their pushed value or their handler (in the worker, under a deadline). Unknown macros stay as written;
// expansion is bounded, so a macro that expands to itself ends. After a resolve, view() shows a text with only some
// owners' macros expanded, from the values already had: the turn's breakdown shows what each owner's macros changed
// without running any of them again.
import type { MacroVariables } from './builtin-macros';
import { hasScopes } from './scoped-blocks';
import { walk, type LoopMessage } from './macro-walk';

/** One macro the resolver knows: who owns it and how to get its value. */
export interface MacroDefinition {
  name: string;
  /** 'built-in' or the extension's name. */
  owner: string;
  description: string;
  /** The current value when it is known without running anything (built-ins, pushed values). */
  value?: string;
  /** Its answer changes between uses (time, dice, variables): run at each use, not once per turn. */
  volatile?: boolean;
  resolve(args: string[]): string | Promise<string>;
}

/**
 * Extensions' macro interceptors (macro-interceptors.ts): the template before expansion, maybe another; `origin` says
 * where the text came from (`prompt_source:character.description`…), `note` credits what went wrong to its owner.
 */
export type MacroIntercept = (template: string, origin: TextOrigin, note: (owner: string, text: string) => void) => Promise<string>;

/** What a resolve reads besides its macros: extensions' interceptors, the turn's variables, the chat's messages. */
export interface ResolveContext {
  intercept?: MacroIntercept;
  /** The variables conditional blocks' `.name`/`$name` and loops read and bind (none: empty). */
  variables?: Pick<MacroVariables, 'local' | 'global'>;
  /** The messages {{foreachMessage}} goes through, oldest first (read when a loop first asks). */
  messages?: () => readonly LoopMessage[];
}

/** Where a text comes from: the source hint Lumiverse gives interceptors, and whether it is the chat's own text. */
export interface TextOrigin {
  hint?: string;
  /** A message of the chat, or text taken from one (regex captures): only for those who may read chat text. */
  chatText: boolean;
}

/** What a resolve is not told otherwise: chat text, which only those who may read it see. */
const CHAT_TEXT: TextOrigin = { chatText: true };

export interface MacroLimits {
  /** Rounds of expansion (a value holding macros is expanded again, up to this many times). */
  maxPasses: number;
  /** Macro replacements and loop turns in one resolve, across all rounds. */
  maxExpansions: number;
  /** Characters of text; growth past this stops expansion. */
  maxChars: number;
}

/** Something that went wrong while resolving, and whose macro it was ('host' for the resolver's own limits). */
export interface MacroNote {
  owner: string;
  text: string;
}

/** Lumiverse's own bound on one evaluation is 10,000 macro resolutions (MacroEvaluator.ts). */
export const MACRO_LIMITS: MacroLimits = { maxPasses: 8, maxExpansions: 10_000, maxChars: 2_000_000 };

/** ST's and Lumiverse's {{trim}}: the marker goes, with the line breaks around it. */
export const withoutTrimMarkers = (text: string): string => (text.includes('{{') ? text.replace(/(?:\r?\n)*\{\{trim\}\}(?:\r?\n)*/gi, '') : text);

/** A macro with no braces inside it: an innermost call, whose arguments are as written. */
const MACRO = /\{\{([^{}]*)\}\}/g;

export class MacroResolver {
  private readonly byName = new Map<string, MacroDefinition>();
  /** One value per macro call per turn (a handler runs once however often the text uses it); a volatile one's latest. */
  private readonly memo = new Map<string, Promise<string | null>>();
  readonly notes: MacroNote[] = [];
  /** Lower-cased names of the macros that resolved at least once. */
  readonly used = new Set<string>();
  /** Milliseconds spent in each owner's macros (handlers of one owner may run side by side). */
  readonly spent = new Map<string, number>();
  private readonly shorthands = new Map<string, MacroDefinition>();
  private readonly intercept: MacroIntercept | undefined;
  private readonly variables: Pick<MacroVariables, 'local' | 'global'>;
  /** The last of the texts resolved in order (resolve). */
  private inOrder: Promise<unknown> = Promise.resolve();

  constructor(
    definitions: MacroDefinition[],
    private readonly limits: MacroLimits = MACRO_LIMITS,
    private readonly now: () => number = () => performance.now(),
    private readonly context: ResolveContext = {},
  ) {
    this.intercept = context.intercept;
    this.variables = context.variables ?? { local: new Map(), global: new Map() };
    // Built-ins first: an extension cannot replace {{char}}.
    for (const def of definitions) if (!this.byName.has(def.name.toLowerCase())) this.byName.set(def.name.toLowerCase(), def);
  }

  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  /**
   * A text's macros expanded. Texts whose macros keep or read state (variables, dice, time), decide blocks or loops, or
   * go to extensions' interceptors are resolved one after another in the order they were asked for — the prompt's
   * order, as Lumiverse walks it — so a {{setvar}} in one is seen by the next; the others side by side. Their innermost
   * calls that are remembered per turn start at once (prefetch), so extensions' handlers do not wait on one another.
   */
  resolve(text: string, origin: TextOrigin = CHAT_TEXT): Promise<string> {
    if (!text.includes('{{')) return Promise.resolve(text);
    const scoped = hasScopes(text);
    // Not before interceptors (they may rewrite the calls) nor in blocks or loops (a branch not taken runs nothing).
    if (!this.intercept && !scoped) this.prefetch(text);
    if (!this.intercept && !scoped && !this.callsVolatile(text)) return this.resolveNow(text, origin);
    const run = this.inOrder.then(() => this.resolveNow(text, origin));
    this.inOrder = run.catch(() => undefined);
    return run;
  }

  private async resolveNow(text: string, origin: TextOrigin): Promise<string> {
    let template = withoutTrimMarkers(text);
    if (this.intercept) template = withoutTrimMarkers(await this.intercept(template, origin, (owner, message) => this.note(owner, message)));
    return this.expand(template, (inner) => this.lookup(inner) !== undefined, (inner) => this.take(inner), true);
  }

  /**
   * The text with only `owners`' macros expanded, each to the value resolve() gave it; nothing runs. A volatile
   * macro shows its latest value, and blocks stay as written: the breakdown's last step is the prompt as sent itself.
   */
  view(text: string, owners: ReadonlySet<string>): Promise<string> {
    if (!text.includes('{{')) return Promise.resolve(text);
    const known = (inner: string) => {
      const def = this.lookup(inner);
      return def !== undefined && owners.has(def.owner) && this.memo.has(inner);
    };
    return this.expand(withoutTrimMarkers(text), known, (inner) => this.memo.get(inner)!, false);
  }

  /** The owners whose macros resolved, in the order their macros are defined (built-ins first). */
  owners(): string[] {
    const owners: string[] = [];
    for (const def of this.byName.values()) if (this.used.has(def.name.toLowerCase()) && !owners.includes(def.owner)) owners.push(def.owner);
    return owners;
  }

  /** The names, as defined, of `owner`'s macros that resolved. */
  usedBy(owner: string): string[] {
    return [...this.byName.values()].filter((d) => d.owner === owner && this.used.has(d.name.toLowerCase())).map((d) => d.name);
  }

  /**
   * Expands the macros `known` says are its to expand, in Lumiverse's order (macro-walk.ts), within the limits;
   * `valueOf` is asked only for the ones that will be replaced (a handler never runs for a value the limits throw away).
   */
  private expand(text: string, known: (inner: string) => boolean, valueOf: (inner: string) => Promise<string | null>, resolving: boolean): Promise<string> {
    const note = (message: string) => resolving && this.note('host', message);
    return walk(text, { known, valueOf, blocks: resolving, variables: this.variables, messages: this.context.messages ?? (() => []), limits: this.limits, note, nameOf });
  }

  /**
   * Starts the values of a text's innermost calls side by side before the walk asks for them in order, so extensions'
   * handlers (a worker's round trip each) do not wait on one another: only calls that are remembered per turn (never a
   * volatile one), in a text with no conditional block (a branch not taken runs nothing), and only when all fit the budget.
   */
  private prefetch(text: string): void {
    const calls = [...text.matchAll(MACRO)].map((m) => m[1]!).filter((inner) => {
      const def = this.lookup(inner);
      return def !== undefined && !def.volatile;
    });
    if (calls.length === 0 || calls.length > this.limits.maxExpansions) return;
    for (const inner of new Set(calls)) void this.value(inner);
  }

  /** A call's value as the walk takes it: the macro counts as used (a prefetched value the walk never took does not). */
  private async take(inner: string): Promise<string | null> {
    const value = await this.value(inner);
    if (value !== null) this.used.add(this.lookup(inner)!.name.toLowerCase());
    return value;
  }

  private value(inner: string): Promise<string | null> {
    const def = this.lookup(inner)!;
    let memo = def.volatile ? undefined : this.memo.get(inner);
    if (!memo) {
      const [, ...args] = inner.split('::');
      const started = this.now();
      memo = Promise.resolve()
        .then(() => def.resolve(args.map((a) => a.trim())))
        .then((value) => String(value))
        .catch((err: unknown) => {
          this.note(def.owner, `{{${def.name}}} (${def.owner}) failed: ${err instanceof Error ? err.message : String(err)}; left as written.`);
          return null;
        })
        .finally(() => this.spent.set(def.owner, (this.spent.get(def.owner) ?? 0) + this.now() - started));
      this.memo.set(inner, memo);
    }
    return memo;
  }

  /** Whether the text calls a macro that keeps or reads state, at any depth (`{{getvar::{{key}}}}` calls getvar). */
  private callsVolatile(text: string): boolean {
    return [...text.matchAll(/\{\{\s*([^{}:]*)/g)].some((m) => this.lookup(m[1]!)?.volatile === true);
  }

  /** The macro a call names: a defined one, or Lumiverse's variable shorthand (`{{.name}}` the turn's, `{{$name}}` global). */
  private lookup(inner: string): MacroDefinition | undefined {
    const own = this.byName.get(nameOf(inner));
    const raw = (inner.split('::')[0] ?? '').trim();
    if (own || !/^[.$][A-Za-z_][\w-]*$/.test(raw)) return own;
    let short = this.shorthands.get(raw);
    if (!short) {
      const scope = raw.startsWith('.') ? this.variables.local : this.variables.global;
      short = { name: raw, owner: 'built-in', description: `The variable ${raw.slice(1)}.`, volatile: true, resolve: () => scope.get(raw.slice(1)) ?? '' };
      this.shorthands.set(raw, short);
    }
    return short;
  }

  private note(owner: string, text: string): void {
    if (!this.notes.some((n) => n.text === text)) this.notes.push({ owner, text });
  }
}

/** A macro's name, in any case; `{{// a comment}}` is the comment macro whatever follows the slashes. */
function nameOf(inner: string): string {
  const name = (inner.split('::')[0] ?? '').trim().toLowerCase();
  return name.startsWith('//') ? '//' : name;
}
