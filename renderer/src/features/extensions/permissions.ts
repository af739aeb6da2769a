// What each extension permission lets an extension do, and what each worker status means, in plain language. Plain data.
import type { ExtensionInfo } from '../../../../shared/events';

export type Permission = ExtensionInfo['requested'][number];
export type ExtensionStatus = ExtensionInfo['status'];

export const PERMISSIONS: readonly Permission[] = ['tools', 'generation'];

export const PERMISSION_INFO: Record<Permission, { label: string; explanation: string }> = {
  tools: { label: 'Tools', explanation: 'may register tools that council members and the chat can call' },
  generation: { label: 'Generation', explanation: 'may run its own LLM generations through your connections (uses your API credits)' },
};

export function permissionInfo(permission: string): { label: string; explanation: string } {
  return Object.prototype.hasOwnProperty.call(PERMISSION_INFO, permission)
    ? PERMISSION_INFO[permission as Permission]
    : { label: permission, explanation: 'a permission this version of the workbench does not know' };
}

export const STATUS_INFO: Record<ExtensionStatus, { label: string; tone: 'ok' | 'warn' | 'danger' | 'neutral'; help: string }> = {
  running: { label: 'Running', tone: 'ok', help: 'Its worker process is up and its tools are available.' },
  starting: { label: 'Starting', tone: 'warn', help: 'Its worker process is starting.' },
  stopped: { label: 'Stopped', tone: 'neutral', help: 'Enabled, but its worker is not running. Restart starts it.' },
  crashed: { label: 'Crashed', tone: 'danger', help: 'Its worker exited unexpectedly; the host restarts it after a short wait.' },
  failed: { label: 'Failed', tone: 'danger', help: 'It crashed repeatedly or could not start, so the host stopped trying. Restart to try again.' },
  disabled: { label: 'Disabled', tone: 'neutral', help: 'Turned off: no worker runs and its tools are not registered.' },
};

export function statusInfo(status: string) {
  return Object.prototype.hasOwnProperty.call(STATUS_INFO, status)
    ? STATUS_INFO[status as ExtensionStatus]
    : { label: status, tone: 'neutral' as const, help: '' };
}
