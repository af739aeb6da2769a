// Copying text, wherever the window runs: the desktop app puts it on the system clipboard through its host (the
// page's own session refuses every permission, clipboard included); in a browser the page writes its own clipboard.
import type { HostApi } from '../../../shared/host-api';

/** Copies text; false when neither the host nor the page could (a browser page without focus). */
export async function copyText(host: Pick<HostApi, 'invoke'>, text: string): Promise<boolean> {
  const viaHost = await host.invoke('app.clipboard.write', { text });
  if (viaHost.ok && viaHost.value.written) return true;
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
