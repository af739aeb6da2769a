// Lumiverse's ChatView, where frontends written for its page look for the chat: `[data-component="ChatView"]` with its
// body surface (`[data-lumiverse-surface="chat-body"]`) inside, placed where the Workbench's chat shows, as the app
// says (its `chatView` notice), and gone while no chat shows. Lumi Flair hangs its weather and light in it; since the
// stand-in itself draws nothing and takes no pointer, only what the extension's code puts in it shows (body-layer.ts:
// a layer of drops that takes no pointer leaves the chat under it answering).
import type { FrameChannel } from './channel';

const STYLE = `[data-cw-chat-view] { position: fixed; box-sizing: border-box; margin: 0; padding: 0; overflow: hidden; pointer-events: none; }
[data-cw-chat-view] > [data-lumiverse-surface="chat-body"] { position: absolute; inset: 0; }`;

/** The stand-in of `doc`'s ChatView, placed as the app's `chatView` notices say. */
export function createChatViewStandIn(doc: Document, channel: FrameChannel, atTeardown: (cleanup: () => void) => void): void {
  const body = doc.createElement('div');
  body.setAttribute('data-lumiverse-surface', 'chat-body');
  const view = doc.createElement('div');
  view.setAttribute('data-component', 'ChatView');
  view.setAttribute('data-cw-chat-view', '');
  view.append(body);
  const style = doc.createElement('style');
  style.textContent = STYLE;
  doc.head.appendChild(style);
  channel.on('chatView', ({ place }) => {
    if (!place) return view.remove();
    Object.assign(view.style, { left: `${place.x}px`, top: `${place.y}px`, width: `${place.width}px`, height: `${place.height}px` });
    if (!view.isConnected) doc.body.appendChild(view);
  });
  atTeardown(() => {
    view.remove();
    style.remove();
  });
}
