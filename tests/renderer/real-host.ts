// The renderer's HostConnection over a real core (createHost on a temp data folder), in memory: each call goes through
// host.api.call exactly as the headless WebSocket server sends it (JSON frame in, its byte count, origin 'ws', JSON
// result out), and host events reach the renderer as JSON too, in the order the core emitted them. A test may pace that
// link (pace(): the core's messages wait until let through, as on a slow socket) or, for what the core never sends, emit
// an event down it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { act } from 'react';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import type { HostEvent, HostEventListener } from '../../shared/contract/events';
import type { ConnectionInfo, ConnectionListener, HostConnection } from '../../renderer/src/api/connection';
import { notConnected, unauthorized } from '../../renderer/src/api/errors';
import { createHost, type Host, type HostPorts } from '../../electron/core/host';
import { silentLogger } from '../../electron/core/ports';
import { confBackend } from '../../electron/core/settings/conf-backend';
import { onSettle } from './harness';

export interface Call {
  method: MethodName;
  input: unknown;
}

/** One message from the core to the renderer: an event (`event` set) or the answer to a call. */
interface Outbound {
  event?: HostEvent;
  deliver(): void;
}

/** A paced link (RealHost.pace). */
export interface Link {
  /**
   * Lets through, in order, what the core sent up to and including the first event that `match`es, waiting (up to `ms`)
   * for the core to send it; returns that event. Run it inside settle() so React takes what arrives.
   */
  next(match: (event: HostEvent) => boolean, what: string, ms?: number): Promise<HostEvent>;
  /** Lets everything held through and stops pacing. */
  release(): Promise<void>;
}

type Override<M extends MethodName> = (input: MethodInput<M>) => Result<MethodOutput<M>> | Promise<Result<MethodOutput<M>>>;
type Overrides = { [M in MethodName]?: Override<M> };

/** What a test may set on the core; the rest is the test default (temp data folder, no bundled extensions, silent log). */
export type RealHostOptions = Partial<Omit<HostPorts, 'settingsBackend' | 'log'>>;

/** The app's bundled Lumia packs (data only, no workers): pass as bundledPacksDir for tests about council members. */
export const BUNDLED_PACKS = path.resolve(import.meta.dirname, '../../resources/packs');

const live = new Set<RealHost>();

export class RealHost implements HostConnection {
  readonly transport = 'websocket' as const;
  /** Every call the renderer made, with its input as sent, in order. */
  readonly calls: Call[] = [];
  reconnects = 0;
  /**
   * Answers for single methods that the real core cannot be driven to cheaply (a dropped transport, say). Each test that
   * sets one says why. Everything else goes to the core.
   */
  readonly overrides: Overrides = {};
  private info: ConnectionInfo = { state: 'connected', transport: 'websocket', attempt: 0, willRetry: false };
  private readonly eventListeners = new Set<HostEventListener>();
  private readonly infoListeners = new Set<ConnectionListener>();
  private readonly unsubscribe: () => void;
  private frameId = 0;
  /** The core's answers not yet given (held ones included: the core has answered those only once they leave here). */
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly held = new Map<MethodName, { released: boolean; waiting: Array<() => void> }>();
  /** While paced (pace()): what the core sent and the renderer has not received yet, in the order it was sent. */
  private link: { queue: Outbound[]; sent: Set<() => void> } | null = null;
  private disposed: Promise<void> | null = null;

  private constructor(
    readonly core: Host,
    readonly dataDir: string,
    private readonly ownsDataDir: boolean,
  ) {
    this.unsubscribe = core.onEvent((event) => this.sendEvent(event));
  }

  /**
   * A host event to the renderer as the socket carries one: serialized when emitted, delivered after the emitting code
   * has run on (or, while paced, when the test lets it through); missed while the link is down (setInfo), when the
   * renderer's resync on reconnect has to cover it.
   */
  private sendEvent(event: HostEvent): void {
    if (this.info.state !== 'connected') return;
    const wire = JSON.stringify(event);
    this.send({
      event: JSON.parse(wire) as HostEvent,
      deliver: () => {
        const received = JSON.parse(wire) as HostEvent;
        for (const listener of [...this.eventListeners]) listener(received);
      },
    });
  }

  /** Everything the core sends the renderer (events and answers) goes out here, in the one order the socket keeps. */
  private send(message: Outbound): void {
    if (!this.link) return queueMicrotask(message.deliver);
    this.link.queue.push(message);
    for (const wake of this.link.sent) wake();
  }

  /**
   * A core on a fresh temp data folder (or `options.dataDir`), wired like the browser mode. `folder.prefix` names the temp
   * folder; `folder.prepare` writes into it before the core starts (a damaged settings file, say). Call dispose (or
   * disposeAllHosts).
   */
  static async start(options: RealHostOptions = {}, folder: { prefix?: string; prepare?: (dataDir: string) => void } = {}): Promise<RealHost> {
    const ownsDataDir = options.dataDir === undefined;
    const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), folder.prefix ?? 'cw-renderer-'));
    folder.prepare?.(dataDir);
    // env: key variables are read from here, never from (and never taken out of) the test process's environment.
    const core = await createHost({ mode: 'browser', bundledExtensionsDir: null, bundledPacksDir: null, env: {}, ...options, dataDir, settingsBackend: confBackend, log: silentLogger });
    const host = new RealHost(core, dataDir, ownsDataDir);
    live.add(host);
    return host;
  }

  invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<Result<MethodOutput<M>>> {
    this.calls.push({ method, input });
    // As the WebSocket transport answers while the link is down or the token was refused: nothing is sent.
    if (this.info.state === 'unauthorized') return Promise.resolve(unauthorized(method));
    if (this.info.state === 'disconnected') return Promise.resolve(notConnected(method));
    const override = this.overrides[method] as Override<M> | undefined;
    if (override) return Promise.resolve(override(input)).then((result) => this.answer(result));
    // The frame the WebSocket transport sends; the server counts its bytes and parses it back.
    const frame = JSON.stringify({ kind: 'invoke', id: ++this.frameId, method, input });
    const bytes = Buffer.byteLength(frame);
    const sent = JSON.parse(frame) as { method: string; input: unknown };
    const answer = this.core.api.call(sent.method, sent.input, { origin: 'ws' }, bytes);
    this.inFlight.add(answer);
    void answer.finally(() => this.inFlight.delete(answer));
    const gate = this.held.get(method);
    const delivered = gate
      ? answer.then((result) => new Promise<typeof result>((resolve) => (gate.released ? resolve(result) : gate.waiting.push(() => resolve(result)))))
      : answer;
    return delivered.then((result) => this.answer(result as Result<MethodOutput<M>>));
  }

  /** An answer as the renderer receives it: JSON, and (while paced) behind whatever the core sent before it. */
  private answer<T>(result: Result<T>): Result<T> | Promise<Result<T>> {
    const wire = JSON.stringify(result);
    if (!this.link) return JSON.parse(wire) as Result<T>;
    return new Promise((resolve) => this.send({ deliver: () => resolve(JSON.parse(wire) as Result<T>) }));
  }

  /**
   * Delivers `event` to the renderer exactly as the core's events are delivered (JSON, same order, same link). Only for
   * what the real core never sends but a renderer must cope with (a delta repeated with the same seq, say); each test
   * that uses it says why.
   */
  emit(event: HostEvent): void {
    this.sendEvent(event);
  }

  /**
   * Paces the link, as a slow socket does: from now on what the core sends (events, and the answers to the renderer's
   * calls, in the order the core sent them) waits here until the test lets it through, so the renderer can be looked at
   * between two of the core's messages (which a socket may deliver in different animation frames). The core itself
   * runs on. Each message is delivered on its own turn of the event loop, as separate socket frames are.
   */
  pace(): Link {
    const link = { queue: [] as Outbound[], sent: new Set<() => void>() };
    this.link = link;
    const deliverOne = async () => {
      link.queue.shift()!.deliver();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return {
      next: async (match, what, ms = 10_000) => {
        const deadline = Date.now() + ms;
        for (;;) {
          while (link.queue.length > 0) {
            const event = link.queue[0]!.event;
            await deliverOne();
            if (event && match(event)) return event;
          }
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`the core never sent: ${what}`);
          await new Promise<void>((resolve) => {
            const wake = () => {
              clearTimeout(timer);
              link.sent.delete(wake);
              resolve();
            };
            const timer = setTimeout(wake, left);
            link.sent.add(wake);
          });
        }
      },
      release: async () => {
        while (link.queue.length > 0) await deliverOne();
        if (this.link === link) this.link = null;
      },
    };
  }

  /**
   * Holds back the core's answers to `method` (the core does the work at once; its results wait, as on a slow link) until
   * release(), so a test can look at the renderer while the call is in flight.
   */
  hold(method: MethodName): { release(): void } {
    const gate = { released: false, waiting: [] as Array<() => void> };
    this.held.set(method, gate);
    return {
      release: () => {
        gate.released = true;
        if (this.held.get(method) === gate) this.held.delete(method);
        for (const deliver of gate.waiting.splice(0)) deliver();
      },
    };
  }

  /** Calls the core directly for a test's arrange step (not recorded in `calls`); throws on a failed result. */
  async arrange<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
    const result = await this.core.api.call(method, input, { origin: 'ws' });
    if (!result.ok) throw new Error(`arrange ${method} failed: ${result.error.code} ${result.error.message}`);
    return JSON.parse(JSON.stringify(result.value)) as MethodOutput<M>;
  }

  /**
   * Waits (inside act) until the core has answered every call the renderer made, including the calls the renderer makes
   * on those answers, or until the core waits for a person (an approval is pending: the calls waiting on it end only when
   * the test answers). Held answers (hold) count as answered by the core.
   */
  async quiet(): Promise<void> {
    for (let round = 0; round < 100; round++) {
      if (this.inFlight.size === 0 || this.core.safety.approvals.list().length > 0) return;
      await act(async () => {
        let off = () => {};
        const asked = new Promise<void>((resolve) => {
          off = this.core.onEvent((event) => {
            if (event.type === 'approval.requested') resolve();
          });
        });
        await Promise.race([Promise.allSettled([...this.inFlight]), asked]);
        off();
      });
    }
    throw new Error('the renderer kept calling the host for 100 rounds');
  }

  /**
   * Makes the core's next settings write fail (SETTINGS_WRITE_FAILED, EISDIR): a folder stands where settings.json goes.
   * A read-only folder would not do, as the tests may run as root.
   */
  breakSettingsWrites(): void {
    const file = path.join(this.dataDir, 'settings.json');
    fs.rmSync(file, { force: true });
    fs.mkdirSync(file);
  }

  callsTo(method: MethodName): Call[] {
    return this.calls.filter((c) => c.method === method);
  }

  onEvent(listener: HostEventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  getInfo(): ConnectionInfo {
    return this.info;
  }

  onInfo(listener: ConnectionListener): () => void {
    this.infoListeners.add(listener);
    return () => this.infoListeners.delete(listener);
  }

  /**
   * Connection state as the transport would report it (reconnect and offline tests). While it is not 'connected', calls
   * are refused as the transport refuses them and the core's events do not arrive.
   */
  setInfo(next: Partial<ConnectionInfo>): void {
    this.info = { ...this.info, ...next };
    for (const listener of this.infoListeners) listener(this.info);
  }

  reconnect(): void {
    this.reconnects += 1;
  }

  /** Closes the core (workers, MCP servers, timers) and removes its temp data folder. */
  dispose(): Promise<void> {
    this.disposed ??= (async () => {
      live.delete(this);
      this.link = null;
      this.unsubscribe();
      this.eventListeners.clear();
      this.infoListeners.clear();
      await this.core.dispose();
      // A write the core started before dispose can land while the folder is removed (ENOTEMPTY): try again.
      if (this.ownsDataDir) fs.rmSync(this.dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    })();
    return this.disposed;
  }
}

/** Every live RealHost quiet: harness settle() waits for this, so a settled renderer has its real answers. */
export async function quietAll(): Promise<void> {
  for (const host of live) await host.quiet();
}
onSettle(quietAll);

/** For afterEach: closes every RealHost a test started. */
export async function disposeAllHosts(): Promise<void> {
  await Promise.all([...live].map((host) => host.dispose()));
}
