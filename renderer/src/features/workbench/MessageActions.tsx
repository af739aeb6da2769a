// What a person does to a saved message: copy, edit, delete (asked twice), branch a new chat from it; on a reply, its
// swipes (‹ 2/3 ›, and ←/→ on the focused message; → past the last swipe of the last reply writes a new one).
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Result } from '../../../../shared/errors';
import type { ChatMessage } from '../../../../shared/types/chat';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { useAction } from '../../components/use-action';
import { branchSession, deleteMessage, editMessage, regenerateReply, swipeMessage } from '../../stores/chat/chat-commands';
import { turnOf } from '../../stores/chat/chat-slice';
import { copyText } from '../../api/clipboard';
import { useOwnButtonsWait, waitingButton } from './reply-wait';

export interface MessageActionProps {
  sessionId: string;
  message: ChatMessage;
  /** The session's last message (→ past its last swipe writes a new one). */
  last: boolean;
}

type ChatTurns = Parameters<typeof turnOf>[0];

/** A reply is being written in the session: changes wait. */
const replyingIn = (turns: ChatTurns, sessionId: string) => turnOf(turns, sessionId)?.status === 'streaming';

/** The store, the host and the project's one-call-at-a-time action (its failure is shown on the message). */
function useAct() {
  const store = useAppStoreApi();
  const host = useHost();
  const { error: failure, run } = useAction();
  const act = async (title: string, call: () => Promise<Result<unknown>>) => (await run('act', title, call))?.ok === true;
  return { store, host, failure, act };
}

/** ←/→ on the focused reply: the swipe before or after; → past the last one of the last reply asks for a new one. */
export function useSwipeKeys(props: MessageActionProps | null) {
  const { store, host, failure, act } = useAct();
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!props || replyingIn(store.getState().chat.turns, props.sessionId) || event.target !== event.currentTarget || props.message.role !== 'assistant') return;
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const { sessionId, message } = props;
    const count = message.swipes?.length ?? 1;
    const at = message.swipeId ?? 0;
    if (event.key === 'ArrowRight' && at === count - 1) {
      if (props.last) void act('Could not regenerate', () => regenerateReply(store, host, { sessionId, swipe: true }));
      return;
    }
    if (event.key === 'ArrowLeft' && at === 0) return;
    void act('Could not change the swipe', () => swipeMessage(store, host, { sessionId, messageId: message.id, direction: event.key === 'ArrowLeft' ? 'left' : 'right' }));
  };
  return { onKeyDown, failure };
}

/**
 * A message's editing state. When its editor closes (Escape, Cancel, Save), focus goes back to the Edit button that
 * opened it, as a dialog gives focus back to its opener (it went to the top of the page).
 */
export function useMessageEditing() {
  const [editing, setEditing] = useState(false);
  const back = useRef(false);
  return {
    editing,
    start: () => setEditing(true),
    done: () => {
      back.current = true;
      setEditing(false);
    },
    /** True once, for the actions drawn right after the editor closed. */
    takeFocus: () => {
      const take = back.current;
      back.current = false;
      return take;
    },
  };
}

export function MessageActions(props: MessageActionProps & { onEdit: () => void; takeFocus?: () => boolean }) {
  const { sessionId, message } = props;
  const editButton = useRef<HTMLButtonElement>(null);
  const { takeFocus } = props;
  useLayoutEffect(() => {
    if (takeFocus?.()) editButton.current?.focus();
  }, [takeFocus]);
  const { store, host, failure, act } = useAct();
  /** At the click, from the store (the buttons' state follows it: reply-wait.ts). */
  const idle = () => !replyingIn(store.getState().chat.turns, sessionId);
  const actions = useRef<HTMLElement>(null);
  useOwnButtonsWait(actions, !idle());
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [copied, setCopied] = useState<null | boolean>(null);
  const count = message.swipes?.length ?? 1;
  const at = message.swipeId ?? 0;
  const swipe = (direction: 'left' | 'right') => void act('Could not change the swipe', () => swipeMessage(store, host, { sessionId, messageId: message.id, direction }));
  const copy = async () => setCopied(await copyText(host, message.content));
  return (
    <footer className="msg__actions" data-testid="message-actions" ref={actions}>
      {message.role === 'assistant' && count > 1 && (
        <span className="msg__swipes" role="group" aria-label="Swipes">
          <button type="button" className="btn btn--ghost btn--small" aria-label="Previous swipe" {...waitingButton(at === 0)} onClick={() => at > 0 && idle() && swipe('left')}>
            ‹
          </button>
          <span className="msg__swipe-count" data-testid="swipe-count" aria-live="polite">
            {at + 1}/{count}
          </span>
          <button type="button" className="btn btn--ghost btn--small" aria-label="Next swipe" {...waitingButton(at === count - 1)} onClick={() => at < count - 1 && idle() && swipe('right')}>
            ›
          </button>
        </span>
      )}
      <button type="button" className="btn btn--ghost btn--small" onClick={() => void copy()}>
        <Icon name={copied ? 'check' : 'copy'} /> {copied ? 'Copied' : 'Copy'}
      </button>
      {copied === false && (
        <span className="field__hint" role="status">
          The clipboard refused: select the text and press Ctrl+C.
        </span>
      )}
      <button ref={editButton} type="button" className="btn btn--ghost btn--small" {...waitingButton()} onClick={() => idle() && props.onEdit()}>
        <Icon name="edit" /> Edit
      </button>
      <button type="button" className="btn btn--ghost btn--small" {...waitingButton()} onClick={() => idle() && void act('Could not branch', () => branchSession(store, host, { sessionId, messageId: message.id }))}>
        <Icon name="branch" /> Branch from here
      </button>
      {confirmDelete ? (
        <span className="msg__confirm" role="group" aria-label="Delete this message?">
          <button type="button" className="btn btn--danger btn--small" {...waitingButton()} autoFocus onClick={() => idle() && void act('Could not delete', () => deleteMessage(store, host, { sessionId, messageId: message.id }))}>
            <Icon name="trash" /> Delete message
          </button>
          <button type="button" className="btn btn--ghost btn--small" onClick={() => setConfirmDelete(false)}>
            Keep it
          </button>
        </span>
      ) : (
        <button type="button" className="btn btn--ghost btn--small" {...waitingButton()} onClick={() => idle() && setConfirmDelete(true)}>
          <Icon name="trash" /> Delete
        </button>
      )}
      {failure && <InlineError error={failure.error} title={failure.title} testId="message-action-error" />}
    </footer>
  );
}

/** The message's text in a box: Save (or Ctrl+Enter) keeps it, Cancel (or Escape) leaves it as it was. */
export function MessageEditor(props: { sessionId: string; message: ChatMessage; onDone: () => void }) {
  const { store, host, failure, act } = useAct();
  const [text, setText] = useState(props.message.content);
  const save = async () => {
    if (await act('Could not save the edit', () => editMessage(store, host, { sessionId: props.sessionId, messageId: props.message.id, content: text }))) props.onDone();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      props.onDone();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void save();
    }
  };
  return (
    <div className="msg__editor" data-testid="message-editor">
      <textarea className="input input--area" aria-label="Message text" value={text} rows={Math.min(16, Math.max(3, text.split('\n').length + 1))} autoFocus onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} />
      <div className="msg__editor-bar">
        <button type="button" className="btn btn--primary btn--small" onClick={() => void save()}>
          Save
        </button>
        <button type="button" className="btn btn--ghost btn--small" onClick={props.onDone}>
          Cancel
        </button>
        <span className="field__hint">Ctrl+Enter saves, Escape cancels.</span>
      </div>
      {failure && <InlineError error={failure.error} title={failure.title} testId="message-action-error" />}
    </div>
  );
}
