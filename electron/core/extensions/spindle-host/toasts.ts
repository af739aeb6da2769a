// spindle.toast.*: a short notice from an extension's backend, shown by the window (and kept in its log).
// Lumiverse needs no permission for it; a flood is cut off here, so a stranger's loop cannot bury the app.
// spindle.push.*: a notification (push_notification), the system's while the window is not in front.
import { RecentWindow } from '../per-extension-limits';
import type { ExtensionToast, ToastLevel } from '../../../../shared/spindle/toast';
import type { Clock } from '../../ports';
import { fail, type HandlersOf, type SpindleHandler } from './handlers';

/** At most this many toasts of one extension in TOAST_WINDOW_MS; the rest are refused (RATE_LIMITED). */
export const MAX_TOASTS = 5;
export const TOAST_WINDOW_MS = 10_000;
const MAX_MESSAGE = 1000;
const MAX_TITLE = 120;

/** At most this many notifications of one extension in PUSH_WINDOW_MS (a nudge now and then, not a stream). */
export const MAX_PUSHES = 5;
export const PUSH_WINDOW_MS = 60_000;
const CHAT_URL = /^\/chat\/([A-Za-z0-9_-]{1,128})\/?$/;

export function pushHandlers(clock: Clock, show: (extensionId: string, toast: ExtensionToast) => void): HandlersOf<'push'> {
  const recent = new RecentWindow(MAX_PUSHES, PUSH_WINDOW_MS, () => clock.now());
  return {
    'push.send': ({ input }, caller) => {
      if (!recent.take(caller.extensionId)) fail('RATE_LIMITED', `At most ${MAX_PUSHES} notifications a minute; this one was not sent.`);
      const chatId = input.url ? CHAT_URL.exec(input.url)?.[1] : undefined;
      show(caller.extensionId, {
        level: 'info',
        message: input.body.slice(0, MAX_MESSAGE),
        ...(input.title ? { title: input.title.slice(0, MAX_TITLE) } : {}),
        durationMs: 8_000,
        push: { ...(chatId ? { chatId } : {}), ...(input.tag ? { tag: input.tag } : {}) },
      });
      return { sent: 1 };
    },
    // The window is the one device: always there while the app runs.
    'push.getStatus': () => ({ available: true, subscriptionCount: 1 }),
  };
}

export function toastHandlers(clock: Clock, show: (extensionId: string, toast: ExtensionToast) => void): HandlersOf<'toast'> {
  const recent = new RecentWindow(MAX_TOASTS, TOAST_WINDOW_MS, () => clock.now());
  const toast =
    (level: ToastLevel): SpindleHandler<`toast.${ToastLevel}`> =>
    ({ message, options }, caller) => {
      if (!recent.take(caller.extensionId)) fail('RATE_LIMITED', `At most ${MAX_TOASTS} toasts in ${TOAST_WINDOW_MS / 1000} s; this one was not shown.`);
      const text = typeof message === 'string' ? message : JSON.stringify(message ?? '');
      const title = typeof options?.title === 'string' && options.title ? options.title.slice(0, MAX_TITLE) : undefined;
      const duration = typeof options?.duration === 'number' && Number.isFinite(options.duration) ? Math.min(30_000, Math.max(1_000, options.duration)) : 4_000;
      show(caller.extensionId, { level, message: text.slice(0, MAX_MESSAGE), ...(title ? { title } : {}), durationMs: duration });
      return null;
    };
  return { 'toast.success': toast('success'), 'toast.info': toast('info'), 'toast.warning': toast('warning'), 'toast.error': toast('error') };
}
