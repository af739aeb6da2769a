// The app's side of one extension's frontend: the port its runtime frame talks over. Every request is
// checked against the frame contract and the extension's permissions before anything happens; what it
// places goes into the frontends store; what it may not do is refused with a stable code. A frame that
// floods requests or stops answering pings is stopped, with the reason on its card.
import type { FrameError, FrameMethod, FrameNotice, FrameParams, FrameResult, FrameTopic } from '../../../../shared/frames/frame-contract';
import { noticeProblem, requestProblem } from '../../../../shared/frames/frame-validate';
import type { HostApi } from '../../../../shared/host-api';
import type { Result } from '../../../../shared/errors';
import { portTransport } from '../../../../shared/rpc/port-transport';
import { serve } from '../../../../shared/rpc/serve';
import type { Transport } from '../../../../shared/rpc/transport';
import type { ToClient } from '../../../../shared/rpc/envelope';
import { frameHandlers, refuse, Refusal, type FrameHandlers } from './frame-handlers';
import { frontendsActions, type DialogKind, type FrontendsStore } from './frontends-store';

/** Requests a frame may make in one second before it counts as flooding. */
export const MAX_REQUESTS_PER_SECOND = 300;
export const PING_INTERVAL_MS = 5_000;
/** No answer to pings for this long: the frame is stopped (its busy loop runs in a process of its own). */
export const UNRESPONSIVE_AFTER_MS = 15_000;
const TEARDOWN_GRACE_MS = 1_000;

export interface BrokerDeps {
  store: FrontendsStore;
  host: HostApi;
  /** What the extension is granted now. */
  granted(): string[];
  /** What the frame starts from. */
  init(): FrameNotice<'init'>;
  timers?: { setInterval: typeof setInterval; clearInterval: typeof clearInterval; setTimeout: typeof setTimeout; now: () => number };
  /** The frame is done (stopped or torn down): remove it. */
  onStopped(): void;
  /** The connection a model picker without one lists (the open chat's), if any. */
  activeConnection(): string | null;
  /** Whether the person just clicked or typed in the window (its transient activation; tests say so themselves). */
  userActive?(): boolean;
}

/** What the app tells the frame (renderer/frame/channel.ts). */
type FrameEvent = { topic: FrameTopic; data: unknown };

export class FrameBroker {
  private readonly link: Transport<unknown, ToClient<FrameEvent>>;
  private tell: ((event: FrameEvent) => void) | null = null;
  private readonly timers: NonNullable<BrokerDeps['timers']>;
  private window = { start: 0, count: 0 };
  private lastPong: number;
  private seq = 0;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private dialogSeq = 0;
  private tornDown: (() => void) | null = null;
  private readonly handlers: FrameHandlers;

  constructor(
    readonly extensionId: string,
    private readonly deps: BrokerDeps,
  ) {
    // Bound: window's timer functions throw "Illegal invocation" when called as methods of another object.
    this.timers = deps.timers ?? {
      setInterval: ((fn: () => void, ms: number) => setInterval(fn, ms)) as typeof setInterval,
      clearInterval: (id) => clearInterval(id),
      setTimeout: ((fn: () => void, ms: number) => setTimeout(fn, ms)) as typeof setTimeout,
      now: () => Date.now(),
    };
    const channel = new MessageChannel();
    this.link = portTransport(channel.port1);
    serve<FrameEvent>(this.link, {
      call: (method, params) => this.receive(method, params),
      events: (listener) => ((this.tell = listener), () => (this.tell = null)),
      // A message that is no request is dropped unanswered: a frame is a stranger's code, and a reply costs the window.
      pushEvents: true,
    });
    this.lastPong = this.timers.now();
    this.transfer = channel.port2;
    this.handlers = frameHandlers({
      extensionId,
      deps,
      dialog: (kind, params) => this.dialog(kind, params as Record<string, unknown>),
      stop: (problem) => this.stop(problem),
      ponged: () => void (this.lastPong = this.timers.now()),
      tornDown: () => this.tornDown?.(),
    });
  }

  /** The port handed to the frame (once, with its entry). */
  readonly transfer: MessagePort;

  /** Starts talking to the frame: the init state, then pings. */
  start(): void {
    this.notify('init', this.deps.init());
    this.pinger = this.timers.setInterval(() => this.ping(), PING_INTERVAL_MS);
  }

  /** What the frame was last told of each topic told by notifyChanged. */
  private readonly said = new Map<FrameTopic, string>();

  /**
   * Tells the frame `data` unless it was the last it heard of `topic` (the app's news of its state: the drawer, the
   * message box, the host state). `said` is how it reads, when the caller has written it out already.
   */
  notifyChanged<T extends FrameTopic>(topic: T, data: FrameNotice<T>, said: string = JSON.stringify(data)): void {
    if (this.said.get(topic) === said) return;
    this.said.set(topic, said);
    this.notify(topic, data);
  }

  /** Whether the frame has heard anything of `topic` through notifyChanged. */
  heard(topic: FrameTopic): boolean {
    return this.said.has(topic);
  }

  notify<T extends FrameTopic>(topic: T, data: FrameNotice<T>): void {
    if (this.stopped) return;
    const problem = noticeProblem(topic, data);
    if (problem) return console.warn(`[frontends] not sent to ${this.extensionId}: ${problem.message}`);
    this.tell?.({ topic, data });
  }

  /** Tears the frontend down (disable, removal, reload, a problem): teardown gets a moment, then the frame goes. */
  stop(problem?: string): void {
    if (this.stopped) return;
    this.notify('teardown', {});
    this.stopped = true;
    if (this.pinger) this.timers.clearInterval(this.pinger);
    const finish = () => {
      this.tornDown = null;
      this.link.close();
      frontendsActions.clearExtension(this.deps.store, this.extensionId, problem);
      this.deps.onStopped();
    };
    this.tornDown = finish;
    this.timers.setTimeout(() => this.tornDown?.(), TEARDOWN_GRACE_MS);
  }

  private ping(): void {
    if (this.timers.now() - this.lastPong > UNRESPONSIVE_AFTER_MS) {
      this.stop(`Its frontend stopped answering for ${UNRESPONSIVE_AFTER_MS / 1000} s (a busy loop?), so it was stopped. Disable and enable the extension to start it again.`);
      return;
    }
    this.notify('ping', { seq: ++this.seq });
  }

  private async receive(method: string, params: unknown): Promise<Result<unknown>> {
    const refused = (error: FrameError): Result<unknown> => ({ ok: false, error });
    // A stopping frame's last word is never counted as flooding.
    if (this.stopped && method === 'frame.tornDown') {
      this.tornDown?.();
      return { ok: true, value: null };
    }
    const now = this.timers.now();
    if (now - this.window.start >= 1000) this.window = { start: now, count: 0 };
    if (++this.window.count > MAX_REQUESTS_PER_SECOND) {
      this.stop(`Its frontend sent more than ${MAX_REQUESTS_PER_SECOND} requests in a second, so it was stopped.`);
      return refused({ code: 'FRAME_FLOOD', message: 'Too many requests.' });
    }
    if (typeof method !== 'string') return refused({ code: 'UNKNOWN_METHOD', message: 'A method is named by a string.' });
    const problem = requestProblem(method, params);
    if (problem) return refused(problem);
    if (this.stopped) return refused({ code: 'FRAME_STOPPED', message: 'The extension frontend was stopped.' });
    try {
      return { ok: true, value: (await this.handle(method as FrameMethod, params as never)) ?? null };
    } catch (err) {
      return refused(err instanceof Refusal ? err.error : { code: 'INTERNAL', message: (err as Error).message ?? 'The request failed.' });
    }
  }

  private dialog(kind: DialogKind, params: Record<string, unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = ++this.dialogSeq;
      this.deps.store.setState((s) => ({ dialogs: [...s.dialogs, { id, extensionId: this.extensionId, kind, params, resolve, reject: (e) => reject(new Refusal(e)) }] }));
    });
  }

  private handle<M extends FrameMethod>(method: M, params: FrameParams<M>): Promise<FrameResult<M>> | FrameResult<M> {
    // The contract checked the method's name and params (requestProblem) before this runs.
    const handler = (Object.hasOwn(this.handlers, method) ? this.handlers[method] : undefined) as ((params: FrameParams<M>) => Promise<FrameResult<M>> | FrameResult<M>) | undefined;
    return handler ? handler(params) : refuse('UNKNOWN_METHOD', `No frame method ${method}.`);
  }
}
