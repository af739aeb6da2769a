// The frame of every dialog an extension asks the app to draw: a modal box over a backdrop, labelled, focused on its
// first control, closed with Escape where the dialog allows it.
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

export function DialogShell(props: { title: string; extensionId: string; onEscape(): void; children: ReactNode; testId: string; width?: number | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const first = box.current?.querySelector<HTMLElement>('textarea, input, button, [href], [tabindex]:not([tabindex="-1"])');
    (first ?? box.current)?.focus();
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    props.onEscape();
  };
  return (
    <div className="ext-dialog-backdrop">
      <div
        ref={box}
        className="ext-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        style={props.width ? { width: `min(${props.width}px, calc(100vw - 40px))` } : undefined}
        data-extension-id={props.extensionId}
        data-testid={props.testId}
      >
        {props.children}
      </div>
    </div>
  );
}

