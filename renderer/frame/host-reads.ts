// ctx.state and ctx.host.surfaces, as Lumiverse's frontend v2 host answers them: read at once from what the app last
// told this frame (the hostState notice), a subscriber told only of a change (never at once), values copied so the
// extension cannot change what others read. A selector this extension may not read is absent from what it is told:
// reading it throws PERMISSION_DENIED, an unknown one SELECTOR_UNKNOWN, as there.
import { STATE_SELECTORS, type HostState, type HostSurface } from '../../shared/frames/host-state';
import { frameError } from './channel';
import type { RuntimeState } from './runtime-state';
import { tellEach } from './tell-each';
import { routedChat } from './lumiverse-page';

/** Two JSON values alike (the app sends plain data). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A surface reference: `{ kind, id }` (Lumiverse's v2 host), or the id alone (the 0.6.20 types' invoke(surfaceId, …)). */
type SurfaceRef = { kind?: unknown; id?: unknown } | string;

export function createHostReads(state: RuntimeState) {
  const selectorListeners = new Map<string, Set<(value: unknown) => void>>();
  const surfaceListeners = new Set<(surfaces: HostSurface[]) => void>();
  const deepLinks = new Map<string, (params: Record<string, string>) => void>();
  const list = (kinds?: unknown): HostSurface[] => {
    const wanted = Array.isArray(kinds) && kinds.length > 0 ? kinds.map(String) : null;
    return state.hostState.surfaces.filter((s) => !wanted || wanted.includes(s.kind)).map((s) => ({ ...s }));
  };
  let before = state.hostState;
  state.channel.on('hostState', (next: HostState) => {
    const was = before;
    before = next;
    for (const [id, listeners] of selectorListeners) {
      if (id in next.state && !same(was.state[id], next.state[id])) tellEach(listeners, () => structuredClone(next.state[id]));
    }
    if (!same(was.surfaces, next.surfaces)) tellEach(surfaceListeners, () => list());
  });
  const readable = (id: unknown): string => {
    const name = String(id);
    const spec = (STATE_SELECTORS as Record<string, { permission: string | null }>)[name];
    if (!spec) throw frameError('SELECTOR_UNKNOWN', `SELECTOR_UNKNOWN:${name}`);
    if (!(name in state.hostState.state)) throw frameError('PERMISSION_DENIED', `PERMISSION_DENIED:${spec.permission} — ${name} requires the ${spec.permission} permission`);
    return name;
  };
  const listen = <T>(set: Set<T>, listener: T) => {
    set.add(listener);
    let undo = () => undefined as unknown;
    const off = () => {
      set.delete(listener);
      undo();
    };
    undo = state.atTeardown(off);
    return off;
  };

  const stateSelectors = {
    get: (id: string) => structuredClone(state.hostState.state[readable(id)]),
    subscribe(id: string, handler: (value: unknown) => void): () => void {
      const name = readable(id);
      let set = selectorListeners.get(name);
      if (!set) selectorListeners.set(name, (set = new Set()));
      return listen(set, handler);
    },
    list: () => Object.entries(STATE_SELECTORS).map(([id, spec]) => ({ id, permission: spec.permission, description: spec.description })),
  };

  const surfaces = {
    /** At once, as Lumiverse's v2 host answers (Cubby filters the answer without awaiting it). */
    list,
    subscribe: (listener: (surfaces: HostSurface[]) => void) => listen(surfaceListeners, listener),
    /** Opens a drawer tab (a section of the app or an extension's tab); a target goes to this extension's own deep links. */
    async invoke(ref: SurfaceRef, params?: unknown): Promise<null> {
      const target = typeof ref === 'string' ? { kind: 'drawer_tab', id: ref } : { kind: String(ref?.kind ?? ''), id: String(ref?.id ?? '') };
      // A route to a chat (Tapestry's "go to branch") opens it; the Workbench has no other routes to go to.
      const chatId = target.kind === 'route' ? routedChat(target.id) : null;
      if (chatId !== null) return (await state.channel.request('host.call', { method: 'route.openChat', args: [chatId] }), null);
      if (target.kind !== 'drawer_tab') throw frameError('HOST_ACTION_UNMAPPED', `HOST_ACTION_UNMAPPED:${target.kind}:${target.id}`);
      const known = state.hostState.surfaces.find((s) => s.kind === target.kind && s.id === target.id);
      if (!known) throw frameError('HOST_ACTION_UNAVAILABLE', `HOST_ACTION_UNAVAILABLE:${target.kind}:${target.id}`);
      await state.channel.request('host.call', { method: 'ui.openDrawerTab', args: [target.id] });
      const link = params && typeof params === 'object' ? (params as { target?: unknown }).target : undefined;
      if (known.owner === state.extensionId && typeof link === 'string') deepLinks.get(target.id)?.({ target: link });
      return null;
    },
    /** registerDeepLinkTarget(kind, id, handler), or (id, handler): a target another invoke of its own tab carries. */
    registerDeepLinkTarget(...args: unknown[]): () => void {
      const handler = args.find((a) => typeof a === 'function') as ((params: Record<string, string>) => void) | undefined;
      const ids = args.filter((a): a is string => typeof a === 'string');
      const id = ids.at(-1);
      if (!handler || !id) throw frameError('INVALID_INPUT', 'registerDeepLinkTarget takes a tab id and a handler.');
      deepLinks.set(id, handler);
      return () => void (deepLinks.get(id) === handler && deepLinks.delete(id));
    },
  };
  return { state: stateSelectors, surfaces };
}
