// What extensions mounted in one of the app's bars (Lumiverse's drawer header, the preset editor's toolbar, the chat
// header): each a frame one row tall at most, as wide as it draws, hidden while it draws nothing.
import { useShallow } from 'zustand/react/shallow';
import { useFrontendsStore } from './frontends-context';
import { SurfaceFrame } from './SurfaceFrame';
import { CHAT_HEADER_MOUNT_POINTS } from './frontends-store';

/** The most a mount in a bar draws of itself: one row of the bar. */
const BAR_MOUNT_HEIGHT = 40;

/** The visible mounts at these points, in a bar named `place` (nothing while there are none). */
export function BarMountFrames(props: { points: ReadonlySet<string>; place: string }) {
  const mounts = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === 'mount' && x.visible && props.points.has(x.options.point ?? ''))));
  return (
    <>
      {mounts.map((mount) => (
        <SurfaceFrame
          key={mount.key}
          extensionId={mount.extensionId}
          surfaceId={mount.surfaceId}
          title={mount.options.tooltip || `${mount.extensionId} (${props.place})`}
          className="surface-frame--header"
          height={Math.min(mount.contentHeight ?? 0, BAR_MOUNT_HEIGHT)}
          hidden={!mount.contentHeight}
        />
      ))}
    </>
  );
}

const CHAT_HEADER_LEFT: ReadonlySet<string> = new Set(['chat_header_left']);
const CHAT_HEADER_REST: ReadonlySet<string> = new Set([...CHAT_HEADER_MOUNT_POINTS].filter((point) => !CHAT_HEADER_LEFT.has(point)));

/** Lumiverse's chat header mounts in the open session's title bar: the left ones before its title, the rest with its buttons. */
export function ChatHeaderMounts(props: { side: 'left' | 'right' }) {
  return <BarMountFrames points={props.side === 'left' ? CHAT_HEADER_LEFT : CHAT_HEADER_REST} place="chat header" />;
}

/** Whether any mount shows at these points. */
export const useAnyMount = (points: ReadonlySet<string>) => useFrontendsStore((s) => s.surfaces.some((x) => x.kind === 'mount' && x.visible && points.has(x.options.point ?? '')));
