// Workbench section: manual tool runs and council turns (empty state until the runs contract lands).
import { sectionById } from '../../app/sections';
import { useAppStore } from '../../app/context';
import { EmptyState } from '../../components/EmptyState';

const SPEC = sectionById('workbench');

export function WorkbenchPanel() {
  const count = useAppStore((s) => s.runs.items.length);
  // The list view arrives with this domain's contract; until then the slice stays empty.
  if (count === 0) return <EmptyState icon="workbench" {...SPEC.empty} />;
  return <p className="panel-note">{count} item(s) reported by the host.</p>;
}
