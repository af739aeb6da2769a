// Puts tool-call events in seed-004 order: per call start → name → argument fragments → end|failed, one call at a time, text only between calls, every started call closed.
import type { HostError } from '../../../shared/errors';
import type { LlmEvent } from '../../../shared/types/llm';

interface CallState {
  index: number;
  name: string;
  argsText: string;
  /** Events waiting while another call is in progress. */
  buffer: LlmEvent[];
  closed: boolean;
}

const isTerminal = (event: LlmEvent) => event.type === 'tool-call-end' || event.type === 'tool-call-failed';

/**
 * Providers may interleave the argument fragments of parallel calls (OpenAI by `index`). Consumers
 * get one call at a time: events of a later call are held back until the earlier call has ended.
 * Indexes count calls in the order they started, from 0.
 */
export class ToolCallSequencer {
  private readonly calls = new Map<string, CallState>();
  private active: string | null = null;
  private readonly waiting: string[] = [];
  private nextIndex = 0;
  private endedCount = 0;
  /** Text that arrived while a call was open: released as soon as no call is. */
  private readonly heldText: LlmEvent[] = [];

  constructor(private readonly out: (event: LlmEvent) => void) {}

  /** Calls that ended successfully so far. */
  get ended(): number {
    return this.endedCount;
  }

  has(id: string): boolean {
    return this.calls.has(id);
  }

  isClosed(id: string): boolean {
    return this.calls.get(id)?.closed ?? false;
  }

  argsText(id: string): string {
    return this.calls.get(id)?.argsText ?? '';
  }

  /** Text outside calls passes straight through; text inside an open call waits until it has ended. */
  text(text: string): void {
    if (text === '') return;
    const event: LlmEvent = { type: 'text-delta', text };
    if (this.active === null) this.out(event);
    else this.heldText.push(event);
  }

  /** Reasoning, like text: held while a call is open. */
  reasoning(text: string): void {
    if (text === '') return;
    const event: LlmEvent = { type: 'reasoning-delta', text };
    if (this.active === null) this.out(event);
    else this.heldText.push(event);
  }

  start(id: string, name: string): void {
    if (this.calls.has(id)) return;
    this.calls.set(id, { index: this.nextIndex++, name, argsText: '', buffer: [], closed: false });
    this.push(id, { type: 'tool-call-start', id, index: this.calls.get(id)!.index });
    this.push(id, { type: 'tool-call-name', id, name });
  }

  delta(id: string, delta: string): void {
    const call = this.calls.get(id);
    if (!call || call.closed || delta === '') return;
    call.argsText += delta;
    this.push(id, { type: 'tool-call-args-delta', id, delta });
  }

  end(id: string, argsText: string, args: unknown): void {
    const call = this.calls.get(id);
    if (!call || call.closed) return;
    call.closed = true;
    this.endedCount++;
    this.push(id, { type: 'tool-call-end', id, name: call.name, argsText, args });
  }

  fail(id: string, argsText: string, error: HostError): void {
    const call = this.calls.get(id);
    if (!call || call.closed) return;
    call.closed = true;
    this.push(id, { type: 'tool-call-failed', id, name: call.name, argsText, error });
  }

  /** Closes every call still open (the stream ended or broke mid-call) and releases all held events. */
  failOpen(error: HostError): void {
    const open = [...(this.active ? [this.active] : []), ...this.waiting].filter((id) => !this.calls.get(id)!.closed);
    for (const id of open) this.fail(id, this.calls.get(id)!.argsText, error);
  }

  private push(id: string, event: LlmEvent): void {
    if (this.active === null) this.active = id;
    const call = this.calls.get(id)!;
    if (this.active !== id) {
      call.buffer.push(event);
      if (!this.waiting.includes(id)) this.waiting.push(id);
      return;
    }
    this.out(event);
    if (isTerminal(event)) {
      this.active = null;
      this.drain();
    }
  }

  private drain(): void {
    while (this.active === null && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      const call = this.calls.get(id)!;
      this.active = id;
      const held = call.buffer.splice(0);
      for (const event of held) this.out(event);
      if (held.some(isTerminal)) this.active = null;
    }
    if (this.active === null) for (const event of this.heldText.splice(0)) this.out(event);
  }
}
