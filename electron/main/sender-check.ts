// Decides whether an IPC call may reach the host: only our own page's top frame. No electron import.
import type { HostError } from '../../shared/errors';
import { isAppUrl } from './app-origin';

/** The parts of Electron's WebFrameMain the check reads. */
export interface SenderFrameLike {
  readonly url: string;
  readonly parent: unknown;
}

/** Returns null when the sender is trusted, else the UNAUTHORIZED error to send back. */
export function checkSender(frame: SenderFrameLike | null | undefined): HostError | null {
  // Electron gives null when the frame was navigated away or destroyed after sending.
  if (frame === null || frame === undefined) return unauthorized('the sending frame is gone');
  // Our page has no iframes (CSP frame-src falls back to 'none'); a subframe is never trusted.
  if (frame.parent !== null && frame.parent !== undefined) return unauthorized('calls from subframes are not accepted');
  if (!isAppUrl(frame.url)) return unauthorized('the sender is not the Council Workbench page');
  return null;
}

function unauthorized(reason: string): HostError {
  return { code: 'UNAUTHORIZED', message: `IPC call rejected: ${reason}.` };
}
