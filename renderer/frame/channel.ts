// The frame's end of the port the app hands it: requests answered by the app (shared/frames/frame-contract.ts),
// and the app's notices, each checked against the contract before anything acts on it.
import type { FrameMethod, FrameNotice, FrameParams, FrameResult, FrameTopic } from '../../shared/frames/frame-contract';
import { noticeProblem, resultProblem } from '../../shared/frames/frame-validate';

/** An error from the app, as the extension sees it: `code` and Lumiverse's "CODE: message" text. */
export function frameError(code: string, message: string): Error {
  return Object.assign(new Error(message.startsWith(code) ? message : `${code}: ${message}`), { code });
}

export class FrameChannel {
  private next = 1;
  private readonly pending = new Map<number, { method: FrameMethod; resolve(value: unknown): void; reject(error: Error): void }>();
  private readonly listeners = new Map<string, Set<(data: unknown) => void>>();
  private closed = false;

  constructor(private readonly port: MessagePort) {
    port.onmessage = (event) => this.receive(event.data);
  }

  request<M extends FrameMethod>(method: M, params: FrameParams<M>): Promise<FrameResult<M>> {
    if (this.closed) return Promise.reject(frameError('FRAME_STOPPED', 'The extension frontend was stopped.'));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
      this.port.postMessage({ kind: 'request', id, method, params });
    });
  }

  /** A request whose answer nobody waits for (its failure is reported on the console). */
  send<M extends FrameMethod>(method: M, params: FrameParams<M>): void {
    this.request(method, params).catch((err: Error) => console.warn(`[Council Workbench] ${method}: ${err.message}`));
  }

  on<T extends FrameTopic>(topic: T, listener: (data: FrameNotice<T>) => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener as (data: unknown) => void);
    return () => set.delete(listener as (data: unknown) => void);
  }

  close(): void {
    this.closed = true;
    for (const { reject } of this.pending.values()) reject(frameError('FRAME_STOPPED', 'The extension frontend was stopped.'));
    this.pending.clear();
    this.port.close();
  }

  private receive(message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const m = message as { kind?: unknown; id?: unknown; ok?: unknown; value?: unknown; error?: { code?: string; message?: string }; topic?: unknown; data?: unknown };
    if (m.kind === 'response' && typeof m.id === 'number') {
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      this.pending.delete(m.id);
      if (m.ok === true) {
        // The answer is checked as the question was: a result that breaks the contract reaches no extension code.
        const problem = resultProblem(waiting.method, m.value);
        if (problem) waiting.reject(frameError(problem.code, problem.message));
        else waiting.resolve(m.value);
      } else waiting.reject(frameError(String(m.error?.code ?? 'INTERNAL'), String(m.error?.message ?? 'The request failed.')));
      return;
    }
    if (m.kind !== 'notify' || typeof m.topic !== 'string') return;
    const problem = noticeProblem(m.topic, m.data);
    if (problem) {
      console.warn(`[Council Workbench] ignored a message from the app: ${problem.message}`);
      return;
    }
    for (const listener of this.listeners.get(m.topic) ?? []) {
      try {
        listener(m.data);
      } catch (err) {
        console.error(err);
      }
    }
  }
}
