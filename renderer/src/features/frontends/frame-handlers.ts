// What the app does for each request a frame may make: one handler per method of the frame contract, typed by
// it (params in, result out), run once the broker has checked the request against the contract and the rate.
import { showLocalToast } from './local-toasts';
import type { FrameError, FrameMethod, FrameParams, FrameResult, SurfaceKind } from '../../../../shared/frames/frame-contract';
import { checkJsonBudget } from '../../../../shared/json-budget';
import { frontendMessageRefusal, MAX_FRONTEND_MESSAGE_CHARS } from '../../../../shared/limits';
import type { BrokerDeps } from './frame-broker';
import { copyText } from '../../api/clipboard';
import { frontendsActions, PRESET_TOOLBAR_MOUNT_POINTS, surfaceKey, type DialogKind } from './frontends-store';

/** Places one extension has under messages at once (dom.findMessageElement). */
const MAX_MESSAGE_PLACES = 200;
/** A surface kind and the permission Lumiverse asks of it. */
const SURFACE_PERMISSION: Partial<Record<SurfaceKind, string>> = { float: 'ui_panels', dock: 'ui_panels', app: 'app_manipulation', character: 'characters', preset: 'presets' };
/** How long an extension page's alert() stays shown (the person may dismiss it sooner). */
const ALERT_TOAST_MS = 8000;
/** Alerts of one extension shown in ALERT_WINDOW_MS, as its backend's toasts are limited; the rest are dropped. */
export const MAX_ALERTS = 5;
const ALERT_WINDOW_MS = 10_000;
/** Replies one extension may start from the message box's stand-in in a minute (an auto-retry, not a loop). */
export const MAX_COMPOSER_REPLIES_PER_MINUTE = 30;
/** The most room the message box makes above itself for one extension's pieces. */
export const MAX_COMPOSER_ROOM = 400;

export class Refusal extends Error {
  constructor(readonly error: FrameError) {
    super(error.message);
  }
}

export const refuse = (code: string, message: string): never => {
  throw new Refusal({ code, message });
};

/** What the handlers need of their broker. */
export interface HandlerContext {
  extensionId: string;
  deps: BrokerDeps;
  /** Asks the person (a confirm, a menu, permissions, a file) and resolves with their answer. */
  dialog(kind: DialogKind, params: object): Promise<unknown>;
  stop(problem: string): void;
  ponged(): void;
  tornDown(): void;
}

export type FrameHandlers = { [M in FrameMethod]: (params: FrameParams<M>) => FrameResult<M> | Promise<FrameResult<M>> };

export function frameHandlers(ctx: HandlerContext): FrameHandlers {
  const { extensionId, deps } = ctx;
  const store = deps.store;
  const key = (surfaceId: string) => surfaceKey(extensionId, surfaceId);
  /** The surface is one this extension opened; another's (or none) is refused. */
  const own = (surfaceId: string) => {
    if (!store.getState().surfaces.some((s) => s.key === key(surfaceId))) refuse('INVALID_INPUT', `No surface ${surfaceId} of this extension.`);
    return key(surfaceId);
  };
  const mine = <T extends { extensionId: string }>(item: T) => item.extensionId === extensionId;
  const now = deps.timers?.now ?? Date.now;
  let replies: number[] = [];
  let alerts: number[] = [];
  /** The message box, for an extension granted generation while the box shows. */
  const composerFor = () => {
    if (!deps.granted().includes('generation')) refuse('PERMISSION_DENIED', 'PERMISSION_DENIED:generation — the message box answers an extension granted generation.');
    return store.getState().composer ?? refuse('INVALID_INPUT', "The chat's message box is not shown.");
  };
  return {
    'frame.ready': () => {
      store.setState((s) => ({ ready: { ...s.ready, [extensionId]: true } }));
      return null;
    },
    'frame.failed': ({ message }) => {
      ctx.stop(`Its frontend failed to start: ${message}`);
      return null;
    },
    'frame.pong': () => {
      ctx.ponged();
      return null;
    },
    'frame.inert': ({ member }) => {
      store.setState((s) => ({ inert: { ...s.inert, [extensionId]: [...new Set([...(s.inert[extensionId] ?? []), member])] } }));
      return null;
    },
    'frame.policy': ({ what }) => {
      frontendsActions.noteRefusal(store, extensionId, `its frame's policy blocked ${what}`);
      return null;
    },
    'frame.alert': ({ message }) => {
      // A page that alerts in a loop shows a few and no more: the window's toasts stay readable for others.
      const at = now();
      alerts = alerts.filter((t) => at - t < ALERT_WINDOW_MS);
      if (alerts.length >= MAX_ALERTS) return null;
      alerts.push(at);
      showLocalToast(extensionId, { level: 'info', message, durationMs: ALERT_TOAST_MS });
      return null;
    },
    'frame.tornDown': () => {
      ctx.tornDown();
      return null;
    },
    'backend.send': async ({ payload }) => {
      // sendToBackend answers nothing, so a refusal is also put on the extension's card, where its author looks.
      const refused = (code: string, message: string): never => {
        frontendsActions.noteRefusal(store, extensionId, `sendToBackend: ${message}`);
        return refuse(code, message);
      };
      // Refused here, at the bridge: measured without serializing it, and never handed to the app's connection.
      const over = checkJsonBudget(payload, { maxBytes: MAX_FRONTEND_MESSAGE_CHARS, maxDepth: 64 });
      if (over) {
        const why = frontendMessageRefusal(over);
        refused(why.code, why.message);
      }
      const sent = await deps.host.invoke('extensions.sendFrontend', { id: extensionId, payload });
      if (!sent.ok) refused(sent.error.code, sent.error.message);
      return null;
    },
    'surface.open': ({ surfaceId, kind, options }) => {
      // The preset editor's toolbar is the preset editor's: a mount there needs presets as its items do.
      const permission = kind === 'mount' && PRESET_TOOLBAR_MOUNT_POINTS.has(options.point ?? '') ? 'presets' : SURFACE_PERMISSION[kind];
      if (permission && !deps.granted().includes(permission)) refuse('PERMISSION_DENIED', `PERMISSION_DENIED:${permission} — a ${kind} surface needs the ${permission} permission.`);
      if (kind === 'message' && store.getState().surfaces.filter((x) => x.extensionId === extensionId && x.kind === 'message').length >= MAX_MESSAGE_PLACES) {
        refuse('INPUT_TOO_LARGE', `An extension has at most ${MAX_MESSAGE_PLACES} places under messages at once.`);
      }
      frontendsActions.openSurface(store, extensionId, surfaceId, kind, options);
      return null;
    },
    'surface.update': ({ surfaceId, patch }) => {
      frontendsActions.updateSurface(store, own(surfaceId), patch);
      return null;
    },
    'surface.contentHeight': ({ surfaceId, height }) => {
      frontendsActions.setContentHeight(store, own(surfaceId), height);
      return null;
    },
    'surface.drawnBox': ({ surfaceId, box }) => {
      frontendsActions.setDrawnBox(store, own(surfaceId), box);
      return null;
    },
    'surface.activate': ({ surfaceId }) => {
      // Its onActivate hears of it through the drawer news (drawer-news.ts), as a click on the tab.
      store.setState({ activeTab: own(surfaceId), drawerOpen: true });
      return null;
    },
    'surface.close': ({ surfaceId }) => {
      frontendsActions.closeSurface(store, key(surfaceId));
      return null;
    },
    'inputAction.set': (action) => {
      store.setState((s) => ({ actions: [...s.actions.filter((a) => !(mine(a) && a.actionId === action.actionId)), { ...action, extensionId }] }));
      return null;
    },
    'inputAction.remove': ({ actionId }) => {
      store.setState((s) => ({ actions: s.actions.filter((a) => !(mine(a) && a.actionId === actionId)) }));
      return null;
    },
    'dialog.confirm': (params) => ctx.dialog('confirm', params) as Promise<FrameResult<'dialog.confirm'>>,
    'dialog.contextMenu': (params) => ctx.dialog('contextMenu', params) as Promise<FrameResult<'dialog.contextMenu'>>,
    'permissions.request': async (params) => {
      // The person decides (a refusal rejects, as Lumiverse's does); what they allow is granted by the host.
      await ctx.dialog('permissions', params);
      let granted = deps.granted();
      for (const permission of params.permissions) {
        if (granted.includes(permission)) continue;
        const result = await deps.host.invoke('extensions.grant', { id: extensionId, permission: permission as never });
        if (!result.ok) refuse(result.error.code, result.error.message);
        else granted = result.value.granted;
      }
      return granted;
    },
    'clipboard.write': async ({ text }) => {
      // As a browser asks of a page: the person's click or key just now (on its place, its menu, anywhere in the window).
      if (!(deps.userActive?.() ?? navigator.userActivation?.isActive === true)) refuse('PERMISSION_DENIED', 'Copying needs the person to have just clicked or typed.');
      if (!(await copyText(deps.host, text))) refuse('UNSUPPORTED_HERE', 'The clipboard could not be written.');
      return null;
    },
    'uploads.pickFile': (params) => ctx.dialog('file', params) as Promise<FrameResult<'uploads.pickFile'>>,
    'connections.models': async ({ connectionId }) => {
      const id = connectionId ?? deps.activeConnection();
      if (!id) return { models: [] };
      const listed = await deps.host.invoke('connections.models', { id });
      if (!listed.ok) return refuse(listed.error.code, listed.error.message);
      return { models: listed.value.models.slice(0, 5000) };
    },
    'messages.interceptTags': ({ interceptorId, tagName, attrs, removeFromMessage }) => {
      store.setState((s) => ({ interceptors: [...s.interceptors, { extensionId, interceptorId, tagName, ...(attrs ? { attrs } : {}), removeFromMessage: removeFromMessage !== false }] }));
      return null;
    },
    'messages.stopIntercepting': ({ interceptorId }) => {
      store.setState((s) => ({ interceptors: s.interceptors.filter((i) => !(mine(i) && i.interceptorId === interceptorId)) }));
      return null;
    },
    'messages.renderWidget': (widget) => {
      const same = (w: { extensionId: string; messageId: string; widgetId: string }) => mine(w) && w.messageId === widget.messageId && w.widgetId === widget.widgetId;
      store.setState((s) => ({ widgets: [...s.widgets.filter((w) => !same(w)), { ...widget, extensionId }] }));
      return null;
    },
    'messages.removeWidget': ({ messageId, widgetId }) => {
      store.setState((s) => ({ widgets: s.widgets.filter((w) => !(mine(w) && w.messageId === messageId && w.widgetId === widgetId)) }));
      return null;
    },
    'page.request': async (request) => {
      const answered = await deps.host.invoke('extensions.pageRequest', { ...request, id: extensionId });
      if (!answered.ok) return refuse(answered.error.code, answered.error.message);
      return answered.value;
    },
    'host.call': async ({ method, args }) => {
      const answered = await deps.host.invoke('extensions.frontendCall', { id: extensionId, method, args });
      if (!answered.ok) return refuse(answered.error.code, answered.error.message);
      return answered.value.value;
    },
    'composer.act': async ({ action, text }) => {
      const box = composerFor();
      if (action === 'draft') return box.control.setDraft(text ?? ''), null;
      // Sending words as the person's message adds to the chat: chat_mutation, as chat.appendMessage asks. An empty box
      // asks only for a reply.
      if (action === 'send' && text?.trim() && !deps.granted().includes('chat_mutation')) refuse('PERMISSION_DENIED', 'PERMISSION_DENIED:chat_mutation — sending a message from the message box needs the chat_mutation permission.');
      if (action !== 'stop' && box.state.generating) refuse('CONFLICT', 'A reply is being written; the message box sends when it has ended.');
      if (action !== 'stop') {
        const at = now();
        replies = replies.filter((t) => at - t < 60_000);
        if (replies.length >= MAX_COMPOSER_REPLIES_PER_MINUTE) refuse('RATE_LIMITED', `An extension may start at most ${MAX_COMPOSER_REPLIES_PER_MINUTE} replies a minute from the message box.`);
        replies.push(at);
      }
      await (action === 'send' ? box.control.send(text ?? '') : box.control[action]());
      return null;
    },
    'composer.room': ({ height }) => {
      if (!deps.granted().includes('generation')) refuse('PERMISSION_DENIED', 'PERMISSION_DENIED:generation — room above the message box is for an extension granted generation.');
      const room = Math.round(Math.min(Math.max(height, 0), MAX_COMPOSER_ROOM));
      if (store.getState().composerRooms[extensionId] !== room) store.setState((s) => ({ composerRooms: { ...s.composerRooms, [extensionId]: room } }));
      return null;
    },
    'runtime.layer': ({ boxes }) => {
      store.setState((s) => ({ layers: { ...s.layers, [extensionId]: boxes } }));
      return null;
    },
  };
}
