// The frame's end of the port the app hands it: requests answered by the app (shared/frames/frame-contract.ts) on the
// RPC kernel's client, and the app's notices, each checked against the contract before anything acts on it.
import type { FrameMethod, FrameNotice, FrameParams, FrameResult, FrameTopic } from '../../shared/frames/frame-contract';
import { noticeProblem, resultProblem } from '../../shared/frames/frame-validate';
import { createClient, type RpcClient } from '../../shared/rpc/client';
import { portTransport } from '../../shared/rpc/port-transport';

/** An error from the app, as the extension sees it: `code` and Lumiverse's "CODE: message" text. */
export function frameError(code: string, message: string): Error {
  return Object.assign(new Error(message.startsWith(code) ? message : `${code}: ${message}`), { code });
}

/** What the app tells a frame: a topic of the contract and its data. */
export interface FrameEvent {
  topic: string;
  data: unknown;
}

const STOPPED = { code: 'FRAME_STOPPED', message: 'The extension frontend was stopped.' };

export class FrameChannel {
  private readonly client: RpcClient<FrameEvent>;
  private readonly listeners = new Map<string, Set<(data: unknown) => void>>();

  constructor(port: MessagePort) {
    this.client = createClient<FrameEvent>(portTransport(port), { lost: STOPPED, subscribe: false });
    this.client.onEvent((event) => this.notice(event));
  }

  async request<M extends FrameMethod>(method: M, params: FrameParams<M>): Promise<FrameResult<M>> {
    const result = await this.client.call(method, params);
    if (!result.ok) throw frameError(String(result.error.code), String(result.error.message));
    // The answer is checked as the question was: a result that breaks the contract reaches no extension code.
    const problem = resultProblem(method, result.value);
    if (problem) throw frameError(problem.code, problem.message);
    return result.value as FrameResult<M>;
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

  /** Calls still waiting end with FRAME_STOPPED. */
  close(): void {
    this.client.close();
  }

  private notice(event: FrameEvent): void {
    if (typeof event !== 'object' || event === null || typeof event.topic !== 'string') return;
    const problem = noticeProblem(event.topic, event.data);
    if (problem) {
      console.warn(`[Council Workbench] ignored a message from the app: ${problem.message}`);
      return;
    }
    for (const listener of this.listeners.get(event.topic) ?? []) {
      try {
        listener(event.data);
      } catch (err) {
        console.error(err);
      }
    }
  }
}
