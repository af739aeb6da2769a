// ctx.dom.findMessageElement(id): an element shown with that message in the chat, as Lumiverse's is — the root of
// a frame of the extension's own origin that the app places under the message once something is put in it (a
// frame per message only where one is needed). What is injected there is sanitized and themed as in any of its
// documents, its height follows what it holds, and getMessageId finds the message from anything inside it.
import type { RuntimeState } from './runtime-state';

/** listMessageElements answers the newest messages' places, as many as a chat's window holds and more. */
const LISTED = 100;
/** Message places kept at once; past this the oldest empty ones go. */
const MAX_PLACES = 1000;

export function createMessageSurfaces(state: RuntimeState) {
  const roots = new Map<string, { root: HTMLElement; surfaceId: string }>();
  const shown = new Set<string>();
  const byRoot = new Map<Node, { messageId: string; surfaceId: string }>();
  const show = (target: Node) => {
    const surface = byRoot.get(target);
    if (!surface || shown.has(surface.surfaceId) || !target.hasChildNodes()) return;
    shown.add(surface.surfaceId);
    state.channel.send('surface.open', { surfaceId: surface.surfaceId, kind: 'message', options: { messageId: surface.messageId } });
  };
  const observer = new MutationObserver((records) => records.forEach((record) => show(record.target)));
  const drop = (messageId: string) => {
    const entry = roots.get(messageId)!;
    if (shown.delete(entry.surfaceId)) state.channel.send('surface.close', { surfaceId: entry.surfaceId });
    state.forgetSurface(entry.surfaceId);
    byRoot.delete(entry.root);
    roots.delete(messageId);
  };
  const dropAll = () => [...roots.keys()].forEach(drop);
  // Another chat: the places of the last one's messages go with it.
  let chat = state.activeChat;
  state.channel.on('activeChat', ({ chatId }) => {
    if (chatId !== chat) dropAll();
    chat = chatId;
  });
  state.atTeardown(() => {
    observer.disconnect();
    dropAll();
  });

  // Any id of the open chat's messages, the newest too: an event names it before the app's list of ids has it.
  const element = (id: unknown): HTMLElement | null => {
    const messageId = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
    if (!messageId || messageId.length > 128 || state.activeChat === null) return null;
    let entry = roots.get(messageId);
    if (!entry) {
      if (roots.size >= MAX_PLACES) {
        const oldestEmpty = [...roots].find(([, e]) => !e.root.hasChildNodes());
        drop(oldestEmpty ? oldestEmpty[0] : roots.keys().next().value!);
      }
      const surfaceId = state.nextId('message');
      const root = state.docs.root(surfaceId, state.extensionId);
      root.setAttribute('data-message-id', messageId);
      entry = { root, surfaceId };
      roots.set(messageId, entry);
      byRoot.set(root, { messageId, surfaceId });
      observer.observe(root, { childList: true });
    }
    return entry.root;
  };
  return {
    element,
    // Lumiverse's shape (SpindleMessageElement): decorators write `for (const { messageId, element } of …)`.
    all: (): Array<{ messageId: string; element: HTMLElement }> =>
      state.messageIds.slice(-LISTED).map((messageId) => ({ messageId, element: element(messageId)! })),
  };
}
