// Sidecar section: the sidecar LLM configuration (empty state until the sidecar contract lands).
import { sectionById } from '../../app/sections';
import { useAppStore } from '../../app/context';
import { EmptyState } from '../../components/EmptyState';

const SPEC = sectionById('sidecar');

export function SidecarPanel() {
  const count = useAppStore((s) => s.sidecar.items.length);
  // The list view arrives with this domain's contract; until then the slice stays empty.
  if (count === 0) return <EmptyState icon="sidecar" {...SPEC.empty} />;
  return <p className="panel-note">{count} item(s) reported by the host.</p>;
}
