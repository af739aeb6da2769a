// Where something of the app's lies, as extensions' frames are told it (the message box, the chat): measured again
// at most once a frame whenever the layout may have moved it — its elements resized, the window resized, anything scrolled.

/** Calls `measure` (in the next animation frame) whenever `elements` or the window move; the returned function stops. */
export function watchLayout(elements: ReadonlyArray<Element | null | undefined>, measure: () => void): () => void {
  let frame = 0;
  const soon = () => {
    if (!frame) frame = requestAnimationFrame(() => ((frame = 0), measure()));
  };
  const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(soon);
  for (const el of elements) if (el) resized?.observe(el);
  window.addEventListener('resize', soon);
  // A scroll container moves what is in it; the page itself can move too.
  window.addEventListener('scroll', soon, true);
  return () => {
    resized?.disconnect();
    window.removeEventListener('resize', soon);
    window.removeEventListener('scroll', soon, true);
    cancelAnimationFrame(frame);
  };
}
