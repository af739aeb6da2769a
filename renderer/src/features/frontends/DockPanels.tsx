// Extensions' dock panels (ctx.ui.requestDockPanel): a panel along an edge of the window, with its title
// and a collapse button; the extension hears when it is collapsed or expanded. One asked `resizable` has a handle on
// its inner edge, dragged or moved with the arrow keys, within its minSize and maxSize, as Lumiverse's.
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Icon } from '../../components/Icon';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { frontendsActions, type Surface } from './frontends-store';
import { SurfaceFrame } from './SurfaceFrame';

function DockPanel(props: { surface: Surface }) {
  const { store, brokers } = useFrontends();
  const { surface } = props;
  const edge = surface.options.edge ?? 'right';
  const [min, max] = [surface.options.minSize ?? 200, surface.options.maxSize ?? 600];
  const within = (n: number) => Math.round(Math.min(max, Math.max(min, n)));
  const [size, setSize] = useState(() => within(surface.options.size ?? 320));
  const horizontal = edge === 'left' || edge === 'right';
  // Dragging away from its edge grows it: the pointer's travel, signed by the edge it sits on.
  const grows = edge === 'right' || edge === 'bottom' ? -1 : 1;
  const drag = useRef<{ from: number; size: number } | null>(null);
  const at = (e: PointerEvent) => (horizontal ? e.clientX : e.clientY);
  const handle = {
    onPointerDown: (e: PointerEvent<HTMLDivElement>) => {
      e.currentTarget.setPointerCapture(e.pointerId);
      drag.current = { from: at(e), size };
    },
    onPointerMove: (e: PointerEvent) => drag.current && setSize(within(drag.current.size + grows * (at(e) - drag.current.from))),
    onPointerUp: () => void (drag.current = null),
    // A pointer the system took away (a touch turned scroll, a window switch) ends the drag too.
    onPointerCancel: () => void (drag.current = null),
    onLostPointerCapture: () => void (drag.current = null),
    // The arrows move the handle as a drag would (Shift: further).
    onKeyDown: (e: KeyboardEvent) => {
      const moves: Record<string, number> = horizontal ? { ArrowLeft: -1, ArrowRight: 1 } : { ArrowUp: -1, ArrowDown: 1 };
      const move = moves[e.key];
      if (move === undefined) return;
      e.preventDefault();
      setSize(within(size + grows * move * (e.shiftKey ? 64 : 16)));
    },
  };
  const toggle = () => {
    const collapsed = !surface.collapsed;
    frontendsActions.updateSurface(store, surface.key, { collapsed });
    brokers.get(surface.extensionId)?.notify('surface', { surfaceId: surface.surfaceId, what: 'visibility', visible: !collapsed });
  };
  if (!surface.visible) return null;
  const title = surface.title || surface.extensionId;
  return (
    <section
      className={`dock-panel dock-panel--${edge}${surface.collapsed ? ' dock-panel--collapsed' : ''}`}
      style={surface.collapsed ? undefined : horizontal ? { width: size } : { height: size }}
      aria-label={title}
      data-extension-id={surface.extensionId}
      data-testid="dock-panel"
    >
      <header className="dock-panel__head">
        <span className="dock-panel__title">{title}</span>
        <button type="button" className="btn btn--small btn--ghost" aria-expanded={!surface.collapsed} onClick={toggle} title={surface.collapsed ? `Expand ${title}` : `Collapse ${title}`}>
          <Icon name={surface.collapsed ? 'plus' : 'close'} />
          <span className="visually-hidden">{surface.collapsed ? 'Expand' : 'Collapse'}</span>
        </button>
      </header>
      {!surface.collapsed && <SurfaceFrame extensionId={surface.extensionId} surfaceId={surface.surfaceId} title={title} className="surface-frame--fill" />}
      {!surface.collapsed && surface.options.resizable === true && (
        <div
          className={`dock-panel__resize dock-panel__resize--${edge}`}
          role="separator"
          tabIndex={0}
          aria-orientation={horizontal ? 'vertical' : 'horizontal'}
          aria-label={`Resize ${title}`}
          aria-valuenow={size}
          aria-valuemin={min}
          aria-valuemax={max}
          data-testid="dock-resize"
          {...handle}
        />
      )}
    </section>
  );
}

export function DockPanels() {
  const panels = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === 'dock')));
  if (panels.length === 0) return null;
  return (
    <div className="dock-panels">
      {panels.map((surface) => (
        <DockPanel key={surface.key} surface={surface} />
      ))}
    </div>
  );
}
