// What a chosen file holds before it is imported: the character and its picture, the greeting to start with (a
// card's first message and its alternates), world info, messages, and the world-info fields kept but not used here.
import { useId } from 'react';
import type { MethodOutput } from '../../../../shared/contract';

const KIND_LABEL = { card: 'Character card', 'st-chat': 'SillyTavern chat', session: 'Exported session' } as const;
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function ImportPreview(props: {
  name: string;
  preview: MethodOutput<'chat.sessions.inspectData'>;
  picture: string | null;
  greeting: number;
  onGreeting(index: number): void;
}) {
  const id = useId();
  const { preview } = props;
  return (
    <section className="import-preview" aria-label={`What ${props.name} holds`} data-testid="import-preview">
      <div className="import-preview__head">
        {props.picture && <img className="import-preview__picture" src={props.picture} alt={`${preview.characterName}'s picture`} />}
        <div>
          <p className="import-preview__name">{preview.characterName || props.name}</p>
          <p className="panel-note">
            {KIND_LABEL[preview.kind]} · {plural(preview.worldInfoEntries, 'world-info entry', 'world-info entries')}
            {preview.kind === 'card' ? ` · ${plural(preview.greetings, 'greeting', 'greetings')}` : ` · ${plural(preview.messages, 'message', 'messages')}`}
          </p>
        </div>
      </div>
      {preview.greetings > 1 && (
        <fieldset className="import-preview__greetings">
          <legend>Start with which greeting?</legend>
          {preview.greetingTexts.map((text, i) => (
            <label key={i} className="import-preview__greeting">
              <input type="radio" name={`${id}-greeting`} value={i} checked={props.greeting === i} onChange={() => props.onGreeting(i)} />
              <span>
                <strong>{i === 0 ? 'First message' : `Alternate ${i}`}</strong> {text.length > 280 ? `${text.slice(0, 280)}…` : text}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {preview.duplicateEntries > 0 && (
        <p className="field__hint" data-testid="import-duplicates">
          {plural(preview.duplicateEntries, 'lorebook entry repeats', 'lorebook entries repeat')} the card’s own world info (or another lorebook): kept once.
        </p>
      )}
      {preview.regexScripts > 0 && (
        <p className="field__hint" data-testid="import-regex">
          {plural(preview.regexScripts, 'regex script comes', 'regex scripts come')} with the card: rules of this chat, listed under Regex scripts.
        </p>
      )}
      {preview.regexSkipped.length > 0 && (
        <div className="field__hint" data-testid="import-regex-skipped">
          {plural(preview.regexSkipped.length, 'regex script is', 'regex scripts are')} left out (the card keeps them):
          <ul>
            {preview.regexSkipped.slice(0, 20).map((reason, i) => (
              <li key={i}>{reason}</li>
            ))}
          </ul>
        </div>
      )}
      {preview.notes.map((note, i) => (
        <p key={i} className="field__hint" data-testid="import-note">
          {note}
        </p>
      ))}
      {preview.ignored.length > 0 && <p className="field__hint">World-info fields kept for export but not used here: {preview.ignored.join(', ')}.</p>}
    </section>
  );
}
