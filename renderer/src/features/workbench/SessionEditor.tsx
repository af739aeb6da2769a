// The session's setting: the character (name, description, personality, scenario), the user's persona, and world-info entries (keywords + content).
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { SESSION_LIMITS, type Character, type ChatSession, type Persona, type WorldInfoEntry } from '../../../../shared/types/chat';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { updateSession } from '../../stores/chat/chat-commands';
import { DiscardChanges } from '../../components/DiscardChanges';
import { FormStatus } from '../../components/FormStatus';

interface EntryDraft {
  id: string;
  keywords: string;
  content: string;
  enabled: boolean;
}

let entrySeq = 0;
function newEntryId(): string {
  return `wi-${Date.now().toString(36)}-${(++entrySeq).toString(36)}`;
}

function draftEntries(entries: readonly WorldInfoEntry[]): EntryDraft[] {
  return entries.map((e) => ({ id: e.id, keywords: e.keywords.join(', '), content: e.content, enabled: e.enabled }));
}

function splitKeywords(text: string): string[] {
  return [...new Set(text.split(',').map((k) => k.trim()).filter(Boolean))];
}

export function SessionEditor(props: { session: ChatSession }) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const { session } = props;
  const [character, setCharacter] = useState<Character>(session.character);
  const [persona, setPersona] = useState<Persona>(session.persona);
  const [entries, setEntries] = useState<EntryDraft[]>(() => draftEntries(session.worldInfo));
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<HostError | null>(null);
  const [saved, setSaved] = useState(false);

  // Follow the saved session (another window, an import) unless there are unsaved edits.
  useEffect(() => {
    if (dirty) return;
    setCharacter(session.character);
    setPersona(session.persona);
    setEntries(draftEntries(session.worldInfo));
  }, [session, dirty]);

  const touch = () => {
    setDirty(true);
    setSaved(false);
  };
  const editCharacter = (patch: Partial<Character>) => {
    setCharacter((c) => ({ ...c, ...patch }));
    touch();
  };
  const editPersona = (patch: Partial<Persona>) => {
    setPersona((p) => ({ ...p, ...patch }));
    touch();
  };
  const editEntry = (entryId: string, patch: Partial<EntryDraft>) => {
    setEntries((list) => list.map((e) => (e.id === entryId ? { ...e, ...patch } : e)));
    touch();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    for (const [i, e] of entries.entries()) {
      const keywords = splitKeywords(e.keywords);
      if (keywords.length > SESSION_LIMITS.keywords) return setError({ code: 'INVALID_INPUT', message: `Entry ${i + 1} has more than ${SESSION_LIMITS.keywords} keywords.`, path: `/worldInfo/${i}/keywords` });
      if (keywords.some((k) => k.length > SESSION_LIMITS.keyword)) return setError({ code: 'INVALID_INPUT', message: `A keyword of entry ${i + 1} is longer than ${SESSION_LIMITS.keyword} characters.`, path: `/worldInfo/${i}/keywords` });
    }
    setBusy(true);
    setError(null);
    // Everything an entry has that this form does not show (secondary keywords, order, its original from the
    // file…) stays; keywords left as they were keep their original list (a comma inside one included).
    const before = new Map(session.worldInfo.map((e) => [e.id, e]));
    const worldInfo: WorldInfoEntry[] = entries.map((e) => {
      const was = before.get(e.id);
      const keywords = was && e.keywords === was.keywords.join(', ') ? was.keywords : splitKeywords(e.keywords);
      return { ...was, id: e.id, keywords, content: e.content, enabled: e.enabled };
    });
    const result = await updateSession(store, host, session.id, { character, persona, worldInfo });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setDirty(false);
    setSaved(true);
  };

  const text = (label: string, value: string, onChange: (v: string) => void, rows: number, placeholder: string) => {
    const fieldId = `${id}-${label.replace(/\W+/g, '-').toLowerCase()}`;
    return (
      <div className="field">
        <label className="field__label" htmlFor={fieldId}>
          {label}
        </label>
        {rows === 1 ? (
          <input id={fieldId} className="input" value={value} maxLength={SESSION_LIMITS.name} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <textarea id={fieldId} className="input input--area" rows={rows} value={value} maxLength={SESSION_LIMITS.text} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
        )}
      </div>
    );
  };

  return (
    <form className="session-editor" onSubmit={(e) => void submit(e)} noValidate aria-busy={busy || undefined} data-testid="session-editor">
      <section className="card" aria-labelledby={`${id}-char`}>
        <h2 id={`${id}-char`} className="card__title">
          Character
        </h2>
        <p className="card__lead">Who the model plays. All four go into the system prompt.</p>
        <div className="field-stack">
          {text('Character name', character.name, (v) => editCharacter({ name: v }), 1, 'Seraphina')}
          {text('Description', character.description, (v) => editCharacter({ description: v }), 3, 'Appearance, background, what they want.')}
          {text('Personality', character.personality, (v) => editCharacter({ personality: v }), 2, 'Warm, wry, protective.')}
          {text('Scenario', character.scenario, (v) => editCharacter({ scenario: v }), 2, 'Where and when the story starts.')}
        </div>
      </section>
      <section className="card" aria-labelledby={`${id}-persona`}>
        <h2 id={`${id}-persona`} className="card__title">
          Your persona
        </h2>
        <div className="field-stack">
          {text('Persona name', persona.name, (v) => editPersona({ name: v }), 1, 'Ada')}
          {text('Persona description', persona.description, (v) => editPersona({ description: v }), 2, 'Who you are in this story.')}
        </div>
      </section>
      <section className="card" aria-labelledby={`${id}-wi`}>
        <h2 id={`${id}-wi`} className="card__title">
          World info
        </h2>
        <p className="card__lead">An entry goes into the prompt when one of its keywords appears in the last few messages.</p>
        {entries.length > 0 && (
          <ol className="wi-list">
            {entries.map((entry, i) => (
              <li key={entry.id} className="inset wi-entry" data-testid="world-info-entry">
                <div className="wi-entry__head">
                  <span className="wi-entry__num">#{i + 1}</span>
                  <label className="field__check">
                    <input type="checkbox" checked={entry.enabled} onChange={(e) => editEntry(entry.id, { enabled: e.target.checked })} />
                    Enabled
                  </label>
                  <button
                    type="button"
                    className="btn btn--ghost btn--small"
                    aria-label={`Remove entry ${i + 1}`}
                    onClick={() => {
                      setEntries((list) => list.filter((e) => e.id !== entry.id));
                      touch();
                    }}
                  >
                    <Icon name="trash" />
                  </button>
                </div>
                <div className="field">
                  <label className="field__label" htmlFor={`${id}-wi-${entry.id}-k`}>
                    Keywords
                  </label>
                  <input
                    id={`${id}-wi-${entry.id}-k`}
                    className="input"
                    value={entry.keywords}
                    placeholder="castle, the old keep"
                    onChange={(e) => editEntry(entry.id, { keywords: e.target.value })}
                  />
                  <p className="field__hint">Comma-separated; whole words, any case.</p>
                </div>
                <div className="field">
                  <label className="field__label" htmlFor={`${id}-wi-${entry.id}-c`}>
                    Content
                  </label>
                  <textarea
                    id={`${id}-wi-${entry.id}-c`}
                    className="input input--area"
                    rows={3}
                    maxLength={SESSION_LIMITS.text}
                    value={entry.content}
                    onChange={(e) => editEntry(entry.id, { content: e.target.value })}
                  />
                </div>
              </li>
            ))}
          </ol>
        )}
        <button
          type="button"
          className="btn btn--small"
          onClick={() => {
            setEntries((list) => [...list, { id: newEntryId(), keywords: '', content: '', enabled: true }]);
            touch();
          }}
          disabled={entries.length >= SESSION_LIMITS.worldInfoEntries}
        >
          <Icon name="plus" /> Add entry
        </button>
      </section>
      {error && <InlineError error={error} title="Could not save the session" />}
      <div className="form-actions session-editor__actions">
        <button type="submit" className="btn btn--primary" aria-disabled={busy || undefined}>
          <Icon name="check" />
          {busy ? 'Saving…' : 'Save character & world'}
        </button>
        <DiscardChanges
          dirty={dirty}
          onDiscard={() => {
            setDirty(false);
            setError(null);
          }}
        />
        <FormStatus busy={null} idle={dirty ? 'Unsaved changes.' : saved ? 'Saved.' : ''} />
      </div>
    </form>
  );
}
