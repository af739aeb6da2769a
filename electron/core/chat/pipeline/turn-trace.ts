// A turn's prompt breakdown: each stage in order, how long it took, who did it, and the messages before and after a change.
import type { TurnStage } from '../../../../shared/types/chat';

/** Each side of a change is kept up to this many characters (the trace is saved with the reply). */
const MAX_SIDE_CHARS = 64 * 1024;
const MAX_STAGES = 200;
/** A note is cut to this (the saved reply's schema holds no longer one). */
const MAX_NOTE_CHARS = 2000;

const clip = (text: string) => (text.length > MAX_SIDE_CHARS ? `${text.slice(0, MAX_SIDE_CHARS - 12)}\n[clipped]` : text);

export class TurnTrace {
  readonly stages: TurnStage[] = [];

  constructor(private readonly now: () => number) {}

  /** Starts timing a stage; end() records it, with the text before and after when it changed something. */
  start(stage: string, by = 'host'): { end(before?: string, after?: string, note?: string): void } {
    const started = this.now();
    return { end: (before, after, note) => this.record({ stage, by, ms: Math.max(0, this.now() - started), before, after, note }) };
  }

  /** A stage timed elsewhere, with the text before and after when it changed something. */
  record({ before, after, note, ...stage }: { stage: string; by: string; ms: number; before?: string | undefined; after?: string | undefined; note?: string | undefined }): void {
    const changed = before !== undefined && after !== undefined && before !== after;
    this.push({ ...stage, ...(note ? { note: note.slice(0, MAX_NOTE_CHARS) } : {}), ...(changed ? { before: clip(before), after: clip(after) } : {}) });
  }

  /** Times `work` as one stage of the host's. */
  async run<T>(stage: string, work: () => Promise<T> | T, describe?: (value: T) => { before?: string; after?: string; note?: string }): Promise<T> {
    const timing = this.start(stage);
    const value = await work();
    const d = describe?.(value) ?? {};
    timing.end(d.before, d.after, d.note);
    return value;
  }

  note(stage: string, by: string, note: string): void {
    this.push({ stage, by, ms: 0, note: note.slice(0, MAX_NOTE_CHARS) });
  }

  private push(entry: TurnStage): void {
    if (this.stages.length < MAX_STAGES) this.stages.push(entry);
  }
}
