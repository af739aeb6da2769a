// Where the user looks first: host notices (dismissed through the host), this window's own errors, and a
// banner when the connection needs the user. All host text renders as text, never as markup.
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { dismissNotice } from '../stores/app/commands';
import { selectHostNotices, selectLocalErrors } from '../stores/app/selectors';
import type { LocalError } from '../stores/app/notices-slice';
import { useAppStore, useAppStoreApi, useHost } from './context';
import { NoticeCard } from './NoticeCard';
import { ConnectionBanner } from './ConnectionBanner';

const NOTICE_TITLES: Record<string, string> = {
  SETTINGS_RECOVERED: 'Settings file recovered',
};

export function noticeTitle(code: string): string {
  const known = NOTICE_TITLES[code];
  if (known) return known;
  const words = code.toLowerCase().split(/[_\s]+/).filter(Boolean).join(' ');
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Notice';
}

function focusMain(): void {
  if (document.activeElement === document.body || !document.activeElement?.isConnected) {
    document.getElementById('main')?.focus();
  }
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
