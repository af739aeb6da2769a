// The Settings tab: tools mode, context settings and toggles, the at-least-one fallback; then saved council profiles.
import { useId, useState, type KeyboardEvent } from 'react';
import type { CouncilToolsSettings, CouncilView } from '../../../../shared/types/council';
import type { MethodInput } from '../../../../shared/contract';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { updateCouncil } from '../../stores/council-commands';
import { ProfilesCard } from './ProfilesCard';
import { useAction } from './use-action';

type Patch = MethodInput<'council.update'>['patch'];
type NumberKey = 'timeoutMs' | 'sidecarContextWindow' | 'maxWordsPerTool';
type ToggleKey = 'includeCharacterInfo' | 'includeWorldInfo' | 'includeUserPersona' | 'excludeLatestUserMessage' | 'allowUserControl' | 'retainResultsForRegens' | 'planArguments';

export const NUMBER_FIELDS: ReadonlyArray<{ key: NumberKey; label: string; unit: string; min: number; max: number; help: string }> = [
  { key: 'timeoutMs', label: 'Timeout', unit: 'ms', min: 100, max: 600_000, help: 'The deadline for the whole cycle: tools still running then end as timed out.' },
  { key: 'sidecarContextWindow', label: 'Context window', unit: 'messages', min: 0, max: 500, help: 'How many recent chat messages the tools see.' },
  { key: 'maxWordsPerTool', label: 'Max words per tool', unit: 'words', min: 0, max: 10_000, help: 'Prompt tools are cut to this many words; 0 means no limit.' },
];

export const TOGGLES: ReadonlyArray<{ key: ToggleKey; label: string; help: string }> = [
  { key: 'includeCharacterInfo', label: 'Include character info', help: 'The character card goes into the tools’ context.' },
  { key: 'includeWorldInfo', label: 'Include world info', help: 'Matching world info entries go into the context.' },
  { key: 'includeUserPersona', label: 'Include user persona', help: 'The user’s persona goes into the context.' },
  { key: 'excludeLatestUserMessage', label: 'Exclude latest user message', help: 'Tools analyse the chat without the message being answered.' },
  { key: 'allowUserControl', label: 'Allow user control', help: 'Tools follow out-of-character requests the user makes about the council.' },
  { key: 'retainResultsForRegens', label: 'Retain results for regenerations', help: 'A regenerated reply reuses the last run’s results instead of running the tools again.' },
  {
    key: 'planArguments',
    label: 'Plan tool arguments with the sidecar',
    help: 'The sidecar fills in each tool’s arguments. Off, or without a sidecar, tools are called as Lumiverse calls them: the chat context and the deadline only.',
  },
];

export function parseBounded(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= min && n <= max ? n : null;
}

function NumberSetting(props: { spec: (typeof NUMBER_FIELDS)[number]; value: number; busy: boolean; onCommit(value: number): void }) {
  const { spec } = props;
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const parsed = draft === null ? props.value : parseBounded(draft, spec.min, spec.max);
  const invalid = parsed === null;
  const commit = () => {
    if (draft === null || parsed === null) return;
    setDraft(null);
    if (parsed !== props.value) props.onCommit(parsed);
  };
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') setDraft(null);
  };
  return (
    <div className="field setting-number">
      <label className="field__label" htmlFor={id}>
        {spec.label} <span className="field__title">({spec.unit})</span>
      </label>
      <input
        id={id}
        className="input input--number"
        type="number"
        min={spec.min}
        max={spec.max}
        step={1}
        value={draft ?? String(props.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-help${invalid ? ` ${id}-error` : ''}`}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={onKey}
        data-setting={spec.key}
      />
      <p className="field__hint" id={`${id}-help`}>
        {spec.help}
      </p>
      {invalid && (
        <p className="field__error" id={`${id}-error`} role="alert">
          <Icon name="error" /> A whole number from {spec.min.toLocaleString('en')} to {spec.max.toLocaleString('en')}.
        </p>
      )}
    </div>
  );
}

function Toggle(props: { label: string; help: string; checked: boolean; busy: boolean; onChange(next: boolean): Promise<unknown>; testId?: string }) {
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

export function SettingsTab(props: { view: CouncilView }) {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const { busy, error, run } = useAction<string>();
  const ts = props.view.settings.toolsSettings;
  const [pendingMode, setPendingMode] = useState<CouncilToolsSettings['mode'] | null>(null);
  const send = (what: string, patch: Patch) => run(what, 'Could not change the council settings', () => updateCouncil(store, host, patch));
  const setTools = (what: string, patch: Partial<CouncilToolsSettings>) => send(what, { toolsSettings: patch });
  const mode = pendingMode ?? ts.mode;
  const chooseMode = (next: CouncilToolsSettings['mode']) => {
    if (busy !== null) return;
    setPendingMode(next);
    void setTools('mode', { mode: next }).finally(() => setPendingMode(null));
  };

  return (
    <div className="panel-stack">
      <section className="card settings" aria-labelledby={`${id}-title`} data-testid="council-settings">
        <h2 id={`${id}-title`} className="card__title">
          How the council runs
        </h2>
        <fieldset className="mode-choice">
          <legend className="field__label">Tools mode</legend>
          {(
            [
              ['sidecar', 'Sidecar', 'Before each reply: the dice decide who takes part, their tools run on the sidecar LLM, and the results become a deliberation block for the main model.'],
              ['inline', 'Inline', 'During the reply: every member’s tools with arguments are offered to the main model as functions (no dice roll). Needs function calling on the main connection.'],
            ] as const
          ).map(([value, label, help]) => (
            <label key={value} className={`mode-choice__option${mode === value ? ' mode-choice__option--on' : ''}`}>
              <input type="radio" name={`${id}-mode`} value={value} checked={mode === value} onChange={() => chooseMode(value)} />
              <span>
                <strong>{label}</strong>
                <span className="mode-choice__help">{help}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {!props.view.sidecarConfigured && mode === 'sidecar' && (
          <p className="settings__note">
            <Icon name="warning" /> No sidecar LLM is configured: prompt tools and tools that need planned arguments fail until one is chosen in Sidecar.
          </p>
        )}

        <h3 className="settings__subtitle">Context</h3>
        <div className="settings__numbers">
          {NUMBER_FIELDS.map((spec) => (
            <NumberSetting key={spec.key} spec={spec} value={ts[spec.key]} busy={busy === spec.key} onCommit={(value) => void setTools(spec.key, { [spec.key]: value })} />
          ))}
        </div>
        <div className="settings__toggles">
          {TOGGLES.map((t) => (
            <Toggle key={t.key} label={t.label} help={t.help} checked={ts[t.key] ?? true} busy={busy !== null} onChange={(next) => setTools(t.key, { [t.key]: next })} />
          ))}
        </div>

        <h3 className="settings__subtitle">Dice</h3>
        <Toggle
          label="At least one member"
          help="When every roll fails, one eligible member takes part anyway (off in Lumiverse: then nobody runs and the block is empty)."
          checked={props.view.settings.atLeastOneMember}
          busy={busy !== null}
          onChange={(next) => send('atLeastOneMember', { atLeastOneMember: next })}
          testId="at-least-one"
        />
        {busy !== null && (
          <p className="settings__progress" role="status">
            <span className="spinner" aria-hidden="true" /> Saving…
          </p>
        )}
        {error && <InlineError error={error.error} title={error.title} />}
      </section>
      <ProfilesCard />
    </div>
  );
}
