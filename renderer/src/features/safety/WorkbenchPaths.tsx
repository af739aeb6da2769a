// Which notes the Workbench chat's tool calls and Try it may read and write (paths relative to the notes folder).
import { useId } from 'react';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { updateSafety } from '../../stores/safety/safety-commands';
import { PathListEditor } from './PathListEditor';

const LISTS = [
  { kind: 'read', label: 'Read paths', field: 'allowedReadPaths' },
  { kind: 'write', label: 'Write paths', field: 'allowedWritePaths' },
] as const;

const NO_LISTS: { allowedReadPaths?: string[]; allowedWritePaths?: string[] } = {};

export function WorkbenchPaths() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const loaded = useAppStore((s) => s.settings !== null);
  const workbench = useAppStore((s) => s.settings?.safety?.workbench) ?? NO_LISTS;
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="workbench-paths">
      <h2 id={`${id}-title`} className="card__title">
        Workbench paths
      </h2>
      <p className="card__lead">
        Which notes the Workbench chat’s tool calls and Try it may touch (council members have their own lists, in the Council section). Paths are relative to the notes folder.
      </p>
      <div className="path-lists">
        {LISTS.map(({ kind, label, field }) => (
          <PathListEditor
            key={kind}
            label={label}
            owner="the Workbench"
            kind={kind}
            value={workbench[field]}
            disabled={!loaded}
            onSave={(list) => updateSafety(store, host, { workbench: { [field]: list } })}
          />
        ))}
      </div>
    </section>
  );
}
