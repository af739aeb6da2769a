// The Settings tab: tools mode, context settings and toggles, the at-least-one fallback; then saved council profiles.
import { useId, useState } from 'react';
import type { CouncilToolsSettings, CouncilView } from '../../../../shared/types/council';
import type { MethodInput } from '../../../../shared/contract';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { updateCouncil } from '../../stores/council/council-commands';
import { ProfilesCard } from './ProfilesCard';
import { useAction } from '../../components/use-action';
import { NumberSetting } from './NumberSetting';
import { SettingToggle } from './SettingToggle';
import { NUMBER_FIELDS, TOGGLES } from './settings-fields';

type Patch = MethodInput<'council.update'>['patch'];
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
          <p className="note-line settings__note">
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
            <SettingToggle key={t.key} label={t.label} help={t.help} checked={ts[t.key] ?? true} busy={busy !== null} onChange={(next) => setTools(t.key, { [t.key]: next })} />
          ))}
        </div>

        <h3 className="settings__subtitle">Dice</h3>
        <SettingToggle
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
