// The tool list: one row per tool with its badges, picked by click or arrow keys (Home/End too).
import { useRef, type KeyboardEvent } from 'react';
import type { ToolInfo } from '../../../../shared/types/tools';
import { useAppStore } from '../../app/context';
import { selectSelectedTool } from '../../stores/app/selectors';
import { ToolBadges } from './ToolBadges';

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (i, n) => Math.min(n - 1, i + 1),
  ArrowUp: (i) => Math.max(0, i - 1),
  Home: () => 0,
  End: (_i, n) => n - 1,
};

export function ToolList(props: { tools: readonly ToolInfo[] }) {
  const selected = useAppStore(selectSelectedTool);
  const select = useAppStore((s) => s.toolSelected);
  const listRef = useRef<HTMLUListElement>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const move = MOVES[event.key];
    if (!move || event.altKey || event.ctrlKey || event.metaKey) return;
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button.tool-row') ?? [])];
    const current = buttons.findIndex((b) => b === document.activeElement);
    if (current < 0) return;
    event.preventDefault();
    buttons[move(current, buttons.length)]?.focus();
  };

  return (
    <ul className="tool-list" ref={listRef} onKeyDown={onKeyDown} aria-label="Tools" data-testid="tool-list">
      {props.tools.map((tool) => (
        <li key={tool.qualifiedName}>
          <button
            type="button"
            className="tool-row"
            aria-current={tool.qualifiedName === selected ? 'true' : undefined}
            aria-controls="tool-details"
            data-qualified-name={tool.qualifiedName}
            onClick={() => select(tool.qualifiedName)}
          >
            <span className="tool-row__name">{tool.displayName}</span>
            <code className="tool-row__qname">{tool.qualifiedName}</code>
            <ToolBadges tool={tool} />
          </button>
        </li>
      ))}
    </ul>
  );
}
