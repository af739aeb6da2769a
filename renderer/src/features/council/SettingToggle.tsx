// One on/off council setting as a switch with its help line.
import { useId, useState } from 'react';

export function SettingToggle(props: { label: string; help: string; checked: boolean; busy: boolean; onChange(next: boolean): Promise<unknown>; testId?: string }) {
  const id = useId();
  // Shows the new state while the host saves it; the host's answer (or a failure) takes over again.
  const [pending, setPending] = useState<boolean | null>(null);
  const change = (next: boolean) => {
    if (props.busy) return;
    setPending(next);
    void props.onChange(next).finally(() => setPending(null));
  };
  return (
    <div className="setting-toggle">
      <label className="switch" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={pending ?? props.checked}
          aria-describedby={`${id}-help`}
          aria-disabled={props.busy || undefined}
          onChange={(e) => change(e.target.checked)}
          data-testid={props.testId}
        />
        <span className="switch__track" aria-hidden="true" />
        <span>{props.label}</span>
      </label>
      <p className="field__hint setting-toggle__help" id={`${id}-help`}>
        {props.help}
      </p>
    </div>
  );
}
