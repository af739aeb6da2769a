// ctx.dom.findMessageElement(id): an element shown with that message in the chat, as Lumiverse's is — the root of
// a frame of the extension's own origin that the app places under the message once something is put in it (a
// frame per message only where one is needed). What is injected there is sanitized and themed as in any of its
// documents, its height follows what it holds, and getMessageId finds the message from anything inside it.
// Those places also stand in for Lumiverse's message list, where decorators look for messages on its page: a
// `[data-component="MessageList"]` holding a `[data-message-id]` row for each of the newest messages (a new one is
// appended as it comes, for a MutationObserver to hear), each with its card (`[data-component="BubbleMessage"]`) and
// action bar (`[data-component="BubbleActions"]`). Those parts of Lumiverse's are never drawn; a button or a badge
// the extension's code puts in them is, under the message.
import type { RuntimeState } from './runtime-state';

/** listMessageElements and the message list hold the newest messages' places, as many as a chat's window holds and more. */
const LISTED = 100;
/** Message places kept at once; past this the oldest empty ones go. */
const MAX_PLACES = 1000;

export function createMessageSurfaces(state: RuntimeState) {
  const doc = state.docs.holder.ownerDocument;
  const roots = new Map<string, { root: HTMLElement; surfaceId: string }>();
  const shown = new Set<string>();
  const byRoot = new Map<Node, { messageId: string; surfaceId: string }>();
  /** Lumiverse's own parts of a row: they make no frame show, and draw nothing. */
  const skeleton = new WeakSet<Node>();
  const list = doc.createElement('div');
  for (const [key, value] of Object.entries({ 'data-component': 'MessageList', 'data-chat-scroll': 'true', 'data-group-chat': 'false' })) list.setAttribute(key, value);
  state.docs.holder.appendChild(list);

  /** Whether the extension put something of its own in a row (its own node anywhere among Lumiverse's parts). */
  const theirs = (node: Node): boolean => [...node.childNodes].some((child) => !skeleton.has(child) || theirs(child));
  const rootOf = (node: Node): Node | null => {
    for (let at: Node | null = node; at; at = at.parentNode) if (byRoot.has(at)) return at;
    return null;
  };
  const show = (target: Node) => {
    const root = rootOf(target);
    const surface = root && byRoot.get(root);
    if (!surface || shown.has(surface.surfaceId) || !theirs(root)) return;
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

  /** Lumiverse's card of a message with its action bar, as its BubbleMessage renders them. */
  const seed = (root: HTMLElement, messageId: string) => {
    const part = (attrs: Record<string, string>, ...children: Node[]) => {
      const el = doc.createElement('div');
      for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
      el.append(...children);
      skeleton.add(el);
      return el;
    };
    const actions = part({ 'data-component': 'BubbleActions', 'data-spindle-mount': 'message_actions' });
    root.setAttribute('data-item-type', 'message');
    const author = state.userMessageIds.has(messageId) ? 'user' : 'character';
    root.append(part({ 'data-component': 'BubbleMessage', 'data-part': author, 'data-message-id': messageId }, part({ 'data-component': 'MessageContent' }), actions));
  };

  // Any id of the open chat's messages, the newest too: an event names it before the app's list of ids has it.
  const element = (id: unknown): HTMLElement | null => {
    const messageId = typeof id === 'string' || typeof id === 'number' ? String(id) : '';
    if (!messageId || messageId.length > 128 || state.activeChat === null) return null;
    let entry = roots.get(messageId);
    if (!entry) {
      if (roots.size >= MAX_PLACES) {
        const oldestEmpty = [...roots].find(([, e]) => !theirs(e.root));
        drop(oldestEmpty ? oldestEmpty[0] : roots.keys().next().value!);
      }
      const surfaceId = state.nextId('message');
      const root = state.docs.root(surfaceId, state.extensionId);
      root.setAttribute('data-message-id', messageId);
      seed(root, messageId);
      list.appendChild(root);
      entry = { root, surfaceId };
      roots.set(messageId, entry);
      byRoot.set(root, { messageId, surfaceId });
      observer.observe(root, { childList: true, subtree: true });
    }
    return entry.root;
  };

  /** The list's rows: the newest messages, in order, each with its index (a new one appended for observers to hear). */
  const sync = (messageIds: string[]) => {
    const ids = messageIds.slice(-LISTED);
    const first = messageIds.length - ids.length;
    ids.forEach((id, i) => element(id)?.setAttribute('data-message-index', String(first + i)));
  };
  // Another chat: the last one's places go with it. More messages: their rows come.
  let chat = state.activeChat;
  state.channel.on('activeChat', ({ chatId, messageIds }) => {
    if (chatId !== chat) dropAll();
    chat = chatId;
    if (chatId !== null) sync(messageIds);
  });
  sync(state.messageIds);
  state.atTeardown(() => {
    observer.disconnect();
    dropAll();
    list.remove();
  });
  return {
    element,
    // Lumiverse's shape (SpindleMessageElement): decorators write `for (const { messageId, element } of …)`.
    all: (): Array<{ messageId: string; element: HTMLElement }> =>
      state.messageIds.slice(-LISTED).map((messageId) => ({ messageId, element: element(messageId)! })),
  };
}
