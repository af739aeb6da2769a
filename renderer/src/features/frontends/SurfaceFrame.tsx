// One place an extension draws into: a frame of the extension's own origin (sandboxed, never the app's),
// which hands itself to the extension's runtime frame (renderer/frame/frame-main.ts).
import { FRAME_PAGE, frameOrigin } from '../../../../shared/frames/frame-origin';

/**
 * What an extension frame may do: run its scripts in its own origin, offer downloads, and have its forms' submit
 * events fire (without allow-forms Chromium never fires them, and every `<form onSubmit>` UI is dead; its policy's
 * `form-action 'none'` still keeps a submission from going anywhere). Nothing else.
 */
export const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-downloads allow-forms';

export function frameUrl(extensionId: string, hash: string): string {
  return `${frameOrigin(extensionId, { protocol: location.protocol, port: location.port })}${FRAME_PAGE}#${hash}`;
}

export function SurfaceFrame(props: { extensionId: string; surfaceId: string; title: string; className?: string; height?: number; clipPath?: string; hidden?: boolean }) {
  const style = { ...(props.height === undefined ? {} : { height: props.height }), ...(props.clipPath === undefined ? {} : { clipPath: props.clipPath }) };
  return (
    <iframe
      className={`surface-frame ${props.className ?? ''}`}
      style={Object.keys(style).length ? style : undefined}
      title={props.title}
      src={frameUrl(props.extensionId, `surface=${encodeURIComponent(props.surfaceId)}`)}
      sandbox={FRAME_SANDBOX}
      referrerPolicy="no-referrer"
      allow="camera 'none'; microphone 'none'; geolocation 'none'; payment 'none'; usb 'none'"
      data-extension-id={props.extensionId}
      data-surface-id={props.surfaceId}
      {...(props.hidden ? { tabIndex: -1, 'aria-hidden': true } : {})}
    />
  );
}
