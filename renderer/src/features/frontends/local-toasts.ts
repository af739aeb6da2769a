// Toasts the window itself shows for an extension's frontend (its page's `alert()`: a message the person should see,
// which a frame cannot show over the app): beside its backend's toasts, with its name (ExtensionToasts.tsx).
import type { ExtensionToast } from '../../../../shared/spindle/toast';

type Listener = (extensionId: string, toast: ExtensionToast) => void;
const listeners = new Set<Listener>();

/** Shows `toast` as from `extensionId`. */
export function showLocalToast(extensionId: string, toast: ExtensionToast): void {
  for (const listener of listeners) listener(extensionId, toast);
}

export function onLocalToast(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
