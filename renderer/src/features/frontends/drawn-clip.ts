// Where an extension's transparent frame takes the pointer: only the box its content draws in (the frame reports it,
// drawn-box.ts). clip-path bounds hit-testing too, so a mostly transparent overlay does not swallow the clicks meant
// for the app beneath: a chromeless float widget, and the runtime page's body layer.
import type { Surface } from './frontends-store';

export function drawnClip(drawn: Surface['drawn']): string {
  if (!drawn) return 'inset(100% 100% 100% 100%)';
  const pad = 4;
  const [top, left] = [Math.max(0, drawn.y - pad), Math.max(0, drawn.x - pad)];
  return `inset(${top}px calc(100% - ${drawn.x + drawn.width + pad}px) calc(100% - ${drawn.y + drawn.height + pad}px) ${left}px)`;
}

/** Several boxes as one clip: a path of their rectangles (nonzero fill, so overlaps stay in), in the frame's pixels. */
export function boxesClip(boxes: ReadonlyArray<NonNullable<Surface['drawn']>>): string {
  const pad = 4;
  const rects = boxes.map((b) => `M${Math.max(0, b.x - pad)} ${Math.max(0, b.y - pad)}h${b.width + 2 * pad}v${b.height + 2 * pad}h${-(b.width + 2 * pad)}Z`);
  return rects.length ? `path('${rects.join('')}')` : 'inset(100% 100% 100% 100%)';
}
