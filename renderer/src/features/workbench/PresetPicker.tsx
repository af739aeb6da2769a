// What the chat's prompt is built from: the Workbench's own (card, persona, world info, history) or a Lumiverse preset
// the person imported (Loom, LumiHub or Lumiverse's export) or an extension made, as Lumiverse's active Loom preset.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { updateChatSettings } from '../../stores/chat/chat-commands';

type Listed = { id: string; name: string; blocks: number };
const LIST_FAILED = 'Could not list the presets';

export function PresetPicker() {
  const host = useHost();
  const store = useAppStoreApi();
  const id = useId();
  const file = useRef<HTMLInputElement>(null);
  const loaded = useAppStore((s) => s.settings !== null);
  const chosen = useAppStore((s) => s.settings?.chat?.presetId ?? '');
  // null until the list is read: a chosen preset is not called missing before.
  const [presets, setPresets] = useState<Listed[] | null>(null);
  const [error, setError] = useState<{ title: string; error: HostError } | null>(null);
  const [note, setNote] = useState('');

  // Read at first, and again as the person opens the list (an extension may have made one since).
  const refresh = useCallback(async () => {
    const listed = await host.invoke('chat.presets.list', {});
    if (listed.ok) {
      setPresets(listed.value.presets);
      setError((shown) => (shown?.title === LIST_FAILED ? null : shown));
    } else setError((shown) => shown ?? { title: LIST_FAILED, error: listed.error });
  }, [host]);
  useEffect(() => void refresh(), [refresh]);

  const choose = async (presetId: string): Promise<boolean> => {
    setError(null);
    const saved = await updateChatSettings(store, host, { presetId });
    if (!saved.ok) setError({ title: 'Could not choose the preset', error: saved.error });
    return saved.ok;
  };
  const importFile = async (picked: File | undefined) => {
    if (!picked) return;
    setError(null);
    setNote('');
    const made = await host.invoke('chat.presets.import', { fileName: picked.name, json: await picked.text() });
    if (file.current) file.current.value = '';
    if (!made.ok) return setError({ title: `Could not import ${picked.name}`, error: made.error });
    await refresh();
    const chosenNow = await choose(made.value.id);
    const regex = made.value.regexScripts ? ` and ${made.value.regexScripts} regex script${made.value.regexScripts === 1 ? '' : 's'} of its own` : '';
    const skipped = made.value.regexSkipped?.length ? ` ${made.value.regexSkipped.length} of its scripts could not be used: ${made.value.regexSkipped.slice(0, 3).join('; ')}${made.value.regexSkipped.length > 3 ? '…' : ''}` : '';
    setNote(`Imported “${made.value.name}” (${made.value.blocks} blocks${regex})${chosenNow ? "; the chat's prompt is built from it now" : ''}.${skipped}`);
  };
  const missing = presets !== null && chosen !== '' && !presets.some((p) => p.id === chosen);

  return (
    <div className="chat-settings__row" data-testid="preset-picker">
      <div className="chat-settings__field chat-settings__field--grow">
        <label className="chat-settings__label" htmlFor={`${id}-preset`}>
          Prompt
        </label>
        <select id={`${id}-preset`} className="input input--select" value={chosen} disabled={!loaded} onFocus={() => void refresh()} onChange={(e) => void choose(e.target.value)}>
          <option value="">The Workbench's prompt (card, persona, world info, history)</option>
          {missing && <option value={chosen}>{chosen} (missing: the Workbench's prompt is used)</option>}
          {presets === null && chosen !== '' && <option value={chosen}>…</option>}
          {(presets ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              Preset: {p.name} ({p.blocks} blocks)
            </option>
          ))}
        </select>
      </div>
      <input ref={file} type="file" accept=".json,application/json" hidden aria-label="Lumiverse preset file" onChange={(e) => void importFile(e.target.files?.[0])} />
      <button type="button" className="btn btn--small" disabled={!loaded} onClick={() => file.current?.click()} title="Import a Lumiverse preset (.json from the Loom tab or LumiHub)">
        <Icon name="folder" />
        Import preset…
      </button>
      {note && (
        <p className="chat-settings__hint" role="status">
          {note}
        </p>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </div>
  );
}
