// The frame of every dialog an extension asks the app to draw: a modal box over a backdrop, labelled, focused on its
// first control, keeping Tab inside it, closed with Escape where the dialog allows it, and giving the focus back to
// where it was when it goes.
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

const FOCUSABLE = 'textarea, input, select, button, iframe, [href], [tabindex]:not([tabindex="-1"])';

/**
 * Focuses what `first` picks in `box` (else the box) when it shows, and gives the focus back to where it was when it
 * goes: every dialog and overlay an extension asks the app to draw.
 */
export function useFocusWhileShown(box: RefObject<HTMLElement | null>, first: (el: HTMLElement) => HTMLElement | null) {
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const el = box.current;
    (el ? (first(el) ?? el) : null)?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
    // Once, as it shows: the element picked then keeps the focus.
  }, []);
}

export function DialogShell(props: { title: string; extensionId: string; onEscape(): void; children: ReactNode; testId: string; width?: number | undefined; describedBy?: string | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  useFocusWhileShown(box, (el) => el.querySelector<HTMLElement>(FOCUSABLE));
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Tab') {
      const all = [...(box.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((el) => !(el as HTMLButtonElement).disabled);
      if (all.length === 0) return;
      const [first, last] = [all[0]!, all.at(-1)!];
      if (e.shiftKey && (document.activeElement === first || document.activeElement === box.current)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
      return;
    }
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
        aria-describedby={props.describedBy}
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
