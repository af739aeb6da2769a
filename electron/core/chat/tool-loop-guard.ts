// A turn's inline tool calls, watched: a call id the model already used is answered DUPLICATE_CALL_ID and not run,
// and a model calling the same tool with the same arguments again and again is stopped with a reason (the round
// cap alone lets a looping model burn every round first).
import type { HostError } from '../../../shared/errors';

/** The same call (tool and arguments) this many times in one turn ends it. */
export const LOOP_REPEATS = 3;

export class ToolLoopGuard {
  private readonly ids = new Set<string>();
  private readonly seen = new Map<string, number>();

  /** The error to answer a reused call id with, or null (the id is remembered). */
  duplicateId(id: string): HostError | null {
    if (!this.ids.has(id)) {
      this.ids.add(id);
      return null;
    }
    return { code: 'DUPLICATE_CALL_ID', message: `The call id ${id.slice(0, 100)} was already used in this turn; the call was not run.`, hint: 'Give every tool call its own id.' };
  }

  /** Counts a round's calls; the name of the first that reached LOOP_REPEATS, or null. */
  looping(calls: ReadonlyArray<{ name: string; argsText: string; args?: unknown }>): string | null {
    let found: string | null = null;
    for (const call of calls) {
      const key = `${call.name}\u0000${canonical(call.args, call.argsText)}`;
      const count = (this.seen.get(key) ?? 0) + 1;
      this.seen.set(key, count);
      if (count >= LOOP_REPEATS && found === null) found = call.name;
    }
    return found;
  }
}

/** Arguments compared by value: key order and spacing do not make a repeated call new. */
function canonical(args: unknown, fallback: string): string {
  if (args === undefined) return fallback.trim();
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(sort(args));
}
