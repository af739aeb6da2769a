// @vitest-environment happy-dom
// A frontend's navigator.clipboard.writeText (Notebook's Copy): its code runs in a frame that never has focus, so the
// app writes the text, on the system clipboard through the host, only when the person just clicked or typed; otherwise
// it rejects with the browser's NotAllowedError and nothing is written.
import { describe, expect, it } from 'vitest';
import { installClipboard } from '../../renderer/frame/clipboard';
import { rig } from './frame-rig';

describe("a frontend's clipboard", () => {
  it("writes the text through the host right after the person's click; without one it is refused as a browser refuses it", async () => {
    const r = await rig(['tools']);
    installClipboard(window as Window & typeof globalThis, r.channel);
    const refused = await navigator.clipboard.writeText('too early').then(
      () => 'written',
      (err: DOMException) => `${err.name}: ${err.message}`,
    );
    expect(refused).toBe('NotAllowedError: Write permission denied: PERMISSION_DENIED: Copying needs the person to have just clicked or typed.');
    expect(r.clipboard).toEqual([]);
    r.userActive = true;
    await navigator.clipboard.writeText('Chapter 3 notes');
    expect(r.clipboard).toEqual(['Chapter 3 notes']);
    // What is not text is written as text, as the browser's writeText does.
    await navigator.clipboard.writeText(42 as unknown as string);
    expect(r.clipboard).toEqual(['Chapter 3 notes', '42']);
  });

  it('a text over the cap is refused by the contract before the app writes anything', async () => {
    const r = await rig(['tools']);
    installClipboard(window as Window & typeof globalThis, r.channel);
    r.userActive = true;
    await expect(navigator.clipboard.writeText('x'.repeat(256 * 1024 + 1))).rejects.toMatchObject({ name: 'NotAllowedError' });
    expect(r.clipboard).toEqual([]);
  });
});
