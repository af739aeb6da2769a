// One permission of an extension: what it allows, whether it is requested and granted, and Grant/Revoke.
import { PERMISSIONS_ANSWERED_EMPTY, PERMISSIONS_NOT_AVAILABLE_HERE } from '../../../../shared/types/spindle';
import { permissionInfo } from './permissions';
import type { Busy } from './ExtensionCard';

export function PermissionRow(props: {
  permission: string;
  requested: boolean;
  granted: boolean;
  extensionName: string;
  busy: Busy;
  /** Offered though not requested (under Other permissions): Grant is there too. */
  offered?: boolean;
  onToggle(grant: boolean): void;
}) {
  const info = permissionInfo(props.permission);
  const pending = props.busy === `grant:${props.permission}` || props.busy === `revoke:${props.permission}`;
  const notHere = (PERMISSIONS_NOT_AVAILABLE_HERE as readonly string[]).includes(props.permission);
  // Granted or not, its reads answer empty: the Workbench has no such data (databanks, tracked events).
  const empty = (PERMISSIONS_ANSWERED_EMPTY as readonly string[]).includes(props.permission) ? ' (answered empty here)' : '';
  const state = notHere
    ? 'Requested, not available here'
    : `${props.granted ? (props.requested ? 'Granted' : 'Granted, not requested') : props.requested ? 'Requested, not granted' : 'Not requested'}${empty}`;
  return (
    <li className="perm" data-testid="permission" data-permission={props.permission}>
      <div className="perm__text">
        <div className="perm__head">
          <code className="perm__name">{props.permission}</code>
          <span className={`badge badge--${props.granted ? 'ok' : 'neutral'}`} data-testid="permission-state">
            {state}
          </span>
        </div>
        <p className="perm__explanation">{info.explanation}</p>
      </div>
      {(props.requested || props.granted || props.offered) && (
        <button
          type="button"
          className="btn btn--small"
          aria-disabled={props.busy !== null || undefined}
          aria-label={`${props.granted ? 'Revoke' : 'Grant'} ${props.permission} ${props.granted ? 'from' : 'to'} ${props.extensionName}`}
          onClick={() => props.busy === null && props.onToggle(!props.granted)}
        >
          {pending ? (props.granted ? 'Revoking…' : 'Granting…') : props.granted ? 'Revoke' : 'Grant'}
        </button>
      )}
    </li>
  );
}
