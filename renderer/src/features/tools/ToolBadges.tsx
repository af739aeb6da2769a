// A tool's badges: read or write, where it comes from, and whether it is available.
import type { ToolInfo } from '../../../../shared/types/tools';
import { SOURCE_LABELS } from './filter-tools';

export function ToolBadges(props: { tool: ToolInfo }) {
  const { tool } = props;
  return (
    <span className="badges">
      <span className={`badge badge--${tool.mode}`} title={tool.mode === 'read' ? 'Only reads' : 'May change things'}>
        {tool.mode}
      </span>
      <span className="badge badge--neutral">{SOURCE_LABELS[tool.source]}</span>
      <span className={`badge badge--${tool.status === 'available' ? 'ok' : 'danger'}`}>{tool.status}</span>
    </span>
  );
}
