// Extensions' float widgets, over the Workbench: each a frame in a box the person moves by its handle
// (pointer, or the arrow keys on the focused handle), kept inside the window, its place remembered.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { frontendsActions, type Surface } from './frontends-store';
import { SurfaceFrame } from './SurfaceFrame';

const MARGIN = 12;
const STEP = 16;
const HANDLE = 14;

const storageKey = (surface: Surface) => `cw.float.${surface.extensionId}.${surface.options.tooltip ?? surface.title ?? surface.surfaceId}`;

function remembered(surface: Surface): { x: number; y: number } | null {
  try {
    const value = JSON.parse(localStorage.getItem(storageKey(surface)) ?? 'null') as { x?: unknown; y?: unknown } | null;
    return value && typeof value.x === 'number' && typeof value.y === 'number' ? { x: value.x, y: value.y } : null;
  } catch {
    return null;
  }
}

function clamp(position: { x: number; y: number }, size: { width: number; height: number }) {
  return {
    x: Math.round(Math.min(Math.max(MARGIN, position.x), Math.max(MARGIN, innerWidth - size.width - MARGIN))),
    y: Math.round(Math.min(Math.max(MARGIN, position.y), Math.max(MARGIN, innerHeight - size.height - HANDLE - MARGIN))),
  };
}

const DEFAULT_SIZE = { width: 48, height: 48 };
const sizeOf = (surface: Surface) => surface.size ?? DEFAULT_SIZE;
/** Neither the person nor the extension said where it goes. */
const unplaced = (surface: Surface) => !remembered(surface) && !(surface.position && surface.position.x >= 0);

/**
 * Where it goes first: where the person left it; else where the extension asked; else the bottom right, as in
 * Lumiverse — left of the widgets already there (`before`: how wide they are together), so none hides another.
 */
function startingPlace(surface: Surface, before: number) {
  const size = sizeOf(surface);
  const fallback = { x: innerWidth - size.width - MARGIN - 4 - before, y: innerHeight - size.height - HANDLE - MARGIN - 4 };
  return clamp(remembered(surface) ?? (surface.position && surface.position.x >= 0 ? surface.position : fallback), size);
}

function FloatWidget(props: { surface: Surface; before: number }) {
  const { store, brokers } = useFrontends();
  const { surface } = props;
  const size = sizeOf(surface);
  const [position, setPosition] = useState(() => startingPlace(surface, props.before));
  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const placed = useRef(false);

  // The frame hears where it is (its getPosition() answers that), then moveTo() from the extension moves it.
  useEffect(() => {
    if (!placed.current) {
      placed.current = true;
      brokers.get(surface.extensionId)?.notify('surface', { surfaceId: surface.surfaceId, what: 'position', position });
      return;
    }
    if (surface.position && surface.position.x >= 0) setPosition(clamp(surface.position, size));
  }, [surface.position, size.width, size.height]);

  const settle = (next: { x: number; y: number }) => {
    const place = clamp(next, size);
    setPosition(place);
    localStorage.setItem(storageKey(surface), JSON.stringify(place));
    frontendsActions.updateSurface(store, surface.key, { position: place });
    brokers.get(surface.extensionId)?.notify('surface', { surfaceId: surface.surfaceId, what: 'dragEnd', position: place });
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = { dx: e.clientX - position.x, dy: e.clientY - position.y };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setPosition(clamp({ x: e.clientX - drag.current.dx, y: e.clientY - drag.current.dy }, size));
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    settle(position);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const move: Record<string, [number, number]> = { ArrowLeft: [-STEP, 0], ArrowRight: [STEP, 0], ArrowUp: [0, -STEP], ArrowDown: [0, STEP] };
    const delta = move[e.key];
    if (!delta) return;
    e.preventDefault();
    settle({ x: position.x + delta[0], y: position.y + delta[1] });
  };
  if (!surface.visible) return null;
  const name = surface.options.tooltip || surface.title || surface.extensionId;
  const style = surface.fullscreen ? { left: 0, top: 0, width: '100vw', height: '100vh' } : { left: position.x, top: position.y, width: size.width };
  return (
    <div className={`float-widget${surface.options.chromeless ? ' float-widget--chromeless' : ''}`} style={style} data-extension-id={surface.extensionId} data-testid="float-widget">
      <div
        className="float-widget__handle"
        role="button"
        tabIndex={0}
        aria-label={`Move ${name} (arrow keys)`}
        title={name}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onKeyDown={onKeyDown}
      />
      <div className="float-widget__body" style={surface.fullscreen ? { height: 'calc(100vh - 14px)' } : { height: size.height }}>
        <SurfaceFrame extensionId={surface.extensionId} surfaceId={surface.surfaceId} title={name} className="surface-frame--fill" />
      </div>
    </div>
  );
}

export function FloatWidgets() {
  const widgets = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === 'float')));
  let before = 0;
  return (
    <div className="float-widgets">
      {widgets.map((surface) => {
        const offset = before;
        if (unplaced(surface)) before += sizeOf(surface).width + MARGIN;
        return <FloatWidget key={surface.key} surface={surface} before={offset} />;
      })}
    </div>
  );
}
