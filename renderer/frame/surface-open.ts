// Opening a place an extension draws into: a frame of its own origin the app shows where the Workbench has that place,
// with its options cut to the contract (plain data, text within limits), and the handle's common parts.
import type { SurfaceKind, SurfaceOptions, SurfacePatch } from '../../shared/frames/frame-contract';
import type { RuntimeState } from './runtime-state';

type Options = Record<string, unknown>;

/** The contract's length for each text field: longer text is cut, as a person would see it anyway. */
const TEXT_LIMITS: Record<string, number> = { title: 200, shortName: 60, description: 1000, headerTitle: 200, iconSvg: 64 * 1024, tooltip: 200, label: 120, subtitle: 200, badge: 40 };

export const clip = (field: string, value: unknown): string => String(value).slice(0, TEXT_LIMITS[field] ?? 200);

/** Only the fields the contract knows, as plain data (no functions, no elements), text cut to its limits. */
export function surfaceOptions(options: Options | undefined, extra: Partial<SurfaceOptions> = {}): SurfaceOptions {
  const keep = ['title', 'shortName', 'description', 'headerTitle', 'iconSvg', 'width', 'height', 'maxHeight', 'initialPosition', 'snapToEdge', 'chromeless', 'tooltip', 'edge', 'size', 'minSize', 'maxSize', 'resizable', 'startCollapsed', 'persistent', 'fullscreen'];
  const out: Record<string, unknown> = {};
  for (const key of keep) {
    const value = options?.[key];
    if (value === undefined || typeof value === 'function') continue;
    out[key] = key in TEXT_LIMITS ? clip(key, value) : value;
  }
  return { ...out, ...extra } as SurfaceOptions;
}

/** Opens a place; `options` may be made from its id (a drawer tab's id holds it when its own is taken). */
export function openSurface(state: RuntimeState, kind: SurfaceKind, options: SurfaceOptions | ((surfaceId: string) => SurfaceOptions)) {
  const surfaceId = state.nextId(kind);
  const root = state.docs.root(surfaceId, state.extensionId);
  state.channel.send('surface.open', { surfaceId, kind, options: typeof options === 'function' ? options(surfaceId) : options });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    undo();
    state.channel.send('surface.close', { surfaceId });
    state.forgetSurface(surfaceId);
  };
  const undo = state.atTeardown(close);
  const update = (patch: SurfacePatch) => !closed && state.channel.send('surface.update', { surfaceId, patch });
  const on = (what: string, handler: (notice: { visible?: boolean; position?: { x: number; y: number } }) => void) =>
    state.onSurface(surfaceId, (notice) => {
      if (notice.what === what) handler(notice);
    });
  return { surfaceId, root, close, update, on, isClosed: () => closed };
}

