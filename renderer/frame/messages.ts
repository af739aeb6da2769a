// ctx.messages: tags in chat messages its interceptors asked for, widgets it renders under a message
// (the app shows them as sandbox frames there), and the ids of the active chat's messages.
import type { RuntimeState } from './runtime-state';

export function createMessages(state: RuntimeState) {
  const widgetHandlers = new Map<string, (payload: unknown) => void>();
  state.channel.on('widget', (notice) => widgetHandlers.get(`${notice.messageId}\u0000${notice.widgetId}`)?.(notice.payload));
  return {
    registerTagInterceptor(options: { tagName: string; attrs?: Record<string, string>; removeFromMessage?: boolean }, handler: (payload: unknown) => void): () => void {
      const interceptorId = state.nextId('tag');
      // attrs: only tags carrying these attribute values are its own (LTracker's <ltracker type="state">).
      const attrs = options?.attrs && typeof options.attrs === 'object' ? Object.fromEntries(Object.entries(options.attrs).map(([key, value]) => [key, String(value)])) : null;
      state.channel.send('messages.interceptTags', {
        interceptorId,
        tagName: String(options?.tagName ?? ''),
        ...(attrs ? { attrs } : {}),
        ...(options?.removeFromMessage === false ? { removeFromMessage: false } : {}),
      });
      const off = state.channel.on('tag', (notice) => {
        if (notice.interceptorId !== interceptorId) return;
        const { interceptorId: _id, ...payload } = notice;
        handler({ extensionId: state.extensionId, ...payload });
      });
      const remove = () => {
        off();
        undo();
        state.channel.send('messages.stopIntercepting', { interceptorId });
      };
      const undo = state.atTeardown(remove);
      return remove;
    },
    renderWidget(options: { messageId: string; widgetId: string; html: string; minHeight?: number; maxHeight?: number }, handler?: (payload: unknown) => void): () => void {
      const key = `${options.messageId}\u0000${options.widgetId}`;
      if (handler) widgetHandlers.set(key, handler);
      state.channel.send('messages.renderWidget', {
        messageId: String(options.messageId),
        widgetId: String(options.widgetId),
        html: String(options.html ?? ''),
        ...(typeof options.minHeight === 'number' ? { minHeight: options.minHeight } : {}),
        ...(typeof options.maxHeight === 'number' ? { maxHeight: options.maxHeight } : {}),
      });
      return () => {
        widgetHandlers.delete(key);
        state.channel.send('messages.removeWidget', { messageId: String(options.messageId), widgetId: String(options.widgetId) });
      };
    },
    removeWidget(messageId: string, widgetId: string) {
      widgetHandlers.delete(`${messageId}\u0000${widgetId}`);
      state.channel.send('messages.removeWidget', { messageId: String(messageId), widgetId: String(widgetId) });
    },
    getLatestMessageId: () => state.messageIds.at(-1) ?? null,
    // As Lumiverse's: -1 is the last, -2 the one before it; past either end, null.
    getMessageIdAtIndex: (index: number) => (Number.isInteger(index) ? (state.messageIds.at(index) ?? null) : null),
    listMessageIds: () => [...state.messageIds],
  };
}
