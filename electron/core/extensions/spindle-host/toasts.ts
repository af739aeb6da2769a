// spindle.toast.*: a short notice from an extension's backend, shown by the window (and kept in its log).
// Lumiverse needs no permission for it; a flood is cut off here, so a stranger's loop cannot bury the app.
import { TOAST_LEVELS, type ExtensionToast, type ToastLevel } from '../../../../shared/spindle/toast';
import type { Clock } from '../../ports';
import { fail, unknownMethod, type NamespaceHandler } from './namespace';

/** At most this many toasts of one extension in TOAST_WINDOW_MS; the rest are refused (RATE_LIMITED). */
export const MAX_TOASTS = 5;
export const TOAST_WINDOW_MS = 10_000;
const MAX_MESSAGE = 1000;
const MAX_TITLE = 120;

export function toastsNamespace(clock: Clock, show: (extensionId: string, toast: ExtensionToast) => void): NamespaceHandler {
  const recent = new Map<string, number[]>();
  return {
    handle(caller, method, args) {
      if (!(TOAST_LEVELS as readonly string[]).includes(method)) return unknownMethod('toast', method);
      const now = clock.now();
      const times = (recent.get(caller.extensionId) ?? []).filter((t) => now - t < TOAST_WINDOW_MS);
      if (times.length >= MAX_TOASTS) fail('RATE_LIMITED', `At most ${MAX_TOASTS} toasts in ${TOAST_WINDOW_MS / 1000} s; this one was not shown.`);
      recent.set(caller.extensionId, [...times, now]);
      const [message, options] = args as [unknown, { title?: unknown; duration?: unknown } | undefined];
      const text = typeof message === 'string' ? message : JSON.stringify(message ?? '');
      const title = typeof options?.title === 'string' && options.title ? options.title.slice(0, MAX_TITLE) : undefined;
      const duration = typeof options?.duration === 'number' && Number.isFinite(options.duration) ? Math.min(30_000, Math.max(1_000, options.duration)) : 4_000;
      show(caller.extensionId, { level: method as ToastLevel, message: text.slice(0, MAX_MESSAGE), ...(title ? { title } : {}), durationMs: duration });
      return null;
    },
  };
}
