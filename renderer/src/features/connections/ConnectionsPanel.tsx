// Connections section: LLM connection profiles (keys stay in the host), add/edit/remove, test, model lists, local-server detection.
import { useState } from 'react';
import { useAppStore } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { ConnectionCard } from './ConnectionCard';
import { DetectServers } from './DetectServers';
import { LocalModels } from './LocalModels';
import { ProfileForm } from './ProfileForm';
import './connections.css';
import { AskingHost } from '../../components/AskingHost';

const SPEC = sectionById('connections');

export function ConnectionsPanel() {
  const items = useAppStore((s) => s.connections.items);
  const loaded = useAppStore((s) => s.connections.loaded);
  const loadError = useAppStore((s) => s.connections.loadError);
  const chatId = useAppStore((s) => s.settings?.chat?.mainConnectionId ?? '');
  const sidecarId = useAppStore((s) => s.sidecar.state?.config.connectionProfileId ?? s.settings?.sidecarSettings?.connectionProfileId ?? '');
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState<{ name: string; warnings: string[] } | null>(null);

  const addButton = !adding && (
    <button
      type="button"
      className="btn btn--primary"
      onClick={() => {
        setAdded(null);
        setAdding(true);
      }}
    >
      <Icon name="plus" /> Add connection
    </button>
  );
  const form = adding && (
    <ProfileForm
      onCancel={() => setAdding(false)}
      onDone={(profile, warnings) => {
        setAdding(false);
        setAdded({ name: profile.name, warnings });
      }}
    />
  );
  const confirmation = added && (
    <div className="saved-note" role="status" data-testid="saved-note">
      <Icon name="check" /> Saved {added.name}.
      {added.warnings.map((w) => (
        <p key={w} className="key-warning" role="note">
          <Icon name="warning" />
          <span>{w}</span>
        </p>
      ))}
    </div>
  );

  const usage = (id: string) => [...(id === chatId ? ['Chat'] : []), ...(id === sidecarId ? ['Sidecar'] : [])];
  // One tree for both states, so the open form and the detection results survive the first save.
  return (
    <div className="panel-stack">
      {items.length === 0 ? (
        <EmptyState icon="connections" {...SPEC.empty}>
          {!loaded && !loadError && <AskingHost>for its connections</AskingHost>}
          {addButton && <div className="empty-state__actions">{addButton}</div>}
        </EmptyState>
      ) : (
        <div className="panel-toolbar">
          <p className="panel-summary" role="status">
            {items.length} {items.length === 1 ? 'connection' : 'connections'} · API keys stay in the host; this window sees only their last 4 characters.
          </p>
          {addButton}
        </div>
      )}
      {loadError && <InlineError error={loadError} title="Could not read the connections" />}
      {confirmation}
      {form}
      {items.length > 0 && (
        <ul className="stack-list conn-list" aria-label="Connections">
          {items.map((p) => (
            <ConnectionCard key={p.id} profile={p} usage={usage(p.id)} />
          ))}
        </ul>
      )}
      <LocalModels />
      <DetectServers />
    </div>
  );
}
