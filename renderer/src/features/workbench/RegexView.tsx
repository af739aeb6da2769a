// The Regex scripts view: the scripts that apply to this session (global, its own, its character's), in the order they run,
// each with the extension that wrote it, what it finds and where it works. The person may switch any off or delete it.
import { useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useHost } from '../../app/context';
import { selectExtensions } from '../../stores/app/selectors';
import { InlineError } from '../../components/InlineError';
import { AskingHost } from '../../components/AskingHost';
import { appliesTo, useCharacterOf, useRegexScripts } from './regex-display';

const TARGETS: Record<string, string> = { prompt: 'prompt', response: 'reply as saved', display: 'display' };

export function RegexView(props: { sessionId: string; domId: string }) {
  const host = useHost();
  const listed = useRegexScripts();
  const presetId = useAppStore((s) => s.settings?.chat?.presetId ?? '');
  const characterId = useCharacterOf(props.sessionId);
  const scripts = listed.scripts?.filter((s) => appliesTo(s, props.sessionId, presetId, characterId)) ?? null;
  const [failed, setError] = useState<{ title: string; error: HostError } | null>(null);
  const error = failed ?? (listed.error && { title: 'Could not list the regex scripts', error: listed.error });
  const extensions = useAppStore(selectExtensions);
  /** The writer as the Extensions section names it (its id once it is removed). */
  const writer = (owner: string) => (owner ? (extensions.find((e) => e.id === owner)?.name ?? owner) : 'you');

  const act = async (title: string, call: () => ReturnType<typeof host.invoke>) => {
    const result = await call();
    if (!result.ok) setError({ title, error: result.error });
  };

  if (!scripts) return error ? <InlineError error={error.error} title={error.title} /> : <AskingHost>for the regex scripts</AskingHost>;
  return (
    <section id={props.domId} className="regex-view" data-testid="regex-view" aria-label="Regex scripts">
      {error && <InlineError error={error.error} title={error.title} />}
      {scripts.length === 0 ? (
        <p className="panel-note">No regex script applies to this chat. Extensions granted “regex scripts” can add them.</p>
      ) : (
        <table className="macros-table">
          <caption className="visually-hidden">Regex scripts that apply to this chat, in the order they run</caption>
          <thead>
            <tr>
              <th scope="col">On</th>
              <th scope="col">Script</th>
              <th scope="col">Works on</th>
              <th scope="col">Written by</th>
              <th scope="col">
                <span className="visually-hidden">Delete</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {scripts.map((s) => (
              <tr key={s.id} data-testid="regex-row" data-name={s.name}>
                <td>
                  <input
                    type="checkbox"
                    checked={!s.disabled}
                    aria-label={`${s.name} on`}
                    onChange={(e) => void act(`Could not switch ${s.name}`, () => host.invoke('regex.setDisabled', { id: s.id, disabled: !e.target.checked }))}
                  />
                </td>
                <td>
                  {s.name}
                  {s.slow && (
                    <div className="panel-note" data-testid="regex-slow">
                      Skipped: its pattern ran past its time limit. It runs again once its pattern is changed.
                    </div>
                  )}
                  <div className="panel-note">
                    <code>{`/${s.find_regex.slice(0, 120)}/${s.flags}`}</code>
                    {s.replace_string ? (
                      <>
                        {' → '}
                        <code>{s.replace_string.slice(0, 120)}</code>
                      </>
                    ) : (
                      ' → removed'
                    )}
                  </div>
                </td>
                <td>
                  {s.target.map((t) => TARGETS[t] ?? t).join(', ')}
                  <div className="panel-note">{s.placement.map((p) => p.replace('_', ' ')).join(', ')}{s.scope === 'global' ? '' : s.scope === 'preset' ? ' · its preset’s own' : ' · this chat only'}</div>
                </td>
                <td>{writer(s.owner)}</td>
                <td>
                  <button type="button" className="btn btn--small btn--danger-ghost" onClick={() => void act(`Could not delete ${s.name}`, () => host.invoke('regex.delete', { id: s.id }))}>
                    Delete<span className="visually-hidden"> {s.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
