// The Macros view: every {{macro}} a turn in this session can use — built-ins, the council's, extensions' — with
// its owner and current value (a handler's value is computed at each turn).
import { useEffect, useState } from 'react';
import type { MethodOutput } from '../../../../shared/contract';
import type { HostError } from '../../../../shared/errors';
import { useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { loadMacros } from '../../stores/chat/chat-commands';
import { AskingHost } from '../../components/AskingHost';

/** Long values are shown cut; the full value is in the title. */
const SHOWN_CHARS = 200;

export function MacrosView(props: { sessionId: string; domId: string }) {
  const host = useHost();
  const [macros, setMacros] = useState<MethodOutput<'chat.macros'> | null>(null);
  const [error, setError] = useState<HostError | null>(null);

  useEffect(() => {
    let live = true;
    void loadMacros(host, props.sessionId).then((result) => {
      if (!live) return;
      if (result.ok) setMacros(result.value);
      else setError(result.error);
    });
    return () => {
      live = false;
    };
  }, [host, props.sessionId]);

  if (error) return <InlineError error={error} title="Could not list the macros" />;
  if (!macros) return <AskingHost>for the macros</AskingHost>;
  return (
    <table id={props.domId} className="macros-table" data-testid="macros-view">
      <caption className="visually-hidden">Macros available in this session</caption>
      <thead>
        <tr>
          <th scope="col">Macro</th>
          <th scope="col">Owner</th>
          <th scope="col">Current value</th>
        </tr>
      </thead>
      <tbody>
        {macros.map((m) => (
          <tr key={`${m.owner}:${m.name}`} data-testid="macro-row" data-name={m.name}>
            <td>
              <code>{`{{${m.name}}}`}</code>
              {m.description && <div className="panel-note">{m.description}</div>}
            </td>
            <td>{m.owner}</td>
            <td title={m.value ?? undefined}>{m.value === null ? <em>computed at each turn</em> : m.value === '' ? <em>empty</em> : m.value.slice(0, SHOWN_CHARS)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
