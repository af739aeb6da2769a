// Which messages a window of a chat shows: [first, last) of `total`, from where it was asked for.
import { HostFailure } from '../../../../shared/errors';
import { SESSION_PAGE } from '../../../../shared/types/chat';

export interface WindowPlace {
  start?: number;
  end?: number;
  /** A message id: the page around it. */
  around?: string;
}

/**
 * Without end up to the newest, without start the page before end, with `around` the page around that message
 * (`indexOf` finds it: -1 when the chat has none). A window past the end (the chat got shorter: a restore, a
 * deletion elsewhere) is the newest page instead.
 */
export function windowRange(total: number, place: WindowPlace, indexOf: (messageId: string) => number): { first: number; last: number } {
  let { start, end } = place;
  if (start !== undefined && start >= total && total > 0) start = end = undefined;
  if (place.around !== undefined) {
    const at = indexOf(place.around);
    if (at < 0) throw new HostFailure({ code: 'NOT_FOUND', message: `The session has no message ${place.around}.`, path: '/around' });
    start = Math.max(0, at - SESSION_PAGE / 2);
    end = start + SESSION_PAGE;
  }
  const last = Math.min(end ?? total, total);
  return { first: Math.min(start ?? Math.max(0, last - SESSION_PAGE), last), last };
}
