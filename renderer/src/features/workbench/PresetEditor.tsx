// The preset editor: the blocks of the Lumiverse preset the chat's prompt is built from, in order, each switched on or
// off, moved, or edited; every change is saved at once at the revision it was read at, so a change an extension made
// meanwhile is never undone (the preset is read again instead, and the person told). While it shows, extensions granted
// presets see Lumiverse's preset editor open on it (host-state-news.ts) and their own tabs show beneath it.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStore, useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { useFrontends, useFrontendsStore } from '../frontends/frontends-context';
import type { Preset } from '../frontends/frontends-store';
import { PresetEditorTabs, PresetToolbar } from '../frontends/PresetEditorTabs';
import { filledWith, PresetBlockForm, type Block } from './PresetBlockForm';
import { PresetVariables } from './PresetVariables';

const CONFLICT_NOTE = 'The preset changed meanwhile (an extension, or another window, saved it): it is shown as it is now. Make your change again.';
const READ_FAILED = 'Could not read the preset';

export function PresetEditor() {
  const host = useHost();
  const { store } = useFrontends();
  const id = useId();
  const presetId = useAppStore((s) => s.settings?.chat?.presetId ?? '');
  const preset = useFrontendsStore((s) => s.presetEditor);
  const [error, setError] = useState<{ title: string; error: HostError } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Set at once (a second click before the next render waits too). */
  const saving = useRef(false);
  /** The preset this view shows now: an answer about another (a late read, a save after leaving) is not shown. */
  const live = useRef({ presetId, mounted: true });

  const show = useCallback((next: Preset | null) => store.setState({ presetEditor: next }), [store]);
  /** Shows a preset read or saved, if it is still the one this view shows and not older than what it shows. */
  const accept = useCallback(
    (read: Preset) => {
      if (!live.current.mounted || read.id !== live.current.presetId) return;
      const shown = store.getState().presetEditor;
      if (shown?.id === read.id && shown.cache_revision > read.cache_revision) return;
      show(read);
    },
    [show, store],
  );
  const load = useCallback(async () => {
    if (!presetId) return show(null);
    const read = await host.invoke('chat.presets.get', { presetId });
    if (read.ok) {
      accept(read.value);
      setError((shown) => (shown?.title === READ_FAILED ? null : shown));
    } else if (live.current.mounted && live.current.presetId === presetId) {
      show(null);
      setError({ title: READ_FAILED, error: read.error });
    }
  }, [accept, host, presetId, show]);
  useEffect(() => {
    const now = { presetId, mounted: true };
    live.current = now;
    void load();
    const off = host.onEvent((event) => {
      if (event.type === 'presets.changed' && event.presetId === presetId) void load();
    });
    return () => {
      now.mounted = false;
      off();
      show(null);
    };
  }, [host, load, presetId, show]);

  if (!presetId) {
    return (
      <section className="card" aria-labelledby={`${id}-title`} data-testid="preset-editor">
        <h2 id={`${id}-title`} className="card__title">
          Preset
        </h2>
        <p className="card__lead">This chat&apos;s prompt is the Workbench&apos;s own (card, persona, world info, history). Choose or import a Lumiverse preset in the chat&apos;s settings bar to see and edit its blocks here.</p>
      </section>
    );
  }
  if (!preset) return error ? <InlineError error={error.error} title={error.title} /> : <p className="panel-note">Reading the preset…</p>;

  const blocks = preset.prompt_order as Block[];
  /** One change at a time, from the preset as last read; a conflict reads it again and says so. */
  const save = async (next: Block[] | { metadata: Record<string, unknown> }, title: string) => {
    if (saving.current) return false;
    saving.current = true;
    setBusy(true);
    const change = Array.isArray(next) ? { prompt_order: next } : next;
    const saved = await host.invoke('chat.presets.update', { presetId: preset.id, ...change, expected_cache_revision: preset.cache_revision });
    saving.current = false;
    setBusy(false);
    if (saved.ok) {
      setError(null);
      accept(saved.value);
      return true;
    }
    setError({ title: saved.error.code === 'PRESET_REVISION_CONFLICT' ? CONFLICT_NOTE : title, error: saved.error });
    if (saved.error.code === 'PRESET_REVISION_CONFLICT') await load();
    return false;
  };
  const replace = (block: Block) => blocks.map((b) => (b.id === block.id ? block : b));
  /** The fields the person changed in the form, over the block as it is now (another writer's change to the rest stays). */
  const saveEdit = async (id: string, changes: Partial<Block>) => {
    if (!blocks.some((b) => b.id === id)) {
      setError({ title: 'Could not save the block', error: { code: 'NOT_FOUND', message: 'The block is no longer in the preset (it was deleted meanwhile).' } });
      return;
    }
    if (await save(blocks.map((b) => (b.id === id ? { ...b, ...changes } : b)), 'Could not save the block')) setEditing(null);
  };
  const variables = (preset.metadata.promptVariables ?? {}) as Record<string, Record<string, unknown>>;
  /** A prompt variable's value, kept in the preset's metadata by block, as Lumiverse keeps it. */
  const saveVariable = (blockId: string, name: string, value: unknown) =>
    void save({ metadata: { ...preset.metadata, promptVariables: { ...variables, [blockId]: { ...variables[blockId], [name]: value } } } }, 'Could not save the setting');
  const move = (at: number, by: -1 | 1) => {
    const next = [...blocks];
    const [block] = next.splice(at, 1);
    next.splice(at + by, 0, block!);
    void save(next, 'Could not move the block');
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="preset-editor" data-preset-id={preset.id}>
      <h2 id={`${id}-title`} className="card__title">
        {preset.name}
      </h2>
      <p className="card__lead">
        The blocks this chat&apos;s prompt is built from, in order. A change is saved at once; the prompt breakdown of the next reply shows what the model was sent.
      </p>
      <PresetToolbar />
      <ol className="preset-blocks" aria-label="Blocks">
        {blocks.map((block, at) => (
          <li key={block.id} className="inset preset-block" data-block-id={block.id} data-enabled={block.enabled !== false}>
            <div className="preset-block__head">
              <label className="field__check">
                <input type="checkbox" checked={block.enabled !== false} aria-label={`Use ${block.name}`} aria-disabled={busy || undefined} onChange={(e) => void save(replace({ ...block, enabled: e.target.checked }), 'Could not switch the block')} />
                <strong>{block.name}</strong>
              </label>
              <span className="field__hint">
                {String(block.role ?? 'system').replace('_append', ' (added)')}
                {filledWith(block.marker) && ` · ${filledWith(block.marker)}`}
              </span>
              <span className="preset-block__actions">
                <button type="button" className="btn btn--small btn--ghost" aria-label={`Move ${block.name} up`} aria-disabled={busy || at === 0 || undefined} onClick={() => at > 0 && !busy && move(at, -1)}>
                  ↑
                </button>
                <button type="button" className="btn btn--small btn--ghost" aria-label={`Move ${block.name} down`} aria-disabled={busy || at === blocks.length - 1 || undefined} onClick={() => at < blocks.length - 1 && !busy && move(at, 1)}>
                  ↓
                </button>
                <button type="button" className="btn btn--small" aria-expanded={editing === block.id} aria-label={`Edit ${block.name}`} onClick={() => setEditing(editing === block.id ? null : block.id)}>
                  Edit
                </button>
              </span>
            </div>
            <PresetVariables block={block} values={variables[block.id] ?? {}} busy={busy} onChange={(name, value) => saveVariable(block.id, name, value)} />
            {editing === block.id && <PresetBlockForm block={block} busy={busy} onCancel={() => setEditing(null)} onSave={(changes) => void saveEdit(block.id, changes)} />}
          </li>
        ))}
      </ol>
      {error && <InlineError error={error.error} title={error.title} />}
      <PresetEditorTabs />
    </section>
  );
}
