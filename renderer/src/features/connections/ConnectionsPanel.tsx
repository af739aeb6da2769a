// Connections section: LLM providers and MCP servers (empty state until the connections contract lands).
import { sectionById } from '../../app/sections';
import { useAppStore } from '../../app/context';
import { EmptyState } from '../../components/EmptyState';

const SPEC = sectionById('connections');

export function ConnectionsPanel() {
  const count = useAppStore((s) => s.connections.items.length);
  // The list view arrives with this domain's contract; until then the slice stays empty.
  if (count === 0) return <EmptyState icon="connections" {...SPEC.empty} />;
  return <p className="panel-note">{count} item(s) reported by the host.</p>;
}
