// A row of tabs as WAI-ARIA has them: one stop for Tab (the selected tab), the arrow keys, Home and End moving
// between them (and choosing, as they move).
import { useRef, type KeyboardEvent } from 'react';

export interface TabListProps<T extends string> {
  tabs: ReadonlyArray<{ id: T; label: string }>;
  selected: T;
  onSelect(id: T): void;
  label: string;
  className: string;
  tabClassName: string;
  /** With it, each tab has the id `<idBase>-tab-<id>` and controls `<idBase>-panel`. */
  idBase?: string;
  /** With it, each tab has the test id `<testIdPrefix><id>`. */
  testIdPrefix?: string;
}

export function TabList<T extends string>(props: TabListProps<T>) {
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const { tabs } = props;
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.id === props.selected);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = tabs[(moves[event.key]! + tabs.length) % tabs.length]!;
    props.onSelect(next.id);
    refs.current.get(next.id)?.focus();
  };
  return (
    <div className={props.className} role="tablist" aria-label={props.label} onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            if (el) refs.current.set(t.id, el);
          }}
          type="button"
          role="tab"
          id={props.idBase ? `${props.idBase}-tab-${t.id}` : undefined}
          className={props.tabClassName}
          aria-selected={props.selected === t.id}
          aria-controls={props.idBase ? `${props.idBase}-panel` : undefined}
          tabIndex={props.selected === t.id ? 0 : -1}
          onClick={() => props.onSelect(t.id)}
          data-testid={props.testIdPrefix ? `${props.testIdPrefix}${t.id}` : undefined}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
