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
