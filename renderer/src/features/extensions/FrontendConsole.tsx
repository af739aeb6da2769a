// The frontend messages console of one extension: what its backend sent with sendToFrontend (refreshed as it
// changes), and a JSON message to send to its onFrontendMessage handlers, as its frontend would.
import { useCallback, useEffect, useId, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { loadFrontendMessages, sendFrontendMessage, watchExtension } from '../../stores/extensions/extension-commands';

type Message = { at: number; payload: unknown };

export function FrontendConsole(props: { id: string; name: string; domId: string }) {
  const host = useHost();
  const inputId = useId();
  const [messages, setMessages] = useState<Message[]>([]);
  const [draft, setDraft] = useState('{ "type": "ping" }');
  const [error, setError] = useState<HostError | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const load = useCallback(async () => {
    const result = await loadFrontendMessages(host, props.id);
    if (result.ok) setMessages(result.value.messages);
    else setError(result.error);
  }, [host, props.id]);

  useEffect(() => {
    void load();
    // A new message from its backend arrives as a change of the extension.
    return watchExtension(host, props.id, () => void load());
  }, [host, load, props.id]);

  const send = async () => {
    setError(null);
    setNote(null);
    let payload: unknown;
    try {
      payload = JSON.parse(draft);
    } catch (err) {
      setError({ code: 'INVALID_INPUT', message: `Not JSON: ${(err as Error).message}`, path: '/payload' });
      return;
    }
    const result = await sendFrontendMessage(host, props.id, payload);
    if (!result.ok) setError(result.error);
    else setNote(result.value.delivered ? 'Sent to its onFrontendMessage handlers.' : 'Not delivered: the extension is not running.');
  };

  return (
    <section id={props.domId} className="frontend-console" aria-label={`Frontend messages of ${props.name}`} data-testid="frontend-console">
      {messages.length === 0 ? (
        <p className="panel-note">Its backend has sent nothing to its frontend yet.</p>
      ) : (
        <ol className="frontend-console__list" data-testid="frontend-messages">
          {messages.map((m, i) => (
            <li key={i}>
              <time className="frontend-console__at">{new Date(m.at).toLocaleTimeString()}</time> <code>{JSON.stringify(m.payload)}</code>
            </li>
          ))}
        </ol>
      )}
      <label className="field__label" htmlFor={inputId}>
        Message to its onFrontendMessage handlers (JSON)
      </label>
      <textarea id={inputId} className="input" rows={3} value={draft} onChange={(e) => setDraft(e.target.value)} data-testid="frontend-draft" />
      <div className="ext-card__actions">
        <button type="button" className="btn" onClick={() => void send()}>
          Send to {props.name}
        </button>
        {note && (
          <span role="status" className="panel-note">
            {note}
          </span>
        )}
      </div>
      {error && <InlineError error={error} title="The message was not sent" />}
    </section>
  );
}
