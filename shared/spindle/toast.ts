// A toast an extension's backend asked for (spindle.toast.*), as the host hands it to the window.
export const TOAST_LEVELS = ['success', 'info', 'warning', 'error'] as const;
export type ToastLevel = (typeof TOAST_LEVELS)[number];

export interface ExtensionToast {
  level: ToastLevel;
  message: string;
  title?: string;
  /** How long the window shows it (1–30 s; 4 s when not said). */
  durationMs: number;
}
