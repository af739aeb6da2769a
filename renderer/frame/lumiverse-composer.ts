// Lumiverse's message box, where frontends written for its page look for it: `[data-component="InputArea"]` with the
// mount point above it (`[data-spindle-mount="chat_composer_above"]`), its action bar
// (`[data-spindle-mount="chat_toolbar"]`: Back to home, Regenerate, Continue) and its input row (the
// `textarea[name="chat-message"]`, then the Send button, or Stop while a reply is written), built as Lumiverse's
// InputArea.tsx renders it, with its English labels and CSS-module-like class names. Only an extension granted
// `generation` hears of the Workbench's box (the app tells no other the draft), so only its frame has the stand-in.
// Lumiverse's own parts of it never draw (the person has the Workbench's box); what the extension's code puts in it
// does, in the room the app makes above its box. The draft follows the Workbench's box both ways (with the `input`
// event React's own box would fire), and a click on a button of the stand-in is the person's click on the Workbench's.
import type { FrameNotice } from '../../shared/frames/frame-contract';
import type { FrameChannel } from './channel';

type Notice = FrameNotice<'composer'>;
type Act = 'send' | 'stop' | 'regenerate' | 'continue';

/** Marks Lumiverse's own parts of the box: they take no room and never draw. */
const OWN = 'data-cw-stand-in';
const STYLE = `[${OWN}] { display: none !important; }
[data-cw-composer] { position: fixed; box-sizing: border-box; margin: 0; padding: 0; }
[data-cw-composer] [data-spindle-mount="chat_toolbar"] > div { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; }`;
const SVG = 'http://www.w3.org/2000/svg';

function icon(doc: Document, name: string): SVGElement {
  const svg = doc.createElementNS(SVG, 'svg');
  svg.setAttribute('class', `lucide lucide-${name}`);
  for (const [key, value] of Object.entries({ width: '16', height: '16', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', 'aria-hidden': 'true' })) svg.setAttribute(key, value);
  return svg;
}

export interface ComposerStandIn {
  /** The box while it is placed, else null: its own box is where it draws (body-layer.ts). */
  placed(): Element | null;
}

/** The stand-in of `doc`'s message box, placed and filled as the app's `composer` notices say. */
export function createComposerStandIn(doc: Document, channel: FrameChannel, atTeardown: (cleanup: () => void) => void): ComposerStandIn {
  const own = new WeakSet<Node>();
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string>, ...children: Node[]): HTMLElementTagNameMap[K] => {
    const el = doc.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
    el.append(...children);
    own.add(el);
    return el;
  };
  const hidden = { [OWN]: '' };
  const button = (attrs: Record<string, string>, child: Node) => make('button', { type: 'button', ...attrs }, child);
  const home = button({ ...hidden, class: '_actionBtn_cw1_3', title: 'Back to home' }, icon(doc, 'house'));
  const regenerate = button({ ...hidden, class: '_actionBtn_cw1_3', title: 'Regenerate' }, icon(doc, 'rotate-cw'));
  const carryOn = button({ ...hidden, class: '_actionBtn_cw1_3', title: 'Continue' }, icon(doc, 'corner-down-left'));
  const divider = make('span', { ...hidden, class: '_actionDivider_cw1_4' });
  const bar = make('div', { class: '_actionBar_cw1_2' }, home, divider, regenerate, carryOn);
  const textarea = make('textarea', { name: 'chat-message', 'aria-label': 'Message', placeholder: 'Type a message…', rows: '1', class: '_textarea_cw1_7' });
  const send = button({ class: '_sendBtn_cw1_9' }, make('span', { class: '_sendBtnIcon_cw1_10' }, icon(doc, 'send')));
  const stop = button({ class: '_sendBtn_cw1_9 _sendBtnStop_cw1_11', title: 'Stop generation', 'aria-label': 'Stop generation' }, icon(doc, 'square'));
  const shell = make('div', { class: '_sendBtnShell_cw1_8' }, send);
  const row = make('div', { ...hidden, class: '_inputRow_cw1_5' }, make('div', { class: '_inputWrapper_cw1_6' }, textarea), shell);
  // Spindle's mount point above the composer: Saucepan finds the box (and its input row) from it.
  const above = make('div', { 'data-spindle-mount': 'chat_composer_above' });
  const area = make('div', { 'data-component': 'InputArea', class: '_container_cw1_1' }, above, make('div', { 'data-spindle-mount': 'chat_toolbar' }, bar), row);
  // The chat column InputArea sits in, placed in the room above the Workbench's box: what its code inserts beside
  // InputArea (in its parent, as into Lumiverse's column) lands above the box too, not loose in the page.
  const column = make('div', { 'data-cw-composer': '' }, area);
  const style = make('style', {});
  style.textContent = STYLE;
  doc.head.appendChild(style);

  let last: Notice | null = null;
  /** The draft is being set from the app: its `input` event is not the extension's write. */
  let applying = false;
  const act = (action: Act | 'draft', text?: string) =>
    void channel.request('composer.act', { action, ...(text !== undefined ? { text } : {}) }).catch((err: unknown) => console.warn(`[Council Workbench] the message box refused ${action}:`, err));

  // Lumiverse's labels follow the box as its InputArea re-renders them: Send with a draft, a nudge for a fresh reply without.
  const label = () => {
    const text = textarea.value.trim() ? 'Send message' : 'Nudge for a fresh reply';
    send.setAttribute('aria-label', text);
    send.title = text;
  };
  const render = (notice: Notice) => {
    // Placed first: the draft's input event then reaches the extension's listeners on the document.
    if (!notice.shown || !notice.place) column.remove();
    else {
      Object.assign(column.style, { left: `${notice.place.x}px`, top: `${notice.place.y}px`, width: `${notice.place.width}px` });
      if (!column.isConnected) doc.body.appendChild(column);
    }
    if (textarea.value !== notice.draft) {
      applying = true;
      try {
        textarea.value = notice.draft;
        textarea.dispatchEvent(new Event('input', { bubbles: true }));
      } finally {
        applying = false;
      }
      // Its code rewrote the text as it heard it (React's box would keep that): the Workbench's box takes it too.
      if (textarea.value !== notice.draft) act('draft', textarea.value);
    }
    label();
    // While a reply is written Lumiverse drops Regenerate and Continue, and Stop takes Send's place.
    if (notice.generating) {
      regenerate.remove();
      carryOn.remove();
    } else if (!regenerate.isConnected) divider.after(regenerate, carryOn);
    shell.replaceChildren(notice.generating ? stop : send);
  };
  channel.on('composer', (notice) => {
    last = notice;
    render(notice);
  });

  const written = () => {
    if (applying) return;
    label();
    act('draft', textarea.value);
  };
  textarea.addEventListener('input', written);
  textarea.addEventListener('change', written);
  textarea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      act('send', textarea.value);
    }
  });
  send.addEventListener('click', () => act('send', textarea.value));
  stop.addEventListener('click', () => act('stop'));
  regenerate.addEventListener('click', () => act('regenerate'));
  carryOn.addEventListener('click', () => act('continue'));

  // What its code clones from Lumiverse's parts (a button made like Back to home) is its own, and draws.
  const clones = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        for (const el of [node, ...node.querySelectorAll(`[${OWN}]`)]) if (el.hasAttribute(OWN) && !own.has(el)) el.removeAttribute(OWN);
      }
    }
  });
  clones.observe(column, { childList: true, subtree: true });
  // The room its pieces take above the box, as tall as they draw.
  let room = -1;
  const measure = () => {
    const height = column.isConnected ? Math.ceil(column.getBoundingClientRect().height) : 0;
    if (height === room) return;
    room = height;
    void channel.request('composer.room', { height }).catch(() => undefined);
  };
  const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
  resized?.observe(column);
  const moved = new MutationObserver(measure);
  moved.observe(doc.body, { childList: true });

  atTeardown(() => {
    clones.disconnect();
    moved.disconnect();
    resized?.disconnect();
    column.remove();
    style.remove();
  });
  return { placed: () => (column.isConnected && last?.shown ? column : null) };
}
