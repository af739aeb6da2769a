// The message box: Enter sends, Shift+Enter adds a line; Stop while a reply streams; Regenerate or Continue the last reply; council and dry-run toggles.
import { memo, useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { continueReply, nudgeReply, regenerateReply, sendMessage, stopTurn } from '../../stores/chat/chat-commands';
import { ComposerActions } from '../frontends/ComposerActions';
import { ComposerStandIns } from '../frontends/ComposerStandIns';
import { ComposerMounts } from '../frontends/ComposerMounts';
import type { ComposerControl } from '../frontends/frontends-store';

/**
 * The composer stays at the bottom of the scrolling column, over the chat: the column keeps its height as room at
 * the bottom, so whatever is scrolled into view (a control reached with Tab, a deliberation just opened) lands
 * above it instead of under it. Measured, since the box grows with the text and an error.
 */
function useRoomBelow(box: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = box.current;
    const column = el?.closest<HTMLElement>('#main');
    if (!el || !column || typeof ResizeObserver === 'undefined') return;
    // A little air above the box, so what comes into view is not flush against it.
    const observer = new ResizeObserver(() => void (column.style.scrollPaddingBottom = `${Math.ceil(el.getBoundingClientRect().height) + 8}px`));
    observer.observe(el);
    return () => {
      observer.disconnect();
      column.style.removeProperty('scroll-padding-bottom');
    };
  }, [box]);
}

/**
 * Takes the turn's state as two flags, not the turn: it is not drawn again for every streamed frame. `council` and
 * `dryRun` are the session's switches (SessionSwitches), sent with each message as they are shown.
 */
export const Composer = memo(function Composer(props: {
  sessionId: string;
  streaming: boolean;
  stopping: boolean;
  canRegenerate: boolean;
  canContinue: boolean;
  characterName: string;
  council: boolean;
  dryRun: boolean;
}) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const { council: councilOn, dryRun } = props;
  const simulateDefault = useAppStore((s) => s.settings?.safety?.dryRun ?? false);
  const [text, setText] = useState('');
  // Per message: simulate write tools (toolDryRun); null follows the Safety setting.
  const [simulate, setSimulate] = useState<boolean | null>(null);
  const [busy, setBusy] = useState<null | 'send' | 'stop' | 'regenerate' | 'continue'>(null);
  const [error, setError] = useState<{ title: string; error: HostError } | null>(null);
  // Enter while a reply is still coming: the message waits in the box and goes once the reply ends.
  const [held, setHeld] = useState(false);
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  useRoomBelow(boxRef);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);
  // A different session starts with a clean box.
  useEffect(() => {
    setError(null);
    setHeld(false);
  }, [props.sessionId]);

  const streaming = props.streaming;
  const simulateOn = simulate ?? simulateDefault;
  const turnOptions = { council: councilOn, ...(simulate !== null ? { toolDryRun: simulate } : {}) };

  const send = async () => {
    const message = text.trim();
    if (!message || busy) return;
    if (streaming) return setHeld(true);
    setHeld(false);
    await submit(message);
    areaRef.current?.focus();
  };

  /** Sends `message` (the box's, or what an extension's click on its stand-in sent); empty, a new reply to the chat as it is. */
  const submit = async (message: string) => {
    setBusy('send');
    setError(null);
    const input = { sessionId: props.sessionId, ...turnOptions };
    const result = message ? await sendMessage(store, host, { ...input, text: message, dryRun }) : await nudgeReply(store, host, input);
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) return setError({ title: 'Could not send', error: result.error });
    if (message) setText('');
  };

  useEffect(() => {
    if (held && !streaming) void send();
    // Sends once, when the reply it waited for has ended (send reads the box as it is then).
  }, [held, streaming]);

  const stop = async () => {
    if (busy === 'stop') return;
    setBusy('stop');
    const result = await stopTurn(store, host, props.sessionId);
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) setError({ title: 'Could not stop', error: result.error });
  };

  /** Regenerate (a new swipe of the last reply) or Continue (more of it). */
  const rework = async (kind: 'regenerate' | 'continue') => {
    if (busy || streaming) return;
    setBusy(kind);
    setError(null);
    const input = { sessionId: props.sessionId, council: councilOn };
    const result = kind === 'regenerate' ? await regenerateReply(store, host, input) : await continueReply(store, host, input);
    if (!mounted.current) return;
    setBusy(null);
    if (!result.ok) setError({ title: kind === 'regenerate' ? 'Could not regenerate' : 'Could not continue', error: result.error });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a new line; an IME composing text keeps Enter for itself.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  // What extensions granted generation do with their stand-in of the box (Lumiverse's InputArea), as the person would.
  const control: ComposerControl = {
    setDraft: setText,
    send: (message) => submit(message.trim()),
    stop,
    regenerate: () => rework('regenerate'),
    continue: () => rework('continue'),
  };

  return (
    <div className="composer" data-testid="composer" ref={boxRef}>
      <ComposerStandIns state={{ draft: text, generating: streaming, canRegenerate: props.canRegenerate, canContinue: props.canContinue }} control={control} />
      <ComposerMounts />
      {error && <InlineError error={error.error} title={error.title} testId="composer-error" />}
      {held && (
        <p className="field__hint" role="status" data-testid="composer-held">
          Sends when this reply ends, or press Stop.
        </p>
      )}
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        Message
      </label>
      <textarea
        id={`${id}-text`}
        ref={areaRef}
        className="input input--area composer__text"
        rows={3}
        value={text}
        placeholder={`Message ${props.characterName}… (Enter to send, Shift+Enter for a new line)`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <ComposerActions />
      <ComposerMounts below />
      <div className="composer__bar">
        <label className="switch" title="Write tools are simulated, not run, in this message’s council run and tool calls (default from the Safety setting)">
          <input type="checkbox" role="switch" checked={simulateOn} aria-label="Simulate write tools" onChange={(e) => setSimulate(e.target.checked)} />
          <span className="switch__track" aria-hidden="true" />
          <span aria-hidden="true">Simulate writes</span>
        </label>
        <span className="composer__spacer" />
        {props.canContinue && !streaming && (
          <button type="button" className="btn" aria-disabled={busy !== null || undefined} title="The model goes on from the last reply; its words are added to it" onClick={() => void rework('continue')}>
            <Icon name="play" />
            {busy === 'continue' ? 'Continuing…' : 'Continue'}
          </button>
        )}
        {props.canRegenerate && !streaming && (
          <button type="button" className="btn" aria-disabled={busy !== null || undefined} title="A new reply, kept beside the old one as a swipe (← → on the reply)" onClick={() => void rework('regenerate')}>
            <Icon name="refresh" />
            {busy === 'regenerate' ? 'Regenerating…' : 'Regenerate'}
          </button>
        )}
        {streaming ? (
          <button type="button" className="btn btn--danger" aria-disabled={busy === 'stop' || props.stopping || undefined} onClick={() => void stop()}>
            <Icon name="power" />
            {props.stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button type="button" className="btn btn--primary" aria-disabled={busy !== null || text.trim() === '' || undefined} onClick={() => void send()}>
            <Icon name="play" />
            {busy === 'send' ? 'Sending…' : dryRun ? 'Build prompt' : 'Send'}
          </button>
        )}
      </div>
    </div>
  );
});
