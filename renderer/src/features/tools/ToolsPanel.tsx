// Tools section: the host's tool registry (empty state until the tools contract lands).
import { sectionById } from '../../app/sections';
import { useAppStore } from '../../app/context';
import { EmptyState } from '../../components/EmptyState';

const SPEC = sectionById('tools');

export function ToolsPanel() {
  const count = useAppStore((s) => s.tools.items.length);
  // The list view arrives with this domain's contract; until then the slice stays empty.
  if (count === 0) return <EmptyState icon="tools" {...SPEC.empty} />;
  return <p className="panel-note">{count} item(s) reported by the host.</p>;
}
