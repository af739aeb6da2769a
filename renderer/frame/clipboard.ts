// navigator.clipboard.writeText as a frontend calls it on Lumiverse's page (Notebook's Copy, Threadverse's): its code
// runs in a frame that never has focus, so the browser would refuse; the app writes the text instead, as long as the
// person just clicked or typed (the check a browser makes of a focused page). A refusal is the browser's NotAllowedError.
import type { FrameChannel } from './channel';

export function installClipboard(win: Window & typeof globalThis, channel: FrameChannel): void {
  const proto = (win as unknown as { Clipboard?: { prototype: { writeText?: unknown } } }).Clipboard?.prototype;
  if (!proto) return;
  Object.defineProperty(proto, 'writeText', {
    configurable: true,
    writable: true,
    value: async function writeText(text: unknown): Promise<void> {
      try {
        await channel.request('clipboard.write', { text: String(text) });
      } catch (err) {
        throw new DOMException(`Write permission denied: ${(err as Error).message}`, 'NotAllowedError');
      }
    },
  });
}
