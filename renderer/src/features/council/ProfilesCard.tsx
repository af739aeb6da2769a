// Council profiles: save the current council under a name, load one back (replacing it), export one as a file, import a file.
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { exportProfile, importProfile, loadProfile, reloadProfiles, removeProfile, saveProfile } from '../../stores/council/council-commands';
import { FileExport } from './FileExport';
import { useAction } from '../../components/use-action';
import { AskingHost } from '../../components/AskingHost';
import { ProfileRow } from './ProfileRow';

const MAX_IMPORT_BYTES = 1_000_000;

export function ProfilesCard() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const profiles = useAppStore((s) => s.council.profiles);
  const loaded = useAppStore((s) => s.council.profilesLoaded);
  const { busy, error, setError, run } = useAction<string>();
  const [name, setName] = useState('');
  const [importName, setImportName] = useState('');
  const [status, setStatus] = useState('');
  const [exported, setExported] = useState<{ fileName: string; content: string; name: string } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void reloadProfiles(store, host).then((r) => {
      if (!r.ok) setError({ title: 'Could not list the saved profiles', error: r.error });
    });
  }, [store, host, setError]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    void run('save', 'Could not save the profile', () => saveProfile(store, host, trimmed)).then((r) => {
      if (r?.ok) {
        setStatus(`Saved the current council as “${r.value.name}”.`);
        setName('');
      }
    });
  };

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      setError({ title: 'Could not import the profile', error: { code: 'INPUT_TOO_LARGE', message: `${file.name} is larger than 1 MB.`, hint: 'A profile file is a small JSON document exported from here.' } });
      return;
    }
    const content = await file.text();
    void run('import', `Could not import ${file.name}`, () => importProfile(store, host, content, importName.trim() || undefined)).then((r) => {
      if (r?.ok) {
        setStatus(`Imported profile “${r.value.name}” (${r.value.members} members). Load it to use it.`);
        setImportName('');
      }
    });
  };

  const exportOne = (profileName: string) =>
    void run(`export:${profileName}`, `Could not export ${profileName}`, () => exportProfile(host, profileName)).then((r) => {
      if (r?.ok) setExported({ ...r.value, name: profileName });
    });

  return (
    <section className="card profiles" aria-labelledby={`${id}-title`} data-testid="profiles">
      <h2 id={`${id}-title`} className="card__title">
        Profiles
      </h2>
      <p className="card__lead">Save the whole council (members, settings and Council Mode) under a name, switch between saved councils, or share one as a file.</p>
      <form className="profiles__save" onSubmit={save}>
        <label htmlFor={`${id}-name`} className="field__label">
          Save current council as
        </label>
        <div className="inline-form">
          <input id={`${id}-name`} className="input" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder="e.g. Long campaign" />
          <button type="submit" className="btn btn--primary" aria-disabled={busy !== null || !name.trim() || undefined}>
            {busy === 'save' ? 'Saving…' : 'Save'}
          </button>
        </div>
        <p className="field__hint">Saving under an existing name replaces that profile.</p>
      </form>

      {profiles.length > 0 ? (
        <ul className="stack-list profile-list" aria-label="Saved profiles">
          {profiles.map((p) => (
            <ProfileRow
              key={p.name}
              profile={p}
              busy={busy !== null}
              onLoad={() =>
                void run(`load:${p.name}`, `Could not load ${p.name}`, () => loadProfile(store, host, p.name)).then((r) => {
                  if (r?.ok) setStatus(`Loaded “${p.name}”: ${r.value.members.length} ${r.value.members.length === 1 ? 'member' : 'members'}.`);
                })
              }
              onExport={() => exportOne(p.name)}
              onRemove={() =>
                void run(`remove:${p.name}`, `Could not delete ${p.name}`, () => removeProfile(store, host, p.name)).then((r) => {
                  if (r?.ok) setStatus(`Deleted “${p.name}”.`);
                })
              }
            />
          ))}
        </ul>
      ) : (
        // Asking only while an answer can come: not beside the error that ended it, nor under the "not connected" banner.
        loaded ? <p className="panel-note">No saved profiles yet.</p> : !error && <AskingHost>for saved profiles</AskingHost>
      )}

      {exported && (
        <FileExport
          fileName={exported.fileName}
          content={exported.content}
          mime="application/json"
          title={`Profile “${exported.name}”`}
          onClose={() => setExported(null)}
          testId="profile-export"
        />
      )}

      <div className="profiles__import">
        <h3 className="settings__subtitle">Import</h3>
        <div className="inline-form">
          <div className="field">
            <label htmlFor={`${id}-import-name`} className="field__label">
              Name <span className="field__title">(optional; keeps the file’s name when empty)</span>
            </label>
            <input id={`${id}-import-name`} className="input" value={importName} maxLength={80} onChange={(e) => setImportName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-file`} className="field__label">
              Profile file (.json)
            </label>
            <input id={`${id}-file`} ref={fileRef} type="file" accept=".json,application/json" className="input input--file" onChange={(e) => void importFile(e)} aria-disabled={busy !== null || undefined} />
          </div>
        </div>
      </div>
      <p className="profiles__status" role="status">
        {busy !== null ? 'Waiting for the host…' : status}
      </p>
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}
