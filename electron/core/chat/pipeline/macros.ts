// Macros in prompt text: `{{name}}` or `{{name::arg::arg}}`, innermost first, names in any case. Built-ins from the
// session and the council; extension macros from their pushed value or their handler (in the worker, under a
// deadline). Unknown macros stay as written; expansion is bounded, so a macro that expands to itself ends.

/** One macro the resolver knows: who owns it and how to get its value. */
export interface MacroDefinition {
  name: string;
  /** 'built-in' or the extension's name. */
  owner: string;
  description: string;
  /** The current value when it is known without running anything (built-ins, pushed values). */
  value?: string;
  resolve(args: string[]): string | Promise<string>;
}

export interface MacroLimits {
  /** Rounds of expansion (a value holding macros is expanded again, up to this many times). */
  maxPasses: number;
  /** Macro replacements in one resolve, across all rounds. */
  maxExpansions: number;
  /** Characters of text; growth past this stops expansion. */
  maxChars: number;
}

export const MACRO_LIMITS: MacroLimits = { maxPasses: 8, maxExpansions: 2000, maxChars: 2_000_000 };

/** A macro with no braces inside it: the innermost ones are expanded first. */
const MACRO = /\{\{([^{}]*)\}\}/g;

export class MacroResolver {
  private readonly byName = new Map<string, MacroDefinition>();
  /** One value per macro call per turn: a handler runs once however often the text uses it. */
  private readonly memo = new Map<string, Promise<string | null>>();
  readonly notes: string[] = [];
  /** Lower-cased names of the macros that resolved at least once. */
  readonly used = new Set<string>();

  constructor(
    definitions: MacroDefinition[],
    private readonly limits: MacroLimits = MACRO_LIMITS,
  ) {
    // Built-ins first: an extension cannot replace {{char}}.
    for (const def of definitions) if (!this.byName.has(def.name.toLowerCase())) this.byName.set(def.name.toLowerCase(), def);
  }

  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  async resolve(text: string): Promise<string> {
    if (!text.includes('{{')) return text;
    let current = text;
    let expansions = 0;
    for (let pass = 0; pass < this.limits.maxPasses; pass++) {
      const found = [...current.matchAll(MACRO)].filter((m) => this.byName.has(nameOf(m[1]!)));
      if (found.length === 0) return current;
      expansions += found.length;
      if (expansions > this.limits.maxExpansions) {
        this.note(`Macro expansion stopped after ${this.limits.maxExpansions} replacements; the rest stays as written.`);
        return current;
      }
      const values = await Promise.all(found.map((m) => this.value(m[1]!)));
      let index = 0;
      const next = current.replace(MACRO, (whole, inner: string) => {
        if (!this.byName.has(nameOf(inner))) return whole;
        const value = values[index++];
        return value ?? whole;
      });
      if (next === current) return current;
      if (next.length > this.limits.maxChars) {
        this.note(`Macro expansion stopped: the text would grow past ${this.limits.maxChars} characters.`);
        return current;
      }
      current = next;
    }
    if ([...current.matchAll(MACRO)].some((m) => this.byName.has(nameOf(m[1]!)))) {
      this.note(`Macros still expanding after ${this.limits.maxPasses} rounds (a macro that expands to itself?); the rest stays as written.`);
    }
    return current;
  }

  private value(inner: string): Promise<string | null> {
    let memo = this.memo.get(inner);
    if (!memo) {
      const [rawName, ...args] = inner.split('::');
      const def = this.byName.get(nameOf(rawName!))!;
      memo = Promise.resolve()
        .then(() => def.resolve(args.map((a) => a.trim())))
        .then((value) => {
          this.used.add(def.name.toLowerCase());
          return String(value);
        })
        .catch((err: unknown) => {
          this.note(`{{${def.name}}} (${def.owner}) failed: ${err instanceof Error ? err.message : String(err)}; left as written.`);
          return null;
        });
      this.memo.set(inner, memo);
    }
    return memo;
  }

  private note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }
}

function nameOf(inner: string): string {
  return (inner.split('::')[0] ?? '').trim().toLowerCase();
}
