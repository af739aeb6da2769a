// Your data, in the sidebar: back up everything made here to one file (no keys), or restore one — asked first, then
// told what was restored and what to add again (keys, extensions to install).
import { useRef, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { MethodOutput } from '../../../../shared/contract';
import { useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { downloadText, readFileText } from '../workbench/files';

type Restored = MethodOutput<'backup.import'>;

export function BackupControls() {
  const host = useHost();
  const picker = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<{ name: string; json: string } | null>(null);
  /** The backup last restored: held items are accepted by restoring it again with their keys. */
  const [last, setLast] = useState<string | null>(null);
  const [accepting, setAccepting] = useState<Set<string>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  const [restored, setRestored] = useState<Restored | null>(null);
  const [error, setError] = useState<{ title: string; error: HostError } | null>(null);
  const [busy, setBusy] = useState(false);

  const backUp = async () => {
    setError(null);
    setRestored(null);
    setBusy(true);
    const result = await host.invoke('backup.export', {});
    setBusy(false);
    if (!result.ok) return setError({ title: 'Could not back up', error: result.error });
    downloadText(result.value.fileName, JSON.stringify(result.value.backup, null, 2));
    const left = result.value.backup.withheld.length;
    setDone(`Saved ${result.value.fileName}${left ? ` — without ${left} key${left === 1 ? '' : 's'} and secret value${left === 1 ? '' : 's'}` : ''}.`);
  };
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setDone(null);
    try {
      setPending({ name: file.name, json: await readFileText(file) });
    } catch (err) {
      setError({ title: 'Could not read the file', error: { code: 'INVALID_INPUT', message: (err as Error).message } });
    }
  };
  const run = async (json: string, accept: string[]) => {
    setBusy(true);
    setError(null);
    const result = await host.invoke('backup.import', { json, accept });
    setBusy(false);
    if (!result.ok) return setError({ title: 'Could not restore', error: result.error });
    setLast(json);
    setAccepting(new Set());
    setRestored(result.value);
  };
  const restore = async () => {
    if (!pending || busy) return;
    const { json } = pending;
    setPending(null);
    await run(json, []);
  };
  const accept = () => {
    if (!last || busy || accepting.size === 0 || !restored) return;
    // What was accepted before stays accepted: the restore runs again with every yes so far.
    void run(last, [...restored.accepted.map((item) => item.key), ...accepting]);
  };
  const toggle = (key: string) =>
    setAccepting((keys) => {
      const next = new Set(keys);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <section className="backup" aria-label="Your data" data-testid="backup">
      <h2 className="backup__title">Your data</h2>
      <div className="backup__actions">
        <button type="button" className="btn btn--small" aria-disabled={busy || undefined} onClick={() => !busy && void backUp()}>
          Back up…
        </button>
        <button type="button" className="btn btn--small" aria-disabled={busy || undefined} onClick={() => !busy && picker.current?.click()}>
          Restore…
        </button>
        <input ref={picker} type="file" accept=".json,application/json" hidden aria-label="Backup file to restore" onChange={(e) => void choose(e.target.files?.[0]).finally(() => (e.target.value = ''))} />
      </div>
      {pending && (
        <div className="backup__confirm" role="group" aria-label="Restore this backup?">
          <p>
            Restore <strong>{pending.name}</strong>? Its settings replace yours — connections, MCP servers (the commands they run), safety and
            the permissions and trust of your extensions included — and its sessions and packs replace the ones with the same id. Restore only a
            backup you made.
          </p>
          <button type="button" className="btn btn--primary btn--small" autoFocus onClick={() => void restore()}>
            {busy ? 'Restoring…' : 'Restore'}
          </button>
          <button type="button" className="btn btn--ghost btn--small" onClick={() => setPending(null)}>
            Cancel
          </button>
        </div>
      )}
      {done && (
        <p className="backup__note" role="status">
          {done}
        </p>
      )}
      {restored && (
        <div className="backup__note" role="status" data-testid="backup-restored">
          <p>
            Restored {restored.sessions} session{restored.sessions === 1 ? '' : 's'}, {restored.packs} pack{restored.packs === 1 ? '' : 's'}
            {restored.runs > 0 && `, ${restored.runs} council run${restored.runs === 1 ? '' : 's'}`}
            {restored.presets > 0 && `, ${restored.presets} preset${restored.presets === 1 ? '' : 's'}`}
            {restored.regexScripts > 0 && `, ${restored.regexScripts} regex script${restored.regexScripts === 1 ? '' : 's'}`} and the settings.
          </p>
          {restored.keysNeeded.length > 0 && <p>Add the key again for: {restored.keysNeeded.join(', ')}.</p>}
          {restored.missingExtensions.length > 0 && <p>Install again: {restored.missingExtensions.join(', ')}.</p>}
          {restored.problems.map((problem) => (
            <p key={problem}>Not restored: {problem}</p>
          ))}
          {restored.accepted.map((item) => (
            <p key={item.key}>
              Accepted: {item.name} — {item.reason}.
            </p>
          ))}
          {restored.held.length > 0 && (
            <fieldset className="backup__held" data-testid="backup-held">
              <legend>Held until you accept them — off, without keys, or your stricter setting kept:</legend>
              {restored.held.map((item) => (
                <label key={item.key} className="backup__held-item">
                  <input type="checkbox" checked={accepting.has(item.key)} onChange={() => toggle(item.key)} />
                  <span>
                    <strong>{item.name}</strong> — {item.reason}
                  </span>
                </label>
              ))}
              <button type="button" className="btn btn--small" aria-disabled={busy || accepting.size === 0 || undefined} onClick={accept}>
                {busy ? 'Restoring…' : 'Accept the checked ones'}
              </button>
            </fieldset>
          )}
        </div>
      )}
      {error && <InlineError error={error.error} title={error.title} testId="backup-error" />}
    </section>
  );
}
