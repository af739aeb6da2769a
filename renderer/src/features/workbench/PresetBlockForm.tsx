// One prompt block of a preset, edited: its name, who speaks it, where it goes and its text. A marker block (the
// chat history, the character's description…) has no text of its own: what the Workbench puts there is shown instead.
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { POSITION_LABELS, ROLE_LABELS } from '../../../../shared/spindle/prompt-block-fields';

export type Block = Record<string, unknown> & { id: string; name: string; marker: string | null };

const ROLES = Object.entries(ROLE_LABELS);
const POSITIONS = Object.entries(POSITION_LABELS);

/** Markers whose place the prompt fills from the chat (the preset's text is not used there), in the person's words. */
const FILLED: Record<string, string> = {
  chat_history: 'the chat history',
  char_description: "the character's description",
  char_personality: "the character's personality",
  scenario: 'the scenario',
  persona_description: 'your persona',
  world_info_before: 'world info',
  world_info_after: 'world info',
  dialogue_examples: 'the example dialogue',
  category: 'the heading of the blocks after it',
};

/** What a marker block stands for, when the prompt fills it from the chat. */
export const filledWith = (marker: string | null): string | null => (marker && Object.hasOwn(FILLED, marker) ? FILLED[marker]! : null);

/** One labelled choice of the form. */
function Choice(props: { id: string; label: string; options: Array<[string, string]>; value: string; onChange(value: string): void }) {
  return (
    <label className="field" htmlFor={props.id}>
      <span className="field__label">{props.label}</span>
      <select id={props.id} className="input" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** `onSave` gets the fields the person changed: the rest of the block may have changed meanwhile, and stays as it is. */
export function PresetBlockForm(props: { block: Block; busy: boolean; onSave(changes: Partial<Block>): void; onCancel(): void }) {
  const id = useId();
  const [opened] = useState<Block>(props.block);
  const [draft, setDraft] = useState<Block>(props.block);
  const set = (field: string, value: unknown) => setDraft((d) => ({ ...d, [field]: value }));
  const filled = filledWith(props.block.marker);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!props.busy) props.onSave(Object.fromEntries(Object.entries(draft).filter(([key, value]) => value !== opened[key])));
  };
  // Ctrl+Enter saves from the text, Escape leaves without saving.
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Escape') props.onCancel();
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
  };
  return (
    <form className="inset preset-block-form" aria-label={`Block ${props.block.name}`} onSubmit={submit} onKeyDown={keys} data-testid="preset-block-form">
      <label className="field" htmlFor={`${id}-name`}>
        <span className="field__label">Name</span>
        <input id={`${id}-name`} className="input" value={draft.name} maxLength={200} required onChange={(e) => set('name', e.target.value)} />
      </label>
      <div className="preset-block-form__row">
        <Choice id={`${id}-role`} label="Spoken as" options={ROLES} value={String(draft.role ?? 'system')} onChange={(v) => set('role', v)} />
        <Choice id={`${id}-position`} label="Where" options={POSITIONS} value={String(draft.position ?? 'pre_history')} onChange={(v) => set('position', v)} />
        {draft.position === 'in_history' && (
          <label className="field" htmlFor={`${id}-depth`}>
            <span className="field__label">Depth (messages from the end)</span>
            <input id={`${id}-depth`} className="input" type="number" min={0} max={1000} value={Number(draft.depth ?? 0)} onChange={(e) => set('depth', Math.max(0, Math.floor(Number(e.target.value) || 0)))} />
          </label>
        )}
      </div>
      {filled === null ? (
        <label className="field" htmlFor={`${id}-content`}>
          <span className="field__label">Text (macros such as {'{{char}}'} work here)</span>
          <textarea id={`${id}-content`} className="input" rows={8} value={String(draft.content ?? '')} onChange={(e) => set('content', e.target.value)} />
        </label>
      ) : (
        <p className="field__hint">This block is where the prompt puts {filled}; it has no text of its own.</p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn--primary" aria-disabled={props.busy || undefined}>
          {props.busy ? 'Saving…' : 'Save block'}
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
