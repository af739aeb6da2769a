// Where a float widget may not start: the app's navigation and the chat's controls (its header and composer).
// Lumiverse's widgets pick their places for Lumiverse's page; here such a place lands on the Workbench's own
// buttons, and a mostly transparent frame there swallows their clicks. A person may still drag one anywhere.
const KEEP_OUT = ['nav.nav', '.session-header', '[data-testid="composer"]'];

export type Box = { x: number; y: number; width: number; height: number };

const hits = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The app's places on screen now (those drawn). */
export function keepOutBoxes(doc: Document = document): Box[] {
  return KEEP_OUT.flatMap((selector) => [...doc.querySelectorAll(selector)].map((el) => el.getBoundingClientRect()))
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => ({ x: r.left, y: r.top, width: r.width, height: r.height }));
}

/**
 * The box moved off every keep-out box by the least distance that stays in `bounds` (left, right, above or below
 * the one it meets), a few rounds for boxes side by side; where none fits, it stays (the window is too small).
 */
export function outside(box: Box, boxes: Box[], bounds: Box, gap: number): { x: number; y: number } {
  let current = { ...box };
  for (let round = 0; round < 4; round++) {
    const hit = boxes.find((b) => hits(current, b));
    if (!hit) return { x: current.x, y: current.y };
    const candidates = [
      { ...current, x: hit.x - current.width - gap },
      { ...current, x: hit.x + hit.width + gap },
      { ...current, y: hit.y - current.height - gap },
      { ...current, y: hit.y + hit.height + gap },
    ].filter((c) => c.x >= bounds.x && c.y >= bounds.y && c.x + c.width <= bounds.x + bounds.width && c.y + c.height <= bounds.y + bounds.height);
    const distance = (c: Box) => Math.abs(c.x - current.x) + Math.abs(c.y - current.y);
    const best = candidates.sort((a, b) => distance(a) - distance(b))[0];
    if (!best) return { x: box.x, y: box.y };
    current = best;
  }
  return boxes.some((b) => hits(current, b)) ? { x: box.x, y: box.y } : { x: current.x, y: current.y };
}
