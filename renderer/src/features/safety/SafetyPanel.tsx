// Safety section: what waits for approval, the write policy and the dry-run default, the tools always allowed (with
// revoke), and the Workbench's allowed read/write paths. Every value is the host's; changes go through settings.update.
import { useAppStore } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { selectApprovalCount } from '../../stores/safety/safety-selectors';
import './safety.css';
import { SafetyPolicy } from './SafetyPolicy';
import { AlwaysAllowedList } from './AlwaysAllowedList';
import { WorkbenchPaths } from './WorkbenchPaths';

const SPEC = sectionById('safety');

export function SafetyPanel() {
  const pending = useAppStore(selectApprovalCount);
  const noneAllowed = useAppStore((s) => s.allowed.items.length === 0);
  return (
    <div className="safety-layout">
      {/* Nothing waiting and nothing always allowed: say what this section is for, above its controls. */}
      {pending === 0 && noneAllowed && <EmptyState icon="safety" {...SPEC.empty} />}
      <p className="panel-note" role="status" data-testid="pending-approvals">
        {pending === 0 ? 'No tool call is waiting for approval.' : `${pending} tool ${pending === 1 ? 'call is' : 'calls are'} waiting for approval.`}
      </p>
      <SafetyPolicy />
      <AlwaysAllowedList />
      <WorkbenchPaths />
    </div>
  );
}
