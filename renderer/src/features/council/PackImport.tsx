// Import a pack file (Workbench or LumiHub JSON), dropped or chosen; an id that is already installed asks Overwrite or Keep both.
import { useId, useRef, useState, type DragEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import { useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { importPack, reloadPacks } from '../../stores/council/council-commands';
import { readFileText } from '../workbench/files';
import { useAction } from '../../components/use-action';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function PackImport() {
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
