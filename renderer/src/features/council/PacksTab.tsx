// Packs tab: the Lumia packs installed (bundled and yours). Import a pack file — the Workbench's, or one downloaded
// from LumiHub or exported by Lumiverse — by choosing or dropping it; a pack already installed asks to replace it or
// keep both. Export any pack (the Workbench's shape or LumiHub's); remove your own.
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { PackSummary } from '../../../../shared/types/council';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { ConfirmRemove } from '../../components/ConfirmRemove';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { exportPack, importPack, reloadPacks, removePack } from '../../stores/council-commands';
import { downloadText, readFileText } from '../workbench/files';
import { Avatar } from './Avatar';
import { useAction } from './use-action';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function PackImport() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const { busy, error, setError, run } = useAction<'import'>();
  const [conflict, setConflict] = useState<{ name: string; content: string; message: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const send = async (name: string, content: string, choice?: 'overwrite' | 'keepBoth') => {
    setDone(null);
    const result = await run('import', `Could not import ${name}`, () => importPack(host, content, choice));
    if (!result) return;
    if (!result.ok && result.error.code === 'CONFLICT' && result.error.path === '/id' && !choice && !/bundled/.test(result.error.message)) {
      // Asked below instead of shown as a failure.
      setError(null);
      return setConflict({ name, content, message: result.error.message });
    }
    setConflict(null);
    if (result.ok) {
      setDone(`Imported ${result.value.name}: ${plural(result.value.items.length, 'member persona', 'member personas')}${result.value.loomItems?.length ? `, ${plural(result.value.loomItems.length, 'loom item', 'loom items')} kept` : ''}.`);
      await reloadPacks(store, host);
    }
  };

  const take = async (file: File | undefined) => {
    if (!file) return;
    try {
      await send(file.name, await readFileText(file));
    } catch (err) {
      setError({ title: `Could not read ${file.name}`, error: { code: 'INVALID_INPUT', message: err instanceof Error ? err.message : String(err) } satisfies HostError });
    } finally {
      if (inputRef.current) inputRef.current.value = '';
    }
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    setDragging(false);
    void take(e.dataTransfer.files[0]);
  };

  return (
    <div
      className="card pack-import"
      data-dragging={dragging || undefined}
      data-testid="pack-import"
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => e.currentTarget === e.target && setDragging(false)}
      onDrop={onDrop}
    >
      <h3 className="card__title">Import a pack</h3>
      <p className="panel-note">A Lumia pack file (.json): one downloaded from LumiHub, exported by Lumiverse or by the Workbench. Choose it, or drop it here.</p>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-file`}>
          Pack file
        </label>
        <input id={`${id}-file`} ref={inputRef} type="file" accept=".json,application/json" onChange={(e) => void take(e.target.files?.[0])} />
      </div>
      {busy && (
        <p className="panel-note" role="status">
          Importing…
        </p>
      )}
      {conflict && (
        <div className="confirm" role="group" aria-label="This pack is already installed" data-testid="pack-conflict">
          <p>{conflict.message} Replace it, or keep both (the new one gets its own id)?</p>
          <div className="confirm__actions">
            <button type="button" className="btn btn--primary" onClick={() => void send(conflict.name, conflict.content, 'overwrite')}>
              Replace
            </button>
            <button type="button" className="btn" onClick={() => void send(conflict.name, conflict.content, 'keepBoth')}>
              Keep both
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => setConflict(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {done && (
        <p className="panel-note pack-import__done" role="status" data-testid="pack-imported">
          <Icon name="check" /> {done}
        </p>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </div>
  );
}

function PackRow(props: { pack: PackSummary }) {
  const { pack } = props;
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const { busy, error, run } = useAction<'export' | 'remove'>();
  const [format, setFormat] = useState<'workbench' | 'lumihub'>('workbench');
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);

  const exportPack = async () => {
    setSaved(null);
    const result = await run('export', `Could not export ${pack.name}`, () => exportPack(host, pack.id, format));
    if (result?.ok && downloadText(result.value.fileName, result.value.content)) setSaved(result.value.fileName);
  };
  const remove = async () => {
    const result = await run('remove', `Could not remove ${pack.name}`, () => removePack(host, pack.id));
    if (result?.ok) await reloadPacks(store, host);
  };

  return (
    <li className="pack-row" data-testid="pack" data-id={pack.id}>
      <div className="pack-row__head">
        <div className="pack-row__faces" aria-hidden="true">
          {pack.items.slice(0, 4).map((item) => (
            <Avatar key={item.id} packId={pack.id} itemId={item.id} hasAvatar={item.avatarUrl !== null} name={item.name} size="sm" />
          ))}
        </div>
        <div className="pack-row__text">
          <p className="pack-row__name">
            {pack.name} <span className="pack-row__meta">v{pack.version}{pack.author ? ` · by ${pack.author}` : ''}</span>{' '}
            <span className={`badge${pack.source === 'bundled' ? '' : ' badge--ok'}`}>{pack.source === 'bundled' ? 'Bundled' : 'Yours'}</span>
          </p>
          <p className="panel-note">
            {plural(pack.items.length, 'persona', 'personas')}
            {pack.items.length ? `: ${pack.items.map((i) => i.name).join(', ')}` : ''}
            {pack.loomItems?.length ? ` · ${plural(pack.loomItems.length, 'loom item', 'loom items')} kept (${pack.loomItems.join(', ')})` : ''}
            {pack.tools.length ? ` · ${plural(pack.tools.length, 'tool', 'tools')}` : ''}
          </p>
        </div>
        <div className="pack-row__actions">
          <label className="visually-hidden" htmlFor={`${id}-format`}>
            Export format for {pack.name}
          </label>
          <select id={`${id}-format`} className="input input--select" value={format} onChange={(e) => setFormat(e.target.value as 'workbench' | 'lumihub')}>
            <option value="workbench">Workbench pack</option>
            <option value="lumihub">LumiHub pack</option>
          </select>
          <button type="button" className="btn btn--small" aria-label={`Export ${pack.name}`} aria-disabled={busy !== null || undefined} onClick={() => void exportPack()}>
            {busy === 'export' ? 'Exporting…' : 'Export'}
          </button>
          {pack.source === 'user' && !confirming && (
            <button type="button" className="btn btn--small btn--danger-ghost" aria-label={`Remove ${pack.name}…`} onClick={() => setConfirming(true)}>
              <Icon name="trash" />
              <span aria-hidden="true">Remove…</span>
            </button>
          )}
        </div>
      </div>
      {confirming && (
        <ConfirmRemove
          name={pack.name}
          consequence="? Members made from it show as missing until it is back. This cannot be undone; export it first to keep a copy."
          busy={busy !== null}
          removing={busy === 'remove'}
          onRemove={() => void remove()}
          onCancel={() => setConfirming(false)}
          cancelRef={cancelRef}
        />
      )}
      {saved && (
        <p className="panel-note" role="status">
          <Icon name="check" /> Saved as <code>{saved}</code>.
        </p>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </li>
  );
}

export function PacksTab() {
  const packs = useAppStore((s) => s.council.packs);
  return (
    <div className="panel-stack" data-testid="packs-tab">
      <PackImport />
      {packs.length === 0 ? (
        <p className="panel-note">No packs installed yet.</p>
      ) : (
        <ul className="pack-list" aria-label="Installed packs">
          {packs.map((p) => (
            <PackRow key={p.id} pack={p} />
          ))}
        </ul>
      )}
    </div>
  );
}
