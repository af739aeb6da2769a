// The world books of their own (extensions make them: spindle.world_books) as this session sees them: which are attached
// to its character (a turn reads them beside its own world info) and which apply to every chat. A change is saved at
// once; what an extension changes meanwhile shows when this tab opens again or the session changes.
import { useCallback, useEffect, useId, useState } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import { useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';

type Books = MethodOutput<'chat.worldBooks.list'>;

export function WorldBooksCard(props: { sessionId: string }) {
  const host = useHost();
  const id = useId();
  const { sessionId } = props;
  const [books, setBooks] = useState<Books | null>(null);
  const [error, setError] = useState<HostError | null>(null);
  const load = useCallback(async () => {
    const listed = await host.invoke('chat.worldBooks.list', { sessionId });
    if (listed.ok) setBooks(listed.value);
    else setError(listed.error);
  }, [host, sessionId]);
  useEffect(() => {
    void load();
    return host.onEvent((event) => {
      if (event.type === 'chat.sessions.changed' && event.sessionId === sessionId) void load();
    });
  }, [host, load, sessionId]);

  // One change at a time, each from what the host last answered: a second click waits for the first to be saved.
  const [saving, setSaving] = useState(false);
  const change = async (save: (now: Books) => Promise<{ ok: boolean; error?: HostError }>) => {
    if (!books || saving) return;
    setSaving(true);
    const result = await save(books);
    setError(result.ok ? null : (result.error ?? null));
    await load();
    setSaving(false);
  };
  const toggle = (ids: string[], id: string, on: boolean) => (on ? [...ids, id] : ids.filter((x) => x !== id));
  const attach = (bookId: string, on: boolean) => change((now) => host.invoke('chat.worldBooks.attach', { sessionId, bookIds: toggle(now.attached, bookId, on) }));
  const everywhere = (bookId: string, on: boolean) =>
    change((now) => host.invoke('chat.worldBooks.setGlobal', { bookIds: toggle(now.books.filter((b) => b.global).map((b) => b.id), bookId, on) }));

  return (
    <section className="card" aria-labelledby={`${id}-books`} data-testid="world-books">
      <h2 id={`${id}-books`} className="card__title">
        World books
      </h2>
      <p className="card__lead">
        Books extensions made (a card&apos;s lore, a tracker&apos;s state). One attached to this character, or to every chat, goes into its
        prompts as world info does; changes are saved at once.
      </p>
      {books && books.books.length === 0 && <p className="field__hint">None yet.</p>}
      {books && books.books.length > 0 && (
        <ul className="wi-list">
          {books.books.map((book) => (
            <li key={book.id} className="inset wi-entry" data-testid="world-book" data-book-id={book.id}>
              <div className="wi-entry__head">
                <strong>{book.name}</strong>
                <span className="field__hint">
                  {book.entries} {book.entries === 1 ? 'entry' : 'entries'}
                </span>
              </div>
              {book.description && <p className="field__hint">{book.description}</p>}
              <label className="field__check">
                <input type="checkbox" checked={books.attached.includes(book.id)} aria-disabled={saving || undefined} onChange={(e) => void attach(book.id, e.target.checked)} />
                This character
              </label>
              <label className="field__check">
                <input type="checkbox" checked={book.global} aria-disabled={saving || undefined} onChange={(e) => void everywhere(book.id, e.target.checked)} />
                Every chat
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && <InlineError error={error} title="Could not change the world books" />}
    </section>
  );
}
