// Extensions' float widgets, over the Workbench: each a frame in a box the person moves by its handle
// (pointer, or the arrow keys on the focused handle), kept inside the window, its place remembered.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { frontendsActions, type Surface } from './frontends-store';
import { drawnClip } from './drawn-clip';
import { SurfaceFrame } from './SurfaceFrame';
import { keepOutBoxes, outside, type Box } from './float-keep-out';

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

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width + MARGIN && b.x < a.x + a.width + MARGIN && a.y < b.y + b.height + HANDLE && b.y < a.y + a.height + HANDLE;

/** Where the person left it, else where the extension (or the app, once it was placed) said it is; null when neither said. */
function knownPlace(surface: Surface): { x: number; y: number } | null {
  return remembered(surface) ?? (surface.position && surface.position.x >= 0 ? surface.position : null);
}

/**
 * Where each widget starts: where the person left it; else where the extension said, or the bottom right as in
 * Lumiverse — moved left past every widget already there (wherever the person has put them since), so none
 * starts on top of another, and off the app's navigation and chat controls (float-keep-out.ts).
 */
function startingPlaces(widgets: Surface[]): Map<string, { x: number; y: number }> {
  const taken: Box[] = [];
  const places = new Map<string, { x: number; y: number }>();
  const keepOut = keepOutBoxes();
  const clear = (place: { x: number; y: number }, size: { width: number; height: number }) => clearOfApp(place, size, keepOut);
  for (const surface of widgets) {
    const known = knownPlace(surface);
    if (known) taken.push({ ...clamp(known, sizeOf(surface)), ...sizeOf(surface) });
  }
  for (const surface of widgets) {
    const size = sizeOf(surface);
    const known = knownPlace(surface);
    if (known) {
      places.set(surface.key, remembered(surface) ? clamp(known, size) : clear(clamp(known, size), size));
      continue;
    }
    const box = { ...clamp({ x: innerWidth, y: innerHeight }, size), ...size };
    for (let hit = taken.find((t) => overlaps(box, t)); hit && box.x > MARGIN; hit = taken.find((t) => overlaps(box, t))) box.x = Math.max(MARGIN, hit.x - size.width - MARGIN);
    const place = clear(box, size);
    taken.push({ ...box, ...place });
    places.set(surface.key, place);
  }
  return places;
}

/** The place moved off the app's navigation and chat controls (float-keep-out.ts), the handle counted. */
function clearOfApp(place: { x: number; y: number }, size: { width: number; height: number }, keepOut = keepOutBoxes()): { x: number; y: number } {
  // The box's height counts its handle already.
  const bounds = { x: MARGIN, y: MARGIN, width: innerWidth - 2 * MARGIN, height: innerHeight - 2 * MARGIN };
  return outside({ ...place, width: size.width, height: size.height + HANDLE }, keepOut, bounds, MARGIN);
}

function FloatWidget(props: { surface: Surface; start: { x: number; y: number }; layout: string | undefined }) {
  const { store, brokers } = useFrontends();
  const { surface } = props;
  const size = sizeOf(surface);
  const [position, setPosition] = useState(props.start);
  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const placed = useRef(false);

  // The frame hears where it is (its getPosition() answers that), then moveTo() from the extension moves it: off the
  // app's controls, as its first place is, unless it is where the person put it.
  useEffect(() => {
    if (!placed.current) {
      placed.current = true;
      // Where it was put counts as taken for the widgets that come after it.
      if (!(surface.position && surface.position.x >= 0)) frontendsActions.updateSurface(store, surface.key, { position });
      brokers.get(surface.extensionId)?.notify('surface', { surfaceId: surface.surfaceId, what: 'position', position });
      return;
    }
    if (!(surface.position && surface.position.x >= 0)) return;
    const next = clamp(surface.position, size);
    const mine = remembered(surface);
    const kept = mine ? clamp(mine, size) : null;
    const place = surface.fullscreen || (kept && kept.x === next.x && kept.y === next.y) ? next : clamp(clearOfApp(next, size), size);
    setPosition(place);
    if (place.x === next.x && place.y === next.y) return;
    frontendsActions.updateSurface(store, surface.key, { position: place });
    brokers.get(surface.extensionId)?.notify('surface', { surfaceId: surface.surfaceId, what: 'position', position: place });
  }, [surface.position, size.width, size.height]);

  // The app's layout changed (a chat opened, with its composer; another section): a widget the person has not
  // placed moves off the controls that came where it is.
  useEffect(() => {
    if (surface.fullscreen || remembered(surface)) return;
    const frame = requestAnimationFrame(() => {
      const place = clearOfApp(position, size);
      if (place.x === position.x && place.y === position.y) return;
      setPosition(place);
      // The app and the extension (its getPosition) hear where it is now.
      frontendsActions.updateSurface(store, surface.key, { position: place });
      brokers.get(surface.extensionId)?.notify('surface', { surfaceId: surface.surfaceId, what: 'position', position: place });
    });
    return () => cancelAnimationFrame(frame);
  }, [props.layout]);

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
        <SurfaceFrame extensionId={surface.extensionId} surfaceId={surface.surfaceId} title={name} className="surface-frame--fill" {...(surface.options.chromeless ? { clipPath: drawnClip(surface.drawn) } : {})} />
      </div>
    </div>
  );
}

/** `layout` names the app's layout (its section, its open chat): a change moves unplaced widgets off its controls. */
export function FloatWidgets(props: { layout?: string }) {
  const widgets = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === 'float')));
  // Each widget's first place is found once, when it comes (the app's layout is read then, not at every render).
  const started = useRef(new Map<string, { x: number; y: number }>());
  if (widgets.some((w) => !started.current.has(w.key))) {
    const places = startingPlaces(widgets);
    for (const w of widgets) if (!started.current.has(w.key)) started.current.set(w.key, places.get(w.key)!);
  }
  for (const key of started.current.keys()) if (!widgets.some((w) => w.key === key)) started.current.delete(key);
  const places = started.current;
  return (
    <div className="float-widgets">
      {widgets.map((surface) => (
        <FloatWidget key={surface.key} surface={surface} start={places.get(surface.key)!} layout={props.layout} />
      ))}
    </div>
  );
}
