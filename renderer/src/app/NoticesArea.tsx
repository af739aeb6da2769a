// Where the user looks first: host notices (dismissed through the host), this window's own errors, and a
// banner when the connection needs the user. All host text renders as text, never as markup.
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Notice } from '../../../shared/notices';
import { Icon } from '../components/Icon';
import { dismissNotice, reconnectHost } from '../stores/commands';
import { selectConnection, selectHostNotices, selectLocalErrors } from '../stores/selectors';
import type { LocalError } from '../stores/notices-slice';
import { useAppStore, useAppStoreApi, useHost } from './context';

const NOTICE_TITLES: Record<string, string> = {
  SETTINGS_RECOVERED: 'Settings file recovered',
};

export function noticeTitle(code: string): string {
  const known = NOTICE_TITLES[code];
  if (known) return known;
  const words = code.toLowerCase().split(/[_\s]+/).filter(Boolean).join(' ');
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Notice';
}

function formatTime(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

function focusMain(): void {
  if (document.activeElement === document.body || !document.activeElement?.isConnected) {
    document.getElementById('main')?.focus();
  }
}

function NoticeCard(props: {
  level: Notice['level'];
  title: string;
  code: string;
  message: string;
  hint?: string | undefined;
  at: number;
  busy?: boolean;
  onDismiss(): void;
}) {
  const time = formatTime(props.at);
  return (
    <li className={`notice notice--${props.level}`} data-testid="notice" data-code={props.code}>
      <Icon name={props.level} className="notice__icon" />
      <div className="notice__content">
        <div className="notice__head">
          <strong className="notice__title">{props.title}</strong>
          <code className="notice__code">{props.code}</code>
          {time && (
            <time className="notice__time" dateTime={new Date(props.at).toISOString()}>
              {time}
            </time>
          )}
        </div>
        <p className="notice__message">{props.message}</p>
        {props.hint && <p className="notice__hint">{props.hint}</p>}
      </div>
      <button type="button" className="btn btn--ghost notice__dismiss" onClick={props.onDismiss} disabled={props.busy} aria-label={`Dismiss: ${props.title}`}>
        <Icon name="close" />
        <span className="notice__dismiss-text">Dismiss</span>
      </button>
    </li>
  );
}

function ConnectionBanner() {
  const host = useHost();
  const connection = useAppStore(selectConnection);
  if (connection.state === 'unauthorized') {
    return (
      <div className="banner banner--error" role="alert" data-testid="connection-banner">
        <Icon name="error" className="banner__icon" />
        <div className="banner__content">
          <strong>This window is not connected to the host.</strong>
          <p>{connection.detail ?? 'The host did not accept this window’s access token.'}</p>
          <p className="banner__hint">
            Open the address the host printed when it started (it ends with <code>#token=…</code>).
          </p>
        </div>
        <button type="button" className="btn" onClick={() => reconnectHost(host)}>
          <Icon name="refresh" /> Try again
        </button>
      </div>
    );
  }
  if (connection.state === 'disconnected' && !connection.willRetry) {
    return (
      <div className="banner banner--warning" role="alert" data-testid="connection-banner">
        <Icon name="warning" className="banner__icon" />
        <div className="banner__content">
          <strong>Lost the connection to the host.</strong>
          <p>{connection.detail ?? 'The host stopped answering.'} The workbench stopped retrying; what you see may be out of date.</p>
        </div>
        <button type="button" className="btn" onClick={() => reconnectHost(host)}>
          <Icon name="refresh" /> Reconnect
        </button>
      </div>
    );
  }
  return null;
}

export function NoticesArea() {
  const store = useAppStoreApi();
  const host = useHost();
  const notices = useAppStore(useShallow(selectHostNotices));
  const errors = useAppStore(useShallow(selectLocalErrors));
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());

  const dismissHost = (id: string) => {
    setBusy((s) => new Set(s).add(id));
    void dismissNotice(store, host, id).then(() => {
      setBusy((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
      focusMain();
    });
  };
  const dismissLocal = (error: LocalError) => {
    store.getState().localErrorDismissed(error.id);
    focusMain();
  };

  return (
    <section className="notices" aria-label="Notices" aria-live="polite">
      <ConnectionBanner />
      {notices.length + errors.length > 0 && (
        <ul className="notices__list">
          {errors.map((e) => (
            <NoticeCard
              key={e.id}
              level="error"
              title={e.title}
              code={e.error.code}
              message={e.error.message}
              hint={e.error.hint}
              at={e.at}
              onDismiss={() => dismissLocal(e)}
            />
          ))}
          {notices.map((n) => (
            <NoticeCard
              key={n.id}
              level={n.level}
              title={noticeTitle(n.code)}
              code={n.code}
              message={n.message}
              at={n.at}
              busy={busy.has(n.id)}
              onDismiss={() => dismissHost(n.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
