// The Workbench's sessions, newest first: open one, start a new one, import one.
import { useCallback, useRef, useState, type RefObject } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { createSession, openSession } from '../../stores/chat/chat-commands';
import { turnOf } from '../../stores/chat/chat-slice';
import { SessionSearch } from './SessionSearch';
import { useLoadNear } from '../../components/use-load-near';

export function NewSessionButton(props: { primary?: boolean; onError(error: HostError): void }) {
  const store = useAppStoreApi();
  const host = useHost();
  const [busy, setBusy] = useState(false);
  const create = async () => {
    if (busy) return;
    setBusy(true);
    const result = await createSession(store, host, { title: 'New session' });
    setBusy(false);
    if (!result.ok) props.onError(result.error);
  };
  return (
    <button type="button" className={`btn${props.primary ? ' btn--primary' : ''}`} data-testid="new-session" aria-disabled={busy || undefined} onClick={() => void create()}>
      <Icon name="plus" />
      {busy ? 'Creating…' : 'New session'}
    </button>
  );
}

/** Rows drawn at first and added at a time as the list's end comes near: a thousand chats cost what a page does. */
const LIST_PAGE = 60;

function MoreSessions(props: { shown: number; total: number; more(): void; list: RefObject<HTMLUListElement | null> }) {
  const root = useCallback(() => props.list.current, [props.list]);
  const { ref } = useLoadNear<HTMLButtonElement>(props.more, { root, margin: '0px 0px 400px 0px', shown: props.shown });
  return (
    <li>
      <button ref={ref} type="button" className="btn btn--small sessions__more" data-testid="more-sessions" onClick={props.more}>
        Show more sessions ({props.total - props.shown} more)
      </button>
    </li>
  );
}

export function SessionList(props: { onImport(): void }) {
  const store = useAppStoreApi();
  const host = useHost();
  const sessions = useAppStore((s) => s.chat.sessions);
  const openId = useAppStore((s) => s.chat.openId);
  const turns = useAppStore((s) => s.chat.turns);
  const [error, setError] = useState<HostError | null>(null);
  const [pages, setPages] = useState(1);
  const list = useRef<HTMLUListElement>(null);
  const more = useCallback(() => setPages((n) => n + 1), []);
  // The open session's row is always drawn, however far down the list it is.
  const shown = Math.max(pages * LIST_PAGE, sessions.findIndex((s) => s.id === openId) + 1);
  return (
    <nav className="sessions" aria-label="Sessions">
      <div className="sessions__actions">
        <NewSessionButton primary onError={setError} />
        <button type="button" className="btn" onClick={props.onImport}>
          Import…
        </button>
      </div>
      {error && <InlineError error={error} title="Could not create a session" />}
      <SessionSearch />
      <ul className="sessions__list" ref={list}>
        {sessions.slice(0, shown).map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className="session-row"
              aria-current={s.id === openId || undefined}
              data-testid="session"
              data-id={s.id}
              onClick={() => void openSession(store, host, s.id)}
            >
              <span className="session-row__title">
                {(s.busy || turnOf(turns, s.id)?.status === 'streaming') && <span className="session-row__busy" role="img" aria-label="generating" />}
                {s.title}
              </span>
              <span className="session-row__meta">
                {s.characterName || 'No character'} · {s.messageCount} {s.messageCount === 1 ? 'message' : 'messages'}
              </span>
            </button>
          </li>
        ))}
        {shown < sessions.length && <MoreSessions shown={shown} total={sessions.length} more={more} list={list} />}
      </ul>
    </nav>
  );
}
