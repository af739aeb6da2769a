// The runtime frame of every running extension with a frontend (hidden: its places are separate frames), the
// broker that answers it, and the host's news each frame hears: events, backend messages, permission
// changes, the active chat and the theme. A frontend loads when its extension runs and the window is
// open, and is torn down when it stops (disable, removal, revoke of what it used, reload).
import { useEffect, useMemo, useRef, useState } from 'react';
import type { HostState } from '../../../../shared/frames/host-state';
import type { ExtensionInfo } from '../../../../shared/contract/events';
import { frameOrigin } from '../../../../shared/frames/frame-origin';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { selectExtensions, selectSection, selectTheme } from '../../stores/app/selectors';
import type { AppState } from '../../stores/app/app-store';
import { watchDrawer } from './drawer-news';
import { initialHostState, measureChat, watchHostState } from './host-state-news';
import { FrameBroker } from './frame-broker';
import { tellFrames } from './frame-events';
import { tellComposer } from './composer-news';
import { tellChatView } from './chat-view-news';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { frontendsActions } from './frontends-store';
import { lumiverseThemeVars } from './lumiverse-theme';
import { EarlyBackendMessages } from './early-backend';
import { boxesClip } from './drawn-clip';
import { FRAME_SANDBOX, frameUrl } from './SurfaceFrame';

/** The open chat's message ids as frames hear them, and which of them the person wrote. */
const chatMessages = (chat: AppState['chat']) => {
  const messages = chat.open?.messages ?? [];
  return { messageIds: messages.map((m) => m.id), userMessageIds: messages.filter((m) => m.role === 'user').map((m) => m.id) };
};

const originOf = (id: string) => frameOrigin(id, { protocol: location.protocol, port: location.port });
/** What each extension is granted now. */
const grantedOf = (appStore: ReturnType<typeof useAppStoreApi>) => (id: string) => appStore.getState().extensions.items.find((e) => e.id === id)?.granted ?? [];

function RuntimeFrame(props: { extension: ExtensionInfo; entry: string; hostState: () => HostState; early: EarlyBackendMessages; onStopped(): void }) {
  const host = useHost();
  const appStore = useAppStoreApi();
  const { store, brokers } = useFrontends();
  const ref = useRef<HTMLIFrameElement>(null);
  const { id } = props.extension;
  // What its code appended to its page's body shows where it draws, below the app's floats and dialogs. Where something
  // takes the pointer, the frame shows there only (one frame cannot let clicks through in part); when nothing does,
  // it shows all it draws and the pointer passes to the app — over the chat only: elsewhere a picture the person clicks
  // through could dress the app's own controls (a grant, a key) as something else.
  const boxes = useFrontendsStore((s) => s.layers[id]);
  const inChat = useAppStore(selectSection) === 'workbench';
  const active = boxes?.filter((b) => !b.passive) ?? [];
  const layer = active.length > 0 ? active : inChat && boxes !== undefined && boxes.length > 0 ? boxes : null;
  const passive = layer !== null && active.length === 0;
  // While it takes the pointer somewhere over the chat (a popover it opened), a press in the app is a press outside
  // it; elsewhere (where grants and keys are) it hears nothing.
  const takesPointer = active.length > 0 && inChat;
  useEffect(() => {
    if (!takesPointer) return;
    const press = () => brokers.get(id)?.notify('outsidePress', {});
    document.addEventListener('pointerdown', press, true);
    return () => document.removeEventListener('pointerdown', press, true);
  }, [takesPointer, brokers, id]);

  const load = () => {
    const win = ref.current?.contentWindow;
    // Its page loaded again under a running broker (its code navigated it): what it showed is gone with the old page.
    if (win && brokers.has(id)) store.setState((s) => ({ layers: { ...s.layers, [id]: [] } }));
    if (!win || brokers.has(id)) return;
    const chat = appStore.getState().chat;
    const broker = new FrameBroker(id, {
      store,
      host,
      granted: () => [...grantedOf(appStore)(id)],
      init: () => ({
        extensionId: id,
        granted: [...props.extension.granted],
        activeChat: chat.openId,
        ...chatMessages(chat),
        theme: lumiverseThemeVars(),
        manifest: { identifier: id, name: props.extension.name, version: props.extension.version, description: props.extension.description, permissions: [...props.extension.requested] },
        hostState: props.hostState(),
      }),
      activeConnection: () => {
        const { chat, settings } = appStore.getState();
        return chat.open?.connectionId || settings?.chat?.mainConnectionId || null;
      },
      onStopped: () => {
        brokers.delete(id);
        props.onStopped();
      },
    });
    brokers.set(id, broker);
    frontendsActions.clearProblem(store, id);
    win.postMessage({ cw: 'frame-init', entry: props.entry }, originOf(id), [broker.transfer]);
    broker.start();
    // What its backend sent while the page loaded, in order (its frame queues them until setup says ready).
    for (const payload of props.early.take(id)) broker.notify('backend', { payload });
    // Before its module runs: its code finds the message box's stand-in and the chat's at setup, as on Lumiverse's page.
    tellComposer([broker], grantedOf(appStore), store.getState());
    tellChatView([broker], store.getState());
  };

  return (
    <iframe
      ref={ref}
      className={layer ? `runtime-frame runtime-frame--layer${passive ? ' runtime-frame--passive' : ''}` : 'runtime-frame'}
      title={`${props.extension.name} (extension frontend)`}
      aria-hidden={layer && !passive ? undefined : true}
      tabIndex={layer && !passive ? 0 : -1}
      style={layer ? { clipPath: boxesClip(layer) } : undefined}
      src={frameUrl(id, 'runtime')}
      sandbox={FRAME_SANDBOX}
      referrerPolicy="no-referrer"
      data-extension-id={id}
      onLoad={load}
    />
  );
}

/** Hands host events to the brokers: the one home of that routing. Answers the state a frame starts from. */
function useHostNews(early: EarlyBackendMessages): (id: string) => HostState {
  const host = useHost();
  const appStore = useAppStoreApi();
  const { store, brokers } = useFrontends();
  const theme = useAppStore(selectTheme);
  useEffect(() => {
    const granted = new Map(appStore.getState().extensions.items.map((e) => [e.id, e.granted]));
    return host.onEvent((event) => {
      if (event.type === 'extension.event') tellFrames(brokers, grantedOf(appStore), event.event, event.payload);
      else if (event.type === 'extension.frontend-message') {
        const broker = brokers.get(event.id);
        if (broker) broker.notify('backend', { payload: event.payload });
        // Its frame is still loading: held for it (an extension without a running frontend has nothing to hold for).
        else if (appStore.getState().extensions.items.some((e) => e.id === event.id && e.frontend?.runs)) early.hold(event.id, event.payload);
      }
      else if (event.type === 'extension.changed') {
        const { id } = event.extension;
        const before = granted.get(id) ?? [];
        const after = event.extension.granted;
        granted.set(id, after);
        const broker = brokers.get(id);
        if (!broker) return;
        const changed = [...before.filter((p) => !after.includes(p)), ...after.filter((p) => !before.includes(p))];
        if (changed.length === 0) return;
        broker.notify('permissions', { granted: [...after] });
        tellComposer([broker], () => after, store.getState());
        for (const permission of changed) {
          broker.notify('event', { event: 'SPINDLE_PERMISSION_CHANGED', payload: { extensionId: id, permission, granted: after.includes(permission), allGranted: [...after] } });
        }
        // A revoke takes away what it allowed: the frontend is torn down and loads again with what is left.
        if (before.some((p) => !after.includes(p))) broker.stop();
      }
    });
  }, [host, appStore, store, brokers, early]);
  // The active chat and its messages: getActiveChat() and the message ids answer from it.
  useEffect(
    () =>
      appStore.subscribe((state, previous) => {
        const chat = state.chat;
        if (chat.openId === previous.chat.openId && chat.open?.messages === previous.chat.open?.messages) return;
        const news = { chatId: chat.openId, ...chatMessages(chat) };
        for (const broker of brokers.values()) broker.notify('activeChat', news);
      }),
    [appStore, brokers],
  );
  // The message box (only those granted generation hear of it).
  useEffect(() => store.subscribe((state, previous) => state.composer !== previous.composer && tellComposer(brokers.values(), grantedOf(appStore), state)), [store, brokers, appStore]);
  // Where the open chat shows (every frontend: its ChatView stand-in).
  useEffect(() => store.subscribe((state, previous) => state.chatView !== previous.chatView && tellChatView(brokers.values(), state)), [store, brokers]);
  // The extensions panel (shown only in the Workbench): which tab, open or not.
  const section = useAppStore(selectSection);
  const sectionRef = useRef(section);
  sectionRef.current = section;
  const drawer = useRef<ReturnType<typeof watchDrawer> | null>(null);
  useEffect(() => {
    const watch = (drawer.current = watchDrawer(store, brokers, () => sectionRef.current === 'workbench'));
    return () => watch.stop();
  }, [store, brokers]);
  useEffect(() => drawer.current?.update(), [section]);
  // What frames read at once (ctx.state, ctx.host.surfaces): told after each burst of store changes, and when the
  // window is resized (the chat is measured then, only while some frontend runs).
  const sources = useMemo(
    () => ({ app: appStore, frontends: store, brokers, granted: grantedOf(appStore), drawerShown: () => sectionRef.current === 'workbench', layout: () => measureChat(document) }),
    [appStore, store, brokers],
  );
  useEffect(() => {
    const watch = watchHostState(sources);
    addEventListener('resize', watch.update);
    return () => {
      watch.stop();
      removeEventListener('resize', watch.update);
    };
  }, [sources]);
  // Light or dark: the frames get the resolved theme after the page has switched.
  useEffect(() => {
    // No frontend runs: nothing to tell (a frame that starts later gets the theme with its init).
    if (brokers.size === 0) return;
    const frame = requestAnimationFrame(() => {
      const vars = lumiverseThemeVars();
      for (const broker of brokers.values()) broker.notify('theme', { vars });
    });
    return () => cancelAnimationFrame(frame);
  }, [theme, brokers]);
  return (id) => initialHostState(sources, id);
}

export function FrontendFrames() {
  const extensions = useAppStore(selectExtensions);
  const { store, brokers } = useFrontends();
  const problems = useFrontendsStore((s) => s.problems);
  /** Frames shown: the extensions that should run a frontend, and those still tearing down. */
  const [frames, setFrames] = useState<Map<string, { extension: ExtensionInfo; entry: string }>>(new Map());
  const [early] = useState(() => new EarlyBackendMessages());
  const hostStateOf = useHostNews(early);

  const stopped = (id: string) =>
    setFrames((current) => {
      const next = new Map(current);
      next.delete(id);
      return next;
    });

  useEffect(() => {
    // A frontend stopped for a problem stays stopped until its extension starts again.
    for (const e of extensions) if (!e.frontend?.runs && problems[e.id]) frontendsActions.clearProblem(store, e.id);
    const wanted = new Map(extensions.filter((e) => e.frontend?.runs && !problems[e.id]).map((e) => [e.id, e]));
    setFrames((current) => {
      let next = current;
      for (const [id, extension] of wanted) {
        if (next.has(id)) continue;
        next = new Map(next).set(id, { extension, entry: extension.frontend!.entry });
      }
      return next;
    });
    for (const id of frames.keys()) {
      if (wanted.has(id)) continue;
      early.forget(id);
      // A loaded frame goes once its broker has torn it down; one whose page never loaded has no broker: it goes now
      // (left, its page would load later and start a frontend for a stopped extension).
      const broker = brokers.get(id);
      if (broker) broker.stop();
      else stopped(id);
    }
  }, [extensions, frames, brokers, problems, store, early]);

  return (
    <div className="runtime-frames">
      {[...frames].map(([id, { extension, entry }]) => (
        <RuntimeFrame key={id} extension={extension} entry={entry} hostState={() => hostStateOf(id)} early={early} onStopped={() => stopped(id)} />
      ))}
    </div>
  );
}
