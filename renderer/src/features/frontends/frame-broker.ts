// The app's side of one extension's frontend: the port its runtime frame talks over. Every request is
// checked against the frame contract and the extension's permissions before anything happens; what it
// places goes into the frontends store; what it may not do is refused with a stable code. A frame that
// floods requests or stops answering pings is stopped, with the reason on its card.
import type { FrameError, FrameMethod, FrameNotice, FrameParams, FrameTopic, SurfaceKind, SurfaceOptions, SurfacePatch } from '../../../../shared/frames/frame-contract';
import { noticeProblem, requestProblem } from '../../../../shared/frames/frame-validate';
import type { HostApi } from '../../../../shared/host-api';
import { frontendsActions, surfaceKey, type DialogKind, type FrontendsStore } from './frontends-store';

/** Requests a frame may make in one second before it counts as flooding. */
export const MAX_REQUESTS_PER_SECOND = 300;
export const PING_INTERVAL_MS = 5_000;
/** No answer to pings for this long: the frame is stopped (its busy loop runs in a process of its own). */
export const UNRESPONSIVE_AFTER_MS = 15_000;
const TEARDOWN_GRACE_MS = 1_000;

/** A surface kind and the permission Lumiverse asks of it. */
const SURFACE_PERMISSION: Partial<Record<SurfaceKind, string>> = { float: 'ui_panels', dock: 'ui_panels', app: 'app_manipulation' };

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
}

/** The fields of every request's params, read once the contract has checked them. */
interface Fields {
  surfaceId: string;
  kind: SurfaceKind;
  options: SurfaceOptions;
  patch: SurfacePatch;
  payload: unknown;
  actionId: string;
  interceptorId: string;
  tagName: string;
  removeFromMessage?: boolean;
  messageId: string;
  widgetId: string;
  height: number;
  message: string;
  member: string;
}

class Refusal extends Error {
  constructor(readonly error: FrameError) {
    super(error.message);
  }
}

const refuse = (code: string, message: string): never => {
  throw new Refusal({ code, message });
};

export class FrameBroker {
  private readonly port: MessagePort;
  private readonly timers: NonNullable<BrokerDeps['timers']>;
  private window = { start: 0, count: 0 };
  private lastPong: number;
  private seq = 0;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private dialogSeq = 0;
  private tornDown: (() => void) | null = null;

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
    this.port = channel.port1;
    this.port.onmessage = (event) => void this.receive(event.data);
    this.lastPong = this.timers.now();
    this.transfer = channel.port2;
  }

  /** The port handed to the frame (once, with its entry). */
  readonly transfer: MessagePort;

  /** Starts talking to the frame: the init state, then pings. */
  start(): void {
    this.notify('init', this.deps.init());
    this.pinger = this.timers.setInterval(() => this.ping(), PING_INTERVAL_MS);
  }

  notify<T extends FrameTopic>(topic: T, data: FrameNotice<T>): void {
    if (this.stopped) return;
    const problem = noticeProblem(topic, data);
    if (problem) return console.warn(`[frontends] not sent to ${this.extensionId}: ${problem.message}`);
    this.port.postMessage({ kind: 'notify', topic, data });
  }

  /** Tears the frontend down (disable, removal, reload, a problem): teardown gets a moment, then the frame goes. */
  stop(problem?: string): void {
    if (this.stopped) return;
    this.notify('teardown', {});
    this.stopped = true;
    if (this.pinger) this.timers.clearInterval(this.pinger);
    const finish = () => {
      this.tornDown = null;
      this.port.close();
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

  private async receive(message: unknown): Promise<void> {
    const m = message as { kind?: unknown; id?: unknown; method?: unknown; params?: unknown } | null;
    if (!m || m.kind !== 'request' || typeof m.id !== 'number' || typeof m.method !== 'string') return;
    const id = m.id;
    const answer = (reply: { ok: true; value: unknown } | { ok: false; error: FrameError }) => this.port.postMessage({ kind: 'response', id, ...reply });
    // A stopping frame's last word is never counted as flooding.
    if (this.stopped && m.method === 'frame.tornDown') {
      this.tornDown?.();
      return answer({ ok: true, value: null });
    }
    const now = this.timers.now();
    if (now - this.window.start >= 1000) this.window = { start: now, count: 0 };
    if (++this.window.count > MAX_REQUESTS_PER_SECOND) {
      answer({ ok: false, error: { code: 'FRAME_FLOOD', message: 'Too many requests.' } });
      this.stop(`Its frontend sent more than ${MAX_REQUESTS_PER_SECOND} requests in a second, so it was stopped.`);
      return;
    }
    const problem = requestProblem(m.method, m.params);
    if (problem) return answer({ ok: false, error: problem });
    if (this.stopped && m.method !== 'frame.tornDown') return answer({ ok: false, error: { code: 'FRAME_STOPPED', message: 'The extension frontend was stopped.' } });
    try {
      answer({ ok: true, value: (await this.handle(m.method as FrameMethod, m.params as never)) ?? null });
    } catch (err) {
      answer({ ok: false, error: err instanceof Refusal ? err.error : { code: 'INTERNAL', message: (err as Error).message ?? 'The request failed.' } });
    }
  }

  private dialog(kind: DialogKind, params: Record<string, unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = ++this.dialogSeq;
      this.deps.store.setState((s) => ({ dialogs: [...s.dialogs, { id, extensionId: this.extensionId, kind, params, resolve, reject: (e) => reject(new Refusal(e)) }] }));
    });
  }

  private async handle<M extends FrameMethod>(method: M, params: FrameParams<M>): Promise<unknown> {
    const store = this.deps.store;
    // Checked against the contract already: read as its fields.
    const p = params as unknown as Fields;
    const key = (surfaceId: string) => surfaceKey(this.extensionId, surfaceId);
    const own = (surfaceId: string) => store.getState().surfaces.some((s) => s.key === key(surfaceId)) || refuse('INVALID_INPUT', `No surface ${surfaceId} of this extension.`);
    switch (method) {
      case 'frame.ready':
        store.setState((s) => ({ ready: { ...s.ready, [this.extensionId]: true } }));
        return null;
      case 'frame.failed':
        this.stop(`Its frontend failed to start: ${p.message}`);
        return null;
      case 'frame.pong':
        this.lastPong = this.timers.now();
        return null;
      case 'frame.inert':
        store.setState((s) => ({ inert: { ...s.inert, [this.extensionId]: [...new Set([...(s.inert[this.extensionId] ?? []), String(p.member)])] } }));
        return null;
      case 'frame.tornDown':
        this.tornDown?.();
        return null;
      case 'backend.send': {
        const sent = await this.deps.host.invoke('extensions.sendFrontend', { id: this.extensionId, payload: p.payload });
        if (!sent.ok) refuse(sent.error.code, sent.error.message);
        return null;
      }
      case 'surface.open': {
        const kind = p.kind;
        const permission = SURFACE_PERMISSION[kind];
        if (permission && !this.deps.granted().includes(permission)) refuse('PERMISSION_DENIED', `PERMISSION_DENIED:${permission} — a ${kind} surface needs the ${permission} permission.`);
        frontendsActions.openSurface(store, this.extensionId, p.surfaceId, kind, p.options);
        return null;
      }
      case 'surface.update':
        own(p.surfaceId);
        frontendsActions.updateSurface(store, key(p.surfaceId), p.patch);
        return null;
      case 'surface.contentHeight':
        own(p.surfaceId);
        frontendsActions.setContentHeight(store, key(p.surfaceId), p.height);
        return null;
      case 'surface.activate':
        own(p.surfaceId);
        // Its onActivate hears of it through the drawer news (drawer-news.ts), as a click on the tab.
        store.setState({ activeTab: key(p.surfaceId), drawerOpen: true });
        return null;
      case 'surface.close':
        frontendsActions.closeSurface(store, key(p.surfaceId));
        return null;
      case 'inputAction.set':
        store.setState((s) => ({ actions: [...s.actions.filter((a) => !(a.extensionId === this.extensionId && a.actionId === p.actionId)), { ...(params as object), extensionId: this.extensionId } as never] }));
        return null;
      case 'inputAction.remove':
        store.setState((s) => ({ actions: s.actions.filter((a) => !(a.extensionId === this.extensionId && a.actionId === p.actionId)) }));
        return null;
      case 'dialog.confirm':
        return this.dialog('confirm', params as Record<string, unknown>);
      case 'dialog.contextMenu':
        return this.dialog('contextMenu', params as Record<string, unknown>);
      case 'permissions.request': {
        // The person decides (a refusal rejects, as Lumiverse's does); what they allow is granted by the host.
        await this.dialog('permissions', params as Record<string, unknown>);
        let granted = this.deps.granted();
        for (const permission of (params as { permissions: string[] }).permissions) {
          if (granted.includes(permission)) continue;
          const result = await this.deps.host.invoke('extensions.grant', { id: this.extensionId, permission: permission as never });
          if (!result.ok) refuse(result.error.code, result.error.message);
          else granted = result.value.granted;
        }
        return granted;
      }
      case 'uploads.pickFile':
        return this.dialog('file', params as Record<string, unknown>);
      case 'connections.models': {
        const id = (params as { connectionId?: string }).connectionId ?? this.deps.activeConnection();
        if (!id) return { models: [] };
        const listed = await this.deps.host.invoke('connections.models', { id });
        if (!listed.ok) return refuse(listed.error.code, listed.error.message);
        return { models: listed.value.models.slice(0, 5000) };
      }
      case 'messages.interceptTags':
        store.setState((s) => ({ interceptors: [...s.interceptors, { extensionId: this.extensionId, interceptorId: p.interceptorId, tagName: p.tagName, removeFromMessage: p.removeFromMessage !== false }] }));
        return null;
      case 'messages.stopIntercepting':
        store.setState((s) => ({ interceptors: s.interceptors.filter((i) => !(i.extensionId === this.extensionId && i.interceptorId === p.interceptorId)) }));
        return null;
      case 'messages.renderWidget': {
        const widget = { ...(params as object), extensionId: this.extensionId } as never;
        store.setState((s) => ({ widgets: [...s.widgets.filter((w) => !(w.extensionId === this.extensionId && w.messageId === p.messageId && w.widgetId === p.widgetId)), widget] }));
        return null;
      }
      case 'messages.removeWidget':
        store.setState((s) => ({ widgets: s.widgets.filter((w) => !(w.extensionId === this.extensionId && w.messageId === p.messageId && w.widgetId === p.widgetId)) }));
        return null;
      default:
        return refuse('UNKNOWN_METHOD', `No frame method ${method}.`);
    }
  }
}
