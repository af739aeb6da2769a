// Left navigation: one button per section, aria-current on the shown one, arrow keys move between them.
import { useRef, type KeyboardEvent } from 'react';
import { Icon } from '../components/Icon';
import { selectSection, selectSectionSelected } from '../stores/app/selectors';
import { useAppStore } from './context';
import { modifierLabel } from './platform';
import { SECTIONS } from './sections';

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (i, n) => (i + 1) % n,
  ArrowUp: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

export function Nav() {
  const section = useAppStore(selectSection);
  const select = useAppStore(selectSectionSelected);
  const listRef = useRef<HTMLUListElement>(null);
  const mod = modifierLabel();

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const move = MOVES[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-section]') ?? [])];
    const current = buttons.findIndex((b) => b === document.activeElement);
    if (current < 0) return;
    event.preventDefault();
    buttons[move(current, buttons.length)]?.focus();
  };

  return (
    <nav className="nav" aria-label="Sections">
      <ul className="nav__list" ref={listRef} onKeyDown={onKeyDown}>
        {SECTIONS.map((spec, index) => {
          const active = spec.id === section;
          return (
            <li key={spec.id}>
              <button
                type="button"
                className="nav__item"
                data-section={spec.id}
                aria-current={active ? 'page' : undefined}
                aria-keyshortcuts={`Control+${index + 1} Meta+${index + 1}`}
                onClick={() => select(spec.id)}
              >
                <Icon name={spec.id} className="nav__icon" />
                <span className="nav__label">{spec.label}</span>
                <kbd className="nav__kbd" aria-hidden="true">
                  {mod}
                  {index + 1}
                </kbd>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
