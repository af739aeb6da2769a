// System / Light / Dark: a radio group that asks the host to store ui.theme; the page follows the stored value.
import { useState } from 'react';
import { Icon, type IconName } from '../components/Icon';
import { changeTheme } from '../stores/app/commands';
import { selectSettingsLoaded, selectTheme } from '../stores/app/selectors';
import { THEMES, type Theme } from '../stores/app/theme';
import { useAppStore, useAppStoreApi, useHost } from './context';

const LABELS: Record<Theme, { label: string; icon: IconName }> = {
  system: { label: 'System', icon: 'monitor' },
  light: { label: 'Light', icon: 'sun' },
  dark: { label: 'Dark', icon: 'moon' },
};

export function ThemeSwitch() {
  const store = useAppStoreApi();
  const host = useHost();
  const theme = useAppStore(selectTheme);
  const loaded = useAppStore(selectSettingsLoaded);
  // The choice in flight shows at once; the host's answer (or its refusal) then decides.
  const [pending, setPending] = useState<Theme | null>(null);
  const shown = pending ?? theme;

  const choose = (next: Theme) => {
    if (next === shown) return;
    setPending(next);
    void changeTheme(store, host, next).finally(() => setPending((p) => (p === next ? null : p)));
  };

  return (
    // Not disabled while saving: disabling would take keyboard focus away from the radios.
    <fieldset className="theme-switch" disabled={!loaded} aria-busy={pending !== null || undefined}>
      <legend className="theme-switch__legend">Theme</legend>
      <div className="theme-switch__options">
        {THEMES.map((value) => (
          <label key={value} className="theme-switch__option">
            <input
              type="radio"
              name="theme"
              value={value}
              checked={shown === value}
              onChange={() => choose(value)}
              className="theme-switch__input"
            />
            <span className="theme-switch__face">
              <Icon name={LABELS[value].icon} />
              <span>{LABELS[value].label}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
