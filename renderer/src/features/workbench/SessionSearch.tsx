// Search the chats: every session or the open one; each result shows where the text was found, and choosing it opens
// that session at that message.
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { MethodOutput } from '../../../../shared/contract';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { openAtMessage, searchSessions } from '../../stores/chat/chat-commands';

type Found = MethodOutput<'chat.sessions.search'>;

export function SessionSearch() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const openId = useAppStore((s) => s.chat.openId);
  const [query, setQuery] = useState('');
  const [scope, setScope] = useState<'all' | 'open'>('all');
  const [found, setFound] = useState<Found | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const [busy, setBusy] = useState(false);
  // Only the latest search's answer is shown (an earlier one may come back after it).
  const latest = useRef(0);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    if (!query.trim()) return setFound(null);
    const ticket = ++latest.current;
    setBusy(true);
    setError(null);
    const result = await searchSessions(host, { query: query.trim(), ...(scope === 'open' && openId ? { sessionId: openId } : {}) });
    if (ticket !== latest.current) return;
    setBusy(false);
    if (result.ok) setFound(result.value);
    else setError(result.error);
  };
  const clear = () => {
    latest.current++;
    setBusy(false);
    setQuery('');
    setFound(null);
    setError(null);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && (query || found)) {
      event.preventDefault();
      clear();
    }
  };

  return (
    <section className="session-search" aria-label="Search the chats" onKeyDown={onKeyDown}>
      <form className="session-search__form" role="search" onSubmit={(e) => void run(e)}>
        <label className="visually-hidden" htmlFor={`${id}-q`}>
          Search chats
        </label>
        <input id={`${id}-q`} className="input" type="search" value={query} placeholder="Search chats…" maxLength={200} onChange={(e) => setQuery(e.target.value)} />
        <label className="visually-hidden" htmlFor={`${id}-scope`}>
          Where to search
        </label>
        <select id={`${id}-scope`} className="input input--select" value={scope} onChange={(e) => setScope(e.target.value as 'all' | 'open')}>
          <option value="all">All chats</option>
          <option value="open" disabled={!openId}>
            This chat
          </option>
        </select>
        <button type="submit" className="btn btn--small" aria-disabled={busy || undefined}>
          <Icon name="search" /> {busy ? 'Searching…' : 'Search'}
        </button>
      </form>
      {error && <InlineError error={error} title="Could not search" testId="search-error" />}
      {found && (
        <div className="session-search__results" data-testid="search-results">
          <p className="field__hint" role="status">
            {found.hits.length === 0 ? 'Nothing found.' : `${found.hits.length}${found.more ? '+' : ''} found${found.more ? ' — narrow the search to see the rest' : ''}.`}{' '}
            <button type="button" className="link-button" onClick={clear}>
              Clear
            </button>
          </p>
          <ul className="stack-list">
            {found.hits.map((hit, i) => (
              <li key={`${hit.sessionId}-${hit.messageId ?? 'title'}-${i}`}>
                <button type="button" className="session-search__hit" data-testid="search-hit" onClick={() => void openAtMessage(store, host, hit.sessionId, hit.messageId)}>
                  <span className="session-search__where">
                    {hit.title}
                    {hit.index !== null ? ` · message ${hit.index + 1}` : ''}
                  </span>
                  <span className="session-search__text">
                    {hit.before}
                    <mark>{hit.match}</mark>
                    {hit.after}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
