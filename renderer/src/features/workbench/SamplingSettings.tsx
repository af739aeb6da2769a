// The session's sampling for the main model, over its connection's default: a line that says what is in force, and a
// form to change it for this session, make it the connection's default, or go back to that default.
import { memo, useEffect, useId, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { SAMPLING_RANGES, type ChatSession, type Sampling } from '../../../../shared/types/chat';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { updateChatSettings, updateSession } from '../../stores/chat/chat-commands';

type Field = 'temperature' | 'topP' | 'maxTokens' | 'contextSize';
const FIELDS: Array<{ key: Field; label: string; step: string; integer: boolean }> = [
  { key: 'temperature', label: 'Temperature', step: '0.05', integer: false },
  { key: 'topP', label: 'Top-p', step: '0.01', integer: false },
  { key: 'maxTokens', label: 'Max tokens', step: '1', integer: true },
  { key: 'contextSize', label: 'Context size', step: '1', integer: true },
];
const EMPTY: Sampling = {};

type Draft = Record<Field, string> & { stop: string };
const toDraft = (s: Sampling): Draft => ({
  temperature: s.temperature?.toString() ?? '',
  topP: s.topP?.toString() ?? '',
  maxTokens: s.maxTokens?.toString() ?? '',
  contextSize: s.contextSize?.toString() ?? '',
  // A line break inside a stop string is written \n, so each line stays one string.
  stop: (s.stop ?? []).map((x) => x.replace(/\n/g, '\\n')).join('\n'),
});

/** The draft as sampling; blank fields are left out (the connection's default, else the provider's). */
function fromDraft(d: Draft): Sampling {
  const out: Sampling = {};
  for (const { key } of FIELDS) if (d[key].trim() !== '') out[key] = Number(d[key]);
  const stop = d.stop.split('\n').filter((line) => line !== '');
  if (stop.length) out.stop = stop.map((s) => s.replace(/\\n/g, '\n'));
  return out;
}

export function describeSampling(s: Sampling): string {
  const parts = [
    s.temperature !== undefined && `temperature ${s.temperature}`,
    s.topP !== undefined && `top-p ${s.topP}`,
    s.maxTokens !== undefined && `max ${s.maxTokens} tokens`,
    s.contextSize !== undefined && `context ${s.contextSize}`,
    s.stop?.length && `${s.stop.length} stop string${s.stop.length === 1 ? '' : 's'}`,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'the provider’s defaults';
}

export const SamplingSettings = memo(function SamplingSettings(props: { session: ChatSession }) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const chat = useAppStore((s) => s.settings?.chat);
  const connectionId = props.session.connectionId || chat?.mainConnectionId || '';
  const connectionName = useAppStore((s) => s.connections.items.find((p) => p.id === connectionId)?.name ?? connectionId);
  const fallback = (connectionId && chat?.connectionSampling?.[connectionId]) || EMPTY;
  const own = props.session.sampling ?? EMPTY;
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(() => toDraft(own));
  const [error, setError] = useState<HostError | null>(null);
  // Read again when the saved sampling changes, not each time the session is (a draft survives a turn ending).
  const saved = JSON.stringify(own);
  useEffect(() => setDraft(toDraft(JSON.parse(saved) as Sampling)), [saved]);
  const inForce = { ...fallback, ...own };

  const saveSession = async (sampling: Sampling) => {
    setError(null);
    const result = await updateSession(store, host, props.session.id, { sampling });
    if (!result.ok) setError(result.error);
    return result.ok;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void saveSession(fromDraft(draft));
  };
  const makeDefault = async () => {
    setError(null);
    const sampling = { ...fallback, ...fromDraft(draft) };
    const result = await updateChatSettings(store, host, { connectionSampling: { ...(chat?.connectionSampling ?? {}), [connectionId]: sampling } });
    if (!result.ok) return setError(result.error);
    await saveSession({});
  };

  return (
    <section className="sampling" data-testid="sampling">
      <button type="button" className="btn btn--ghost btn--small" aria-expanded={open} aria-controls={`${id}-form`} onClick={() => setOpen(!open)}>
        Sampling: <span data-testid="sampling-summary">{describeSampling(inForce)}</span>
      </button>
      {open && (
        <form id={`${id}-form`} className="sampling__form" onSubmit={submit} aria-label="Sampling for this session" noValidate>
          <div className="sampling__fields">
            {FIELDS.map(({ key, label, step, integer }) => (
              <label key={key} className="field">
                <span className="field__label">{label}</span>
                <input
                  className="input"
                  type="number"
                  inputMode={integer ? 'numeric' : 'decimal'}
                  step={step}
                  min={SAMPLING_RANGES[key].min}
                  max={SAMPLING_RANGES[key].max}
                  value={draft[key]}
                  placeholder={fallback[key] !== undefined ? `${fallback[key]} (connection)` : 'provider default'}
                  onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
                />
              </label>
            ))}
            <label className="field sampling__stop">
              <span className="field__label">Stop strings (one per line; \n for a line break)</span>
              <textarea className="input input--area" rows={2} value={draft.stop} placeholder={fallback.stop?.join('\n') ?? 'none'} onChange={(e) => setDraft({ ...draft, stop: e.target.value })} />
            </label>
          </div>
          <p className="field__hint">
            Blank fields follow {connectionName ? `${connectionName}’s default` : 'the connection’s default'}. With a context size, the oldest messages are left out so the prompt and the reply fit; each reply’s breakdown shows what was cut.
          </p>
          <div className="sampling__bar">
            <button type="submit" className="btn btn--primary btn--small">
              Save for this session
            </button>
            <button type="button" className="btn btn--small" aria-disabled={!connectionId || undefined} onClick={() => connectionId && void makeDefault()}>
              Make it {connectionName ? `${connectionName}’s` : 'the connection’s'} default
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void saveSession({})}>
              Use the connection’s default
            </button>
          </div>
          {error && <InlineError error={error} title="Could not change the sampling" testId="sampling-error" />}
        </form>
      )}
    </section>
  );
});
