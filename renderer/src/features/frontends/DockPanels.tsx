// Extensions' dock panels (ctx.ui.requestDockPanel): a panel along an edge of the window, with its title
// and a collapse button; the extension hears when it is collapsed or expanded.
import { useShallow } from 'zustand/react/shallow';
import { Icon } from '../../components/Icon';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { frontendsActions, type Surface } from './frontends-store';
import { SurfaceFrame } from './SurfaceFrame';

function DockPanel(props: { surface: Surface }) {
  const { store, brokers } = useFrontends();
  const { surface } = props;
  const edge = surface.options.edge ?? 'right';
  const size = Math.min(surface.options.maxSize ?? 600, Math.max(surface.options.minSize ?? 200, surface.options.size ?? 320));
  const horizontal = edge === 'left' || edge === 'right';
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
