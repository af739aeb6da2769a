// Council section: council members and how they deliberate (empty state until the council contract lands).
import { sectionById } from '../../app/sections';
import { useAppStore } from '../../app/context';
import { EmptyState } from '../../components/EmptyState';

const SPEC = sectionById('council');

export function CouncilPanel() {
  const count = useAppStore((s) => s.council.items.length);
  // The list view arrives with this domain's contract; until then the slice stays empty.
  if (count === 0) return <EmptyState icon="council" {...SPEC.empty} />;
  return <p className="panel-note">{count} item(s) reported by the host.</p>;
}
