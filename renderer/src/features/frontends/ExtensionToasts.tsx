// Toasts extensions' backends asked for (spindle.toast.*), and their frontends' alert(): at the window's bottom right, above the status
// bar, with the extension's name, as text; each goes after its time or when dismissed, newest last. A notification
// (spindle.push.send) is the system's while the window is not in front, if the system lets the window notify; else,
// and while it is in front, a toast too.
import { useEffect, useState } from 'react';
import type { ExtensionToast } from '../../../../shared/spindle/toast';
import { Icon } from '../../components/Icon';
import { useAppStoreApi, useHost } from '../../app/context';
import { openSession } from '../../stores/chat/chat-commands';
import { onLocalToast } from './local-toasts';

/** More than this and the oldest goes: a busy extension never fills the window. */
const MAX_SHOWN = 4;

interface Shown extends ExtensionToast {
  key: number;
  extensionId: string;
  from: string;
}

/** Shows `toast` as the system's notification when the window is not in front and may notify; whether it did. */
function notified(toast: ExtensionToast, extensionId: string, from: string, onClick: () => void): boolean {
  if (document.hasFocus() || typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  // A tag replaces the extension's own earlier notification, never another's.
  const note = new Notification(toast.title ? `${from}: ${toast.title}` : from, { body: toast.message, ...(toast.push?.tag ? { tag: `${extensionId}:${toast.push.tag}` } : {}) });
  note.onclick = () => {
    window.focus();
    onClick();
  };
  return true;
}

export function ExtensionToasts() {
  const host = useHost();
  const appStore = useAppStoreApi();
  const [toasts, setToasts] = useState<Shown[]>([]);
  useEffect(() => {
    let seq = 0;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const show = (id: string, toast: ExtensionToast) => {
      const from = appStore.getState().extensions.items.find((e) => e.id === id)?.name ?? id;
      if (toast.push && notified(toast, id, from, () => void (toast.push?.chatId && openChat(toast.push.chatId)))) return;
      const key = ++seq;
      setToasts((list) => [...list, { ...toast, key, extensionId: id, from }].slice(-MAX_SHOWN));
      const timer = setTimeout(() => {
        timers.delete(timer);
        setToasts((list) => list.filter((t) => t.key !== key));
      }, toast.durationMs);
      timers.add(timer);
    };
    const off = host.onEvent((event) => event.type === 'extension.toast' && show(event.id, event.toast));
    // Its frontend's alert() (local-toasts.ts).
    const offLocal = onLocalToast(show);
    return () => {
      off();
      offLocal();
      for (const timer of timers) clearTimeout(timer);
    };
  }, [host, appStore]);
  const openChat = (chatId: string) => {
    appStore.getState().sectionSelected('workbench');
    void openSession(appStore, host, chatId);
  };
  if (toasts.length === 0) return null;
  return (
    <div className="ext-toasts" aria-label="Extension notices">
      {toasts.map((t) => (
        <div key={t.key} className={`ext-toast ext-toast--${t.level}`} role={t.level === 'error' ? 'alert' : 'status'} data-extension-id={t.extensionId} data-testid="extension-toast">
          <div className="ext-toast__text">
            <span className="ext-toast__from">{t.from}</span>
            {t.title && <strong className="ext-toast__title">{t.title}</strong>}
            <span>{t.message}</span>
          </div>
          <button type="button" className="btn btn--small btn--ghost" aria-label="Dismiss" onClick={() => setToasts((list) => list.filter((x) => x.key !== t.key))}>
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
