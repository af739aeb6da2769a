// Extensions' apps mounted over the whole app (ctx.ui.mountApp({ position: 'app-overlay' }): Megumin Suite's studio,
// opened from its float button): shown while the extension makes them visible, below the app's dialogs, with the
// app's own Close (above everything the extension floats), which hides it and tells the extension. Escape hides it
// too while the focus is on the app's part (a key pressed inside the extension's frame stays there).
import { useRef, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../app/context';
import { selectExtensions } from '../../stores/app/selectors';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { frontendsActions, type Surface } from './frontends-store';
import { SurfaceFrame } from './SurfaceFrame';
import { useFocusWhileShown } from './DialogShell';

function Overlay(props: { surface: Surface; name: string }) {
  const { store, brokers } = useFrontends();
  const { surface, name } = props;
  const layer = useRef<HTMLDivElement>(null);
  useFocusWhileShown(layer, (el) => el.querySelector('button'));
  const hide = () => {
    frontendsActions.updateSurface(store, surface.key, { visible: false });
    brokers.get(surface.extensionId)?.notify('surface', { surfaceId: surface.surfaceId, what: 'visibility', visible: false });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    hide();
  };
  return (
    <div ref={layer} className="ext-overlay" role="dialog" aria-modal="true" aria-label={surface.title || name} data-extension-id={surface.extensionId} data-testid="extension-overlay" onKeyDown={onKeyDown}>
      <button type="button" className="btn btn--small ext-overlay__close" onClick={hide}>
        Close {name}
      </button>
      <SurfaceFrame extensionId={surface.extensionId} surfaceId={surface.surfaceId} title={surface.title || name} className="surface-frame--fill" />
    </div>
  );
}

export function AppOverlays() {
  const overlays = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === 'app' && x.options.overlay === true && x.visible)));
  const extensions = useAppStore(selectExtensions);
  if (overlays.length === 0) return null;
  const name = (id: string) => extensions.find((e) => e.id === id)?.name ?? id;
  // The last made visible is on top; one at a time is what published overlays do.
  const surface = overlays.at(-1)!;
  return <Overlay key={surface.key} surface={surface} name={name(surface.extensionId)} />;
}
