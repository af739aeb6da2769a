// A frontend rig for renderer tests: an extension's ctx (renderer/frame) on one end of a real MessageChannel,
// the app's broker on the other, a fake host, timers moved by hand, and the drawer news as the app sends it.
import { afterEach } from 'vitest';
import type { ExtensionPermission } from '../../shared/types/spindle';
import type { HostApi } from '../../shared/host-api';
import type { FrameNotice } from '../../shared/frames/frame-contract';
import type { HostState } from '../../shared/frames/host-state';
import { FrameChannel } from '../../renderer/frame/channel';
import { createContext } from '../../renderer/frame/context';
import { FrameDocuments } from '../../renderer/frame/documents';
import { RuntimeState } from '../../renderer/frame/runtime-state';
import { watchDrawer } from '../../renderer/src/features/frontends/drawer-news';
import { FrameBroker } from '../../renderer/src/features/frontends/frame-broker';
import { createFrontendsStore, type FrontendsStore } from '../../renderer/src/features/frontends/frontends-store';

export const ID = 'dice_tray';

/** Timers the test moves by hand. */
export function fakeTimers() {
  let now = 1_000;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void; every?: number }>();
  const api = {
    now: () => now,
    setTimeout: ((fn: () => void, ms: number) => (timers.set(++seq, { at: now + ms, fn }), seq)) as unknown as typeof setTimeout,
    setInterval: ((fn: () => void, ms: number) => (timers.set(++seq, { at: now + ms, fn, every: ms }), seq)) as unknown as typeof setInterval,
    clearInterval: ((id: number) => void timers.delete(id)) as unknown as typeof clearInterval,
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const next = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        const [id, timer] = next;
        now = timer.at;
        if (timer.every) timer.at += timer.every;
        else timers.delete(id);
        timer.fn();
      }
      now = end;
    },
  };
  return api;
}

export interface Rig {
  store: FrontendsStore;
  broker: FrameBroker;
  ctx: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the ctx as an extension calls it
  invoked: Array<{ method: string; input: unknown }>;
  granted: ExtensionPermission[];
  stopped: () => boolean;
  timers: ReturnType<typeof fakeTimers>;
  markReady(): void;
  /** Posts a message as the frame would (a kernel envelope) and resolves with the result of that call. */
  send(message: unknown): Promise<unknown>;
  /** Whether the Workbench (and so its extensions panel) is the section shown; update() re-reads it. */
  panel: { shown: boolean; update(): void };
  /** The connection a model picker without one lists. */
  activeConnection: string | null;
  /** The frame's end of the port, and its runtime state (for pieces a test builds itself, as frame-main.ts does). */
  channel: FrameChannel;
  runtime: RuntimeState;
  /** How the fake host answers a v2 member (extensions.frontendCall): a value (or its promise), or a throw with a code. */
  frontend: (method: string, args: unknown[]) => unknown;
  /** What the frame started from of the app's state (ctx.state, ctx.host.surfaces): rig's second argument. */
  hostState: HostState;
  /** How the fake host answers the frame's `/api/v1/…` requests (Lumiverse's 404 unless a test says otherwise). */
  page: (request: { method: string; path: string; body?: string }) => { status: number; body: unknown };
  /** Whether the person just clicked or typed in the window (its transient activation). */
  userActive: boolean;
  /** What the host put on the system clipboard. */
  clipboard: string[];
}

const rigs: Array<Rig & { unwatch(): void }> = [];
afterEach(() => {
  for (const r of rigs.splice(0)) {
    r.unwatch();
    r.broker.stop();
  }
  document.body.replaceChildren();
});

/** Lets the MessageChannel deliver what is in flight (message events are macrotasks). */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
export const settled = async () => {
  for (let i = 0; i < 4; i++) await flush();
};

export async function rig(granted: ExtensionPermission[] = ['tools'], hostState: HostState = { surfaces: [], state: {} }): Promise<Rig> {
  const store = createFrontendsStore();
  const invoked: Rig['invoked'] = [];
  const state = { granted: [...granted] };
  const host: HostApi = {
    invoke: (async (method: string, input: unknown) => {
      invoked.push({ method, input });
      if (method === 'extensions.grant') {
        state.granted = [...state.granted, (input as { permission: ExtensionPermission }).permission];
        return { ok: true, value: { granted: [...state.granted] } };
      }
      if (method === 'connections.models') {
        const id = (input as { id: string }).id;
        return id === 'gone' ? { ok: false, error: { code: 'CONNECTION_NOT_FOUND', message: 'No connection gone.' } } : { ok: true, value: { models: [`${id}/model-a`, `${id}/model-b`] } };
      }
      if (method === 'extensions.frontendCall') {
        const { method: called, args } = input as { method: string; args: unknown[] };
        try {
          return { ok: true, value: { value: (await r.frontend(called, args)) ?? null } };
        } catch (err) {
          return { ok: false, error: { code: (err as { code?: string }).code ?? 'INTERNAL', message: (err as Error).message } };
        }
      }
      if (method === 'app.clipboard.write') {
        r.clipboard.push((input as { text: string }).text);
        return { ok: true, value: { written: true } };
      }
      if (method === 'extensions.pageRequest') {
        const answer = r.page(input as { method: string; path: string; body?: string });
        return { ok: true, value: { status: answer.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(answer.body), bodyEncoding: 'utf8' } };
      }
      return { ok: true, value: { delivered: true } };
    }) as HostApi['invoke'],
    onEvent: () => () => undefined,
  };
  const timers = fakeTimers();
  let stopped = false;
  const broker = new FrameBroker(ID, {
    store,
    host,
    granted: () => state.granted,
    init: () => ({ extensionId: ID, granted: [...state.granted], activeChat: 'chat-1', messageIds: ['m1', 'm2'], userMessageIds: ['m1'], theme: { '--lumiverse-text': 'red' }, manifest: { identifier: ID }, hostState }),
    timers,
    onStopped: () => void (stopped = true),
    activeConnection: () => r.activeConnection,
    userActive: () => r.userActive,
  });
  const channel = new FrameChannel(broker.transfer);
  const initial = new Promise<FrameNotice<'init'>>((resolve) => channel.on('init', resolve));
  broker.start();
  const init = await initial;
  const docs = new FrameDocuments(document);
  const runtime = new RuntimeState(ID, channel, docs, init);
  let setupRunning = true;
  const lifecycle = createContext(runtime, { identifier: ID }, () => setupRunning);
  setupRunning = false;
  channel.on('teardown', () => {
    runtime.runCleanups();
    void channel.request('frame.tornDown', {}).catch(() => undefined);
  });
  channel.on('ping', ({ seq }) => channel.send('frame.pong', { seq }));
  channel.on('permissions', ({ granted: next }) => void (runtime.granted = next));
  // A raw port to the broker, as a frame that ignores the ctx could use it.
  const raw = new MessageChannel();
  const panel = { shown: true, update: () => drawer.update() };
  const drawer = watchDrawer(store, new Map([[ID, broker]]), () => panel.shown);
  const r: Rig & { unwatch(): void } = {
    panel,
    hostState,
    activeConnection: 'main-conn',
    page: () => ({ status: 404, body: { error: 'Not found' } }),
    userActive: false,
    clipboard: [],
    frontend: () => null,
    unwatch: () => drawer.stop(),
    store,
    broker,
    channel,
    runtime,
    ctx: lifecycle.ctx,
    invoked,
    get granted() {
      return state.granted;
    },
    stopped: () => stopped,
    timers,
    markReady: lifecycle.markReady,
    send: (message) => {
      void raw;
      return new Promise((resolve) => {
        const port = broker.transfer;
        // The answer to that call, in the kernel's envelope: its result.
        const listener = (event: MessageEvent) => {
          const data = event.data as { kind?: unknown; id?: unknown; result?: unknown };
          if (data.kind === 'result' && data.id === (message as { id?: unknown }).id) {
            port.removeEventListener('message', listener);
            resolve(data.result);
          }
        };
        port.addEventListener('message', listener);
        port.postMessage(message);
      });
    },
  };
  rigs.push(r);
  return r;
}

