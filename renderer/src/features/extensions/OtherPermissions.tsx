// The permissions an extension's manifest does not ask for, folded under its own: a person may grant one (a manifest
// that lags its README, as Lumiverse's server grants any), knowing the extension did not ask for it.
import { PERMISSIONS_NOT_AVAILABLE_HERE } from '../../../../shared/types/spindle';
import type { ExtensionInfo } from '../../../../shared/contract/events';
import { PERMISSIONS, type Permission } from './permissions';
import { PermissionRow } from './PermissionRow';
import type { Busy } from './ExtensionCard';

export function OtherPermissions(props: { ext: ExtensionInfo; busy: Busy; onGrant(permission: Permission): void }) {
  const { ext } = props;
  const others = PERMISSIONS.filter((p) => !ext.requested.includes(p) && !ext.granted.includes(p) && !PERMISSIONS_NOT_AVAILABLE_HERE.includes(p));
  if (others.length === 0) return null;
  return (
    <details className="ext-card__other-perms" data-testid="other-permissions">
      <summary>Other permissions ({others.length}): its manifest does not ask for these</summary>
      <p className="panel-note">Grant one only when its author says it needs it: what it allows is as for any grant.</p>
      <ul className="stack-list perm-list">
        {others.map((p) => (
          <PermissionRow key={p} permission={p} requested={false} granted={false} offered extensionName={ext.name} busy={props.busy} onToggle={() => props.onGrant(p)} />
        ))}
      </ul>
    </details>
  );
}
