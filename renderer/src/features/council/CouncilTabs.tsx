// The council's four tabs (Members, Runs, Packs, Settings), moved between with the arrow keys.
import { useRef, type KeyboardEvent } from 'react';
import type { CouncilTab } from '../../stores/council/council-slice';

const TABS: ReadonlyArray<{ id: CouncilTab; label: string }> = [
  { id: 'members', label: 'Members' },
  { id: 'runs', label: 'Runs' },
  { id: 'packs', label: 'Packs' },
  { id: 'settings', label: 'Settings' },
];

export function CouncilTabs(props: { tab: CouncilTab; onSelect(tab: CouncilTab): void; idBase: string }) {
  const refs = useRef(new Map<CouncilTab, HTMLButtonElement>());
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.id === props.tab);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = TABS[(moves[event.key]! + TABS.length) % TABS.length]!;
    props.onSelect(next.id);
    refs.current.get(next.id)?.focus();
  };
  return (
    <div className="council-tabs" role="tablist" aria-label="Council" onKeyDown={onKey}>
      {TABS.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            if (el) refs.current.set(t.id, el);
          }}
          type="button"
          role="tab"
          id={`${props.idBase}-tab-${t.id}`}
          className="council-tab"
          aria-selected={props.tab === t.id}
          aria-controls={`${props.idBase}-panel`}
          tabIndex={props.tab === t.id ? 0 : -1}
          onClick={() => props.onSelect(t.id)}
          data-testid={`council-tab-${t.id}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
