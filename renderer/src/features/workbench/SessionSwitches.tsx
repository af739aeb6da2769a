// The open session's own switches, under its title: Council (run the council before each reply) and Dry run (build
// the prompt and show it instead of calling the model). Both are kept with the session, so they survive a reload and
// another session keeps its own; a click shows at once, and the next message goes with it.
import { memo, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { ChatSession } from '../../../../shared/types/chat';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { setSessionSwitches } from '../../stores/chat/chat-commands';

/** The switches' values for a session: its own, else the council mode setting; dry run is off unless it was turned on. */
export function sessionSwitches(session: ChatSession, councilMode: boolean): { council: boolean; dryRun: boolean } {
  return { council: session.council ?? councilMode, dryRun: session.dryRun === true };
}

export const selectCouncilMode = (s: { settings: { council: { councilMode: boolean } } | null }) => s.settings?.council.councilMode ?? false;

export const SessionSwitches = memo(function SessionSwitches(props: { session: ChatSession }) {
  const store = useAppStoreApi();
  const host = useHost();
  const { council, dryRun } = sessionSwitches(props.session, useAppStore(selectCouncilMode));
  const [error, setError] = useState<HostError | null>(null);
  const change = async (patch: { council?: boolean; dryRun?: boolean }) => {
    setError(null);
    const result = await setSessionSwitches(store, host, props.session.id, patch);
    if (!result.ok) setError(result.error);
  };
  return (
    <div className="session-switches" data-testid="session-switches">
      <label className="switch" title="Run the council before each reply in this session (sidecar mode); the default is the Council mode setting">
        <input type="checkbox" role="switch" checked={council} aria-label="Council" onChange={(e) => void change({ council: e.target.checked })} />
        <span className="switch__track" aria-hidden="true" />
        <span aria-hidden="true">Council</span>
      </label>
      <label className="switch" title="In this session, build the prompt and show it instead of calling the model">
        <input type="checkbox" role="switch" checked={dryRun} aria-label="Dry run (prompt only)" onChange={(e) => void change({ dryRun: e.target.checked })} />
        <span className="switch__track" aria-hidden="true" />
        <span aria-hidden="true">Dry run (prompt only)</span>
      </label>
      {error && <InlineError error={error} title="Could not change the session’s switches" />}
    </div>
  );
});
