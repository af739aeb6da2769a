// One saved council profile: name, member count, when saved; Load, Export and Remove.
import { useEffect, useRef, useState } from 'react';
import type { ProfileSummary } from '../../../../shared/types/council';
import { Icon } from '../../components/Icon';

function when(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function ProfileRow(props: { profile: ProfileSummary; busy: boolean; onLoad(): void; onExport(): void; onRemove(): void }) {
  const { profile } = props;
  const [confirm, setConfirm] = useState<'load' | 'remove' | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirm) cancelRef.current?.focus();
  }, [confirm]);
  return (
    <li className="profile" data-testid="profile" data-name={profile.name}>
      <div className="profile__row">
        <div className="profile__text">
          <strong className="profile__name">{profile.name}</strong>
          <span className="profile__meta">
            {profile.members} {profile.members === 1 ? 'member' : 'members'} · saved {when(profile.savedAt)}
          </span>
        </div>
        <div className="profile__actions">
          <button type="button" className="btn btn--small" aria-disabled={props.busy || undefined} onClick={() => !props.busy && setConfirm('load')} aria-label={`Load profile ${profile.name}…`}>
            <span aria-hidden="true">Load…</span>
          </button>
          <button type="button" className="btn btn--small" aria-disabled={props.busy || undefined} onClick={() => !props.busy && props.onExport()} aria-label={`Export profile ${profile.name}`}>
            <span aria-hidden="true">Export</span>
          </button>
          <button type="button" className="btn btn--small btn--danger-ghost" aria-disabled={props.busy || undefined} onClick={() => !props.busy && setConfirm('remove')} aria-label={`Delete profile ${profile.name}…`}>
            <Icon name="trash" />
          </button>
        </div>
      </div>
      {confirm && (
        <div className="confirm" role="group" aria-label={confirm === 'load' ? `Confirm loading ${profile.name}` : `Confirm deleting ${profile.name}`}>
          <p>
            {confirm === 'load' ? (
              <>
                Replace the current council (members, settings, Council Mode) with <strong>{profile.name}</strong>? Save the current one first to keep it.
              </>
            ) : (
              <>
                Delete the saved profile <strong>{profile.name}</strong>? The current council is not changed.
              </>
            )}
          </p>
          <div className="confirm__actions">
            <button
              type="button"
              className={`btn ${confirm === 'load' ? 'btn--primary' : 'btn--danger'}`}
              aria-disabled={props.busy || undefined}
              onClick={() => {
                if (props.busy) return;
                if (confirm === 'load') props.onLoad();
                else props.onRemove();
                setConfirm(null);
              }}
            >
              {confirm === 'load' ? 'Load' : 'Delete'}
            </button>
            <button type="button" ref={cancelRef} className="btn" onClick={() => setConfirm(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
