// The ends of the part of a long chat the window holds. Older messages load as the top comes near (or with the
// button, from the keyboard); newer ones the same way below, when a search result took the window back in time.
import { useCallback } from 'react';
import { useAppStoreApi, useHost } from '../../app/context';
import { loadEarlier, loadLater } from '../../stores/chat/chat-commands';
import { useLoadNear } from '../../components/use-load-near';

const scroller = () => document.getElementById('main');

export function EarlierMessages(props: { count: number }) {
  const store = useAppStoreApi();
  const host = useHost();
  const { ref, loading, run } = useLoadNear<HTMLButtonElement>(useCallback(() => loadEarlier(store, host), [store, host]), { root: scroller, margin: '800px 0px 0px 0px', shown: props.count });
  return (
    // Not a scroll anchor: the browser keeps the first message shown in place while older ones are put above it.
    <button ref={ref} type="button" className="chat__more chat__more--earlier" data-testid="earlier-messages" onClick={() => void run()} aria-busy={loading}>
      {loading ? 'Loading earlier messages…' : `Show earlier messages (${props.count} more)`}
    </button>
  );
}

export function LaterMessages(props: { count: number }) {
  const store = useAppStoreApi();
  const host = useHost();
  const { ref, loading, run } = useLoadNear<HTMLButtonElement>(useCallback(() => loadLater(store, host), [store, host]), { root: scroller, margin: '0px 0px 800px 0px', shown: props.count });
  return (
    <div className="chat__more-row">
      <button ref={ref} type="button" className="chat__more" data-testid="later-messages" onClick={() => void run()} aria-busy={loading}>
        {loading ? 'Loading newer messages…' : `Show newer messages (${props.count} more)`}
      </button>
      <button type="button" className="chat__more" data-testid="newest-messages" onClick={() => void loadLater(store, host, true)}>
        Go to the newest
      </button>
    </div>
  );
}
