// A toast an extension's backend asked for (spindle.toast.*), as the host hands it to the window.
export const TOAST_LEVELS = ['success', 'info', 'warning', 'error'] as const;
export type ToastLevel = (typeof TOAST_LEVELS)[number];

export interface ExtensionToast {
  level: ToastLevel;
  message: string;
  title?: string;
  /** How long the window shows it (1–30 s; 4 s when not said). */
  durationMs: number;
  /**
   * A push notification (spindle.push.send): the system shows it while the window is not in front (else it is a
   * toast, as Lumiverse does not notify twice); a click brings the window back, to the chat its `/chat/<id>` url names.
   */
  push?: { chatId?: string; tag?: string };
}
