// A sandbox frame in the app's page (renderer/frame/sandbox-host.ts): opaque origin, no network, its HTML handed
// over once it has loaded, following the app's light or dark theme. Extensions' message widgets and the HTML
// islands of messages are drawn in these.
import { useEffect, useRef } from 'react';
import { frameOrigin } from '../../../../shared/frames/frame-origin';
import { createSandbox, type SandboxHandle } from '../../../frame/sandbox-host';
import { useAppStore } from '../../app/context';
import { selectTheme } from '../../stores/app/selectors';
import { lumiverseThemeVars } from './lumiverse-theme';

/** The sandbox page on the frame origin of `owner` (an extension's id, or a name of the app's own). */
export function sandboxUrl(owner: string): string {
  return `${frameOrigin(owner, { protocol: location.protocol, port: location.port })}/__cw/sandbox.html`;
}

export interface SandboxFrameProps {
  url: string;
  html: string;
  title: string;
  minHeight?: number | undefined;
  maxHeight?: number | undefined;
  initialHeight?: number | undefined;
  fit?: boolean;
  maxGrowth?: number;
  /** An extension's own HTML: its forms' submit events fire (sandbox-host.ts). */
  forms?: boolean;
  onResize?: (height: number) => void;
  onMessage?: (payload: unknown) => void;
  onFlood: () => void;
}

export function SandboxFrame(props: SandboxFrameProps) {
  const host = useRef<HTMLDivElement>(null);
  const sandboxRef = useRef<SandboxHandle | null>(null);
  const theme = useAppStore(selectTheme);
  // The latest callbacks, read when they fire: a new function from the parent's render does not rebuild the frame.
  const calls = useRef(props);
  calls.current = props;
  const { url, html, title, minHeight, maxHeight, fit } = props;
  useEffect(() => {
    const box = host.current;
    if (!box) return;
    const sandbox = createSandbox(document, url, {
      html,
      theme: lumiverseThemeVars(),
      ...(minHeight !== undefined ? { minHeight } : {}),
      ...(maxHeight !== undefined ? { maxHeight } : {}),
      ...(calls.current.initialHeight !== undefined ? { initialHeight: calls.current.initialHeight } : {}),
      ...(fit ? { fit } : {}),
      ...(calls.current.forms ? { forms: true } : {}),
      ...(calls.current.maxGrowth !== undefined ? { maxGrowth: calls.current.maxGrowth } : {}),
      onResize: (height) => calls.current.onResize?.(height),
      onFlood: () => calls.current.onFlood(),
    });
    sandboxRef.current = sandbox;
    sandbox.element.title = title;
    box.appendChild(sandbox.element);
    const off = sandbox.onMessage((payload) => calls.current.onMessage?.(payload));
    return () => {
      off();
      sandbox.destroy();
      sandboxRef.current = null;
    };
  }, [url, html, title, minHeight, maxHeight, fit]);
  // Light or dark: the frame keeps its state and takes the new colours.
  useEffect(() => {
    const frame = requestAnimationFrame(() => sandboxRef.current?.setTheme(lumiverseThemeVars()));
    return () => cancelAnimationFrame(frame);
  }, [theme]);
  // The sandbox frame goes in here, put by the effect above: React keeps no children of its own in it.
  return <div ref={host} />;
}
