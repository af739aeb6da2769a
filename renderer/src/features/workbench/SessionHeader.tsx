// The open session's title bar: the character's picture, rename in place, export (the session JSON, a card, a chat), delete with a confirmation.
import { memo, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { SESSION_LIMITS, type ChatSession } from '../../../../shared/types/chat';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { deleteSession, exportSession, renameSession } from '../../stores/chat/chat-commands';
import { downloadText } from './files';
import { copyText } from '../../api/clipboard';
import { CharacterPicture } from './CharacterPicture';
import { ExportAs } from './ExportAs';
import { MacrosView } from './MacrosView';
import { RegexView } from './RegexView';
import { ChatHeaderMounts } from '../frontends/BarMountFrames';

type Busy = null | 'rename' | 'download' | 'copy' | 'delete';

export const SessionHeader = memo(function SessionHeader(props: { session: ChatSession; busyTurn: boolean; picture: string | null }) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const { session } = props;
  const [renaming, setRenaming] = useState(false);
  const [macrosOpen, setMacrosOpen] = useState(false);
  const macrosId = `${id}-macros`;
  const [regexOpen, setRegexOpen] = useState(false);
  const regexId = `${id}-regex`;
  const [title, setTitle] = useState(session.title);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<{ title: string; error: HostError } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Every message of the chat, not only the part of it the window holds.
  const total = useAppStore((s) => (s.chat.open?.id === session.id && s.chat.window ? s.chat.window.total : session.messages.length));
  const [exported, setExported] = useState<{ fileName: string; json: string; how: 'downloaded' | 'copied' | 'manual' } | null>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const manualRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    setRenaming(false);
    setConfirmDelete(false);
    setExported(null);
    setError(null);
  }, [session.id]);
  useEffect(() => {
    if (renaming) titleRef.current?.select();
  }, [renaming]);
  useEffect(() => {
    if (confirmDelete) cancelRef.current?.focus();
  }, [confirmDelete]);
  useEffect(() => {
    if (exported?.how === 'manual') manualRef.current?.select();
  }, [exported]);

  const rename = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = title.trim();
    if (!next) return setError({ title: 'Could not rename', error: { code: 'INVALID_INPUT', message: 'A session needs a title.', path: '/title' } });
    if (next === session.title) return setRenaming(false);
    setBusy('rename');
    const result = await renameSession(store, host, session.id, next);
    setBusy(null);
    if (!result.ok) return setError({ title: 'Could not rename', error: result.error });
    setError(null);
    setRenaming(false);
  };

  const doExport = async (how: 'download' | 'copy') => {
    if (busy) return;
    setBusy(how);
    setError(null);
    setExported(null);
    const result = await exportSession(host, session.id);
    if (!result.ok) {
      setBusy(null);
      return setError({ title: 'Could not export', error: result.error });
    }
    const { fileName, json } = result.value;
    let done: 'downloaded' | 'copied' | 'manual';
    if (how === 'download') done = downloadText(fileName, json) ? 'downloaded' : 'manual';
    else done = (await copyText(host, json)) ? 'copied' : 'manual';
    setBusy(null);
    setExported({ fileName, json, how: done });
  };

  const remove = async () => {
    setBusy('delete');
    const result = await deleteSession(store, host, session.id);
    setBusy(null);
    if (!result.ok) setError({ title: 'Could not delete', error: result.error });
  };

  return (
    <div className="session-header">
      <div className="session-header__row">
        <CharacterPicture name={session.character.name} url={props.picture} />
        <ChatHeaderMounts side="left" />
        {renaming ? (
          <form className="session-header__rename" onSubmit={(e) => void rename(e)} noValidate>
            <label className="visually-hidden" htmlFor={`${id}-title`}>
              Session title
            </label>
            <input
              id={`${id}-title`}
              ref={titleRef}
              className="input"
              value={title}
              maxLength={SESSION_LIMITS.title}
              onChange={(e) => setTitle(e.target.value)}
              onKeyDown={(e) => e.key === 'Escape' && setRenaming(false)}
            />
            <button type="submit" className="btn btn--primary btn--small" aria-disabled={busy !== null || undefined}>
              {busy === 'rename' ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <h2 className="session-header__title" data-testid="session-title">
            {session.title}
          </h2>
        )}
        <div className="session-header__actions">
          <ChatHeaderMounts side="right" />
          {!renaming && (
            <button
              type="button"
              className="btn btn--small"
              onClick={() => {
                setTitle(session.title);
                setRenaming(true);
              }}
            >
              Rename
            </button>
          )}
          <button type="button" className="btn btn--small" aria-expanded={macrosOpen} aria-controls={macrosId} onClick={() => setMacrosOpen((o) => !o)}>
            {macrosOpen ? 'Hide macros' : 'Macros'}
          </button>
          <button type="button" className="btn btn--small" aria-expanded={regexOpen} aria-controls={regexId} onClick={() => setRegexOpen((o) => !o)}>
            {regexOpen ? 'Hide regex scripts' : 'Regex scripts'}
          </button>
          <button type="button" className="btn btn--small" aria-disabled={busy !== null || undefined} onClick={() => void doExport('download')}>
            {busy === 'download' ? 'Exporting…' : 'Download JSON'}
          </button>
          <button type="button" className="btn btn--small" aria-disabled={busy !== null || undefined} onClick={() => void doExport('copy')}>
            <Icon name="copy" />
            {busy === 'copy' ? 'Copying…' : 'Copy JSON'}
          </button>
          {!confirmDelete && (
            <button type="button" className="btn btn--small btn--danger-ghost" aria-label={`Delete ${session.title}…`} onClick={() => setConfirmDelete(true)}>
              <Icon name="trash" />
              <span aria-hidden="true">Delete…</span>
            </button>
          )}
        </div>
      </div>
      <ExportAs key={session.id} sessionId={session.id} />
      {macrosOpen && <MacrosView sessionId={session.id} domId={macrosId} />}
      {regexOpen && <RegexView sessionId={session.id} domId={regexId} />}
      {confirmDelete && (
        <div className="confirm" role="group" aria-label={`Confirm deleting ${session.title}`} data-testid="confirm-delete">
          <p>
            Delete <strong>{session.title}</strong> and its {total} {total === 1 ? 'message' : 'messages'}?
            {props.busyTurn ? ' Its running reply is stopped first.' : ''} This cannot be undone; export it first to keep a copy.
          </p>
          <div className="confirm__actions">
            <button type="button" className="btn btn--danger" aria-disabled={busy !== null || undefined} onClick={() => void remove()}>
              {busy === 'delete' ? 'Deleting…' : 'Delete'}
            </button>
            <button type="button" ref={cancelRef} className="btn" onClick={() => setConfirmDelete(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {exported && (
        <div className="export-note" role="status" data-testid="export-note">
          {exported.how === 'downloaded' && (
            <span>
              <Icon name="check" /> Saved as <code>{exported.fileName}</code>.
            </span>
          )}
          {exported.how === 'copied' && (
            <span>
              <Icon name="check" /> Copied the session JSON ({exported.json.length.toLocaleString('en')} characters).
            </span>
          )}
          {exported.how === 'manual' && (
            <>
              <span>This window may not use the clipboard or save files; copy the JSON from here:</span>
              <textarea ref={manualRef} className="input input--area input--mono" rows={5} readOnly value={exported.json} aria-label="Exported session JSON" />
            </>
          )}
        </div>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </div>
  );
});
