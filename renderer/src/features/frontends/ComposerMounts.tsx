// What extensions mounted at Lumiverse's points around its message box (ctx.ui.mount('chat_toolbar'), SceneMap's
// toolbar; 'chat_composer_above', 'chat_actions'…): shown at the Workbench's box, each as tall as what it draws (no
// height at all while it draws nothing; its frame measures it). 'chat_composer_below' goes under the box, the rest above.
import { useShallow } from 'zustand/react/shallow';
import { COMPOSER_MOUNT_POINTS } from './frontends-store';
import { useFrontendsStore } from './frontends-context';
import { SurfaceFrame } from './SurfaceFrame';

const MAX_HEIGHT = 240;

export function ComposerMounts(props: { below?: boolean }) {
  const surfaces = useFrontendsStore(
    useShallow((s) => s.surfaces.filter((x) => x.kind === 'mount' && x.visible && COMPOSER_MOUNT_POINTS.has(x.options.point ?? '') && (x.options.point === 'chat_composer_below') === (props.below === true))),
  );
  if (surfaces.length === 0) return null;
  return (
    <div className="composer__mounts" data-testid={props.below ? 'composer-mounts-below' : 'composer-mounts'}>
      {surfaces.map((surface) => (
        <SurfaceFrame
          key={surface.key}
          extensionId={surface.extensionId}
          surfaceId={surface.surfaceId}
          title={surface.title || `${surface.extensionId} (${surface.options.point})`}
          className="surface-frame--composer"
          height={Math.min(surface.contentHeight ?? 0, MAX_HEIGHT)}
          hidden={!surface.contentHeight}
        />
      ))}
    </div>
  );
}
