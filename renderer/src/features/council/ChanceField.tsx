// A member's chance to take part: a 0–100 slider with its NN% badge and a number input for typing, both committed to the host.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Icon } from '../../components/Icon';

/** The slider commits after the hand rests this long (and at once on release, blur or a key up). */
export const SLIDER_SETTLE_MS = 300;

export function parseChance(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,3}$/.test(t)) return null;
  const n = Number(t);
  return n >= 0 && n <= 100 ? n : null;
}

export const CHANCE_ERROR = 'Chance must be a whole number from 0 to 100.';

/** `revision` changes when a commit failed, so the drafts give way to the host's value again. */
export function ChanceField(props: { memberName: string; chance: number; revision: number; busy: boolean; onCommit(chance: number): void }) {
  const id = useId();
  const [slider, setSlider] = useState<number | null>(null);
  const [text, setText] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<number | null>(null);
  const commitRef = useRef(props.onCommit);
  commitRef.current = props.onCommit;
  const chanceRef = useRef(props.chance);
  chanceRef.current = props.chance;

  const flush = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const value = pending.current;
    pending.current = null;
    if (value !== null && value !== chanceRef.current) commitRef.current(value);
  };
  useEffect(() => () => flush(), []);

  // Once the host's value catches up with what was sent, the drafts give way to it.
  useEffect(() => {
    if (pending.current === null) setSlider(null);
  }, [props.chance, props.revision]);

  const shownNumber = slider ?? props.chance;
  const textValue = text ?? String(shownNumber);
  const invalid = text !== null && parseChance(text) === null;

  const slide = (value: number) => {
    setSlider(value);
    setText(null);
    pending.current = value;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(flush, SLIDER_SETTLE_MS);
  };

  const commitText = () => {
    if (text === null) return;
    const value = parseChance(text);
    if (value === null) return; // the error stays on screen; nothing is sent
    setText(null);
    if (value !== props.chance) {
      setSlider(value);
      commitRef.current(value);
    }
  };

  const onTextKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commitText();
    } else if (event.key === 'Escape' && text !== null) {
      event.preventDefault();
      setText(null);
    }
  };

  const errorId = `${id}-error`;
  return (
    <div className="chance">
      <label className="chance__label" htmlFor={`${id}-range`}>
        Chance
      </label>
      <input
        id={`${id}-range`}
        type="range"
        className="chance__range"
        min={0}
        max={100}
        step={1}
        value={shownNumber}
        aria-valuetext={`${shownNumber}%`}
        aria-label={`Chance for ${props.memberName}`}
        onChange={(e) => slide(Number(e.target.value))}
        onPointerUp={flush}
        onKeyUp={flush}
        onBlur={flush}
      />
      <input
        type="number"
        inputMode="numeric"
        className="input chance__number"
        min={0}
        max={100}
        step={1}
        value={textValue}
        aria-label={`Chance for ${props.memberName}, percent`}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={commitText}
        onKeyDown={onTextKey}
      />
      <span
        className={`chance-badge chance-badge--${shownNumber >= 100 ? 'always' : shownNumber <= 0 ? 'never' : 'rolled'}`}
        data-testid="chance-badge"
        title={shownNumber >= 100 ? 'Always takes part' : shownNumber <= 0 ? 'Never takes part' : `Takes part when the roll is under ${shownNumber}`}
      >
        {shownNumber}%{props.busy && <span className="visually-hidden"> (saving)</span>}
      </span>
      {invalid && (
        <p className="field__error chance__error" id={errorId} role="alert" data-testid="chance-error">
          <Icon name="error" /> {CHANCE_ERROR}
        </p>
      )}
    </div>
  );
}
