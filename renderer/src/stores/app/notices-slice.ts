// Notices slice: host notices (host truth, mirrored) and errors this window hit itself (local, dismissed locally).
import type { HostError } from '../../../../shared/errors';
import type { Notice } from '../../../../shared/notices';
import type { Slice, StoreDeps } from './slice';

export interface LocalError {
  id: string;
  /** What the user was trying to do, e.g. "Could not change the theme". */
  title: string;
  error: HostError;
  at: number;
}

export interface NoticesSlice {
  hostNotices: Notice[];
  localErrors: LocalError[];
  noticesReplaced(notices: Notice[]): void;
  noticeAdded(notice: Notice): void;
  noticeRemoved(id: string): void;
  errorReported(title: string, error: HostError): void;
  localErrorDismissed(id: string): void;
}

/** Older local errors fall off so a flapping failure cannot grow the list without bound. */
const MAX_LOCAL_ERRORS = 5;

export function createNoticesSlice(deps: StoreDeps): Slice<NoticesSlice> {
  let seq = 0;
  return (set) => ({
    hostNotices: [],
    localErrors: [],
    noticesReplaced: (notices) => set({ hostNotices: [...notices] }),
    noticeAdded: (notice) =>
      set((s) => ({
        hostNotices: s.hostNotices.some((n) => n.id === notice.id)
          ? s.hostNotices.map((n) => (n.id === notice.id ? notice : n))
          : [...s.hostNotices, notice],
      })),
    noticeRemoved: (id) =>
      set((s) => (s.hostNotices.some((n) => n.id === id) ? { hostNotices: s.hostNotices.filter((n) => n.id !== id) } : s)),
    errorReported: (title, error) =>
      set((s) => ({
        localErrors: [...s.localErrors, { id: `local-${++seq}`, title, error, at: deps.now() }].slice(-MAX_LOCAL_ERRORS),
      })),
    localErrorDismissed: (id) => set((s) => ({ localErrors: s.localErrors.filter((e) => e.id !== id) })),
  });
}
