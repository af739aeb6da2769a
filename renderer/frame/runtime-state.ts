// What the pieces of an extension's `ctx` share: the port to the app, its documents, what is granted,
// surface listeners, and the list of things to undo when the frontend is torn down.
import { ALERT_CHARS, type FrameNotice } from '../../shared/frames/frame-contract';
import type { HostState } from '../../shared/frames/host-state';
import type { FrameChannel } from './channel';
import { frameError } from './channel';
import type { FrameDocuments } from './documents';

type SurfaceNotice = FrameNotice<'surface'>;

export class RuntimeState {
  granted: string[];
  activeChat: string | null;
  messageIds: string[];
  /** Which of them the person wrote. */
  userMessageIds: ReadonlySet<string>;
  /** What it may read of the app at once (ctx.state, ctx.host.surfaces), as the app last told it. */
  hostState: HostState;
  private seq = 0;
  private readonly said = new Set<string>();
  private readonly surfaceListeners = new Map<string, Set<(notice: SurfaceNotice) => void>>();
  /** Surfaces whose drawn box the app uses (chromeless floats take the pointer only where they draw). */
  readonly drawnWanted = new Set<string>();
  /** Undone at teardown, last first: surfaces, subscriptions, styles. */
  private readonly cleanups: Array<() => void> = [];

  constructor(
    readonly extensionId: string,
    readonly channel: FrameChannel,
    readonly docs: FrameDocuments,
    init: { granted: string[]; activeChat: string | null; messageIds: string[]; userMessageIds?: string[]; hostState: HostState },
  ) {
    this.granted = init.granted;
    this.hostState = init.hostState;
    this.activeChat = init.activeChat;
    this.messageIds = init.messageIds;
    this.userMessageIds = new Set(init.userMessageIds ?? []);
    channel.on('surface', (notice) => this.emitSurface(notice));
    // Before any reader's own listener: each reads the new state when it hears of it.
    channel.on('hostState', (notice) => void (this.hostState = notice));
    channel.on('activeChat', ({ chatId, messageIds, userMessageIds }) => {
      this.activeChat = chatId;
      this.messageIds = messageIds;
      this.userMessageIds = new Set(userMessageIds ?? []);
    });
  }

  nextId(kind: string): string {
    return `${kind}-${++this.seq}`;
  }

  /** The sandbox page of this origin (public/sandbox.html, served under /__cw/). */
  get sandboxUrl(): string {
    return new URL('/__cw/sandbox.html', location.href).href;
  }

  /** Lumiverse throws at once when a placement's permission is missing. */
  require(permission: string, operation: string): void {
    if (!this.granted.includes(permission)) throw frameError('PERMISSION_DENIED', `PERMISSION_DENIED:${permission} — ${operation} needs the ${permission} permission.`);
  }

  /** Something the Workbench has no place for: said once (and listed on the extension's card). A `window.` member is the page's own, not ctx's. */
  inert(member: string): void {
    if (this.said.has(member)) return;
    this.said.add(member);
    console.info(`[Council Workbench] ${member.startsWith('window.') ? '' : 'ctx.'}${member} is not available here.`);
    this.channel.send('frame.inert', { member });
  }

  /**
   * The page's native dialogs: Chromium answers a frame sandboxed without allow-modals at once, showing nothing (its
   * frame cannot cover the app). The answers stay the same — alert nothing, confirm false, prompt null — and the
   * extension's card lists what it asked, so the person and its author see why a confirmed step never happens. An
   * alert's message is shown, as a toast with the extension's name (aislop reports its failures with alert()).
   */
  quietDialogs(win: Window): void {
    const answers = { alert: undefined, confirm: false, prompt: null } as const;
    for (const [name, answer] of Object.entries(answers)) {
      Object.defineProperty(win, name, {
        configurable: true,
        writable: true,
        value: (message?: unknown) => {
          // A shown alert is no missing member; an empty one, a confirm or a prompt is.
          if (name === 'alert' && message !== undefined) this.channel.send('frame.alert', { message: String(message).slice(0, ALERT_CHARS) });
          else this.inert(`window.${name}`);
          return answer;
        },
      });
    }
  }

  unsupported(member: string): Error {
    this.inert(member);
    return frameError('UNSUPPORTED_HERE', `ctx.${member} is not available in the Council Workbench.`);
  }

  /** A surface notice the frame itself concludes (a drawer tab became the shown one). */
  emitSurface(notice: SurfaceNotice): void {
    for (const listener of this.surfaceListeners.get(notice.surfaceId) ?? []) listener(notice);
  }

  onSurface(surfaceId: string, listener: (notice: SurfaceNotice) => void): () => void {
    let set = this.surfaceListeners.get(surfaceId);
    if (!set) this.surfaceListeners.set(surfaceId, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  forgetSurface(surfaceId: string): void {
    this.surfaceListeners.delete(surfaceId);
    this.drawnWanted.delete(surfaceId);
    this.docs.forget(surfaceId);
  }

  atTeardown(cleanup: () => void): () => void {
    this.cleanups.push(cleanup);
    return () => {
      const at = this.cleanups.indexOf(cleanup);
      if (at >= 0) this.cleanups.splice(at, 1);
    };
  }

  runCleanups(): void {
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        cleanup();
      } catch (err) {
        console.error(err);
      }
    }
  }
}
