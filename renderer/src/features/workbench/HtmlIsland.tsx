// An HTML island of a message (html-islands.ts) drawn as HTML in a sandbox frame (opaque origin, no network),
// sanitized there (island-boot.js: no script, no link, no remote source; a kept image it names is read by the host
// first, island-images.ts), so nothing of it runs in, reaches or covers the app. It is as tall as what it draws; the height it last took is remembered, so a message scrolled
// back into view does not jump.
import { memo, useMemo, useRef, useState } from 'react';
import { fnv1a } from '../../../../shared/frames/frame-origin';
import { SandboxFrame, sandboxUrl } from '../frontends/SandboxFrame';
import { islandDocument } from './island-document';
import { useKeptImages } from './island-images';
import { RoleplayText } from './roleplay-text';

/** The frame origin islands load from: a name no extension id can be (ids hold no colon). */
const ISLANDS_ORIGIN = 'workbench:html-islands';
/**
 * An island sends only its height, at most once a frame when it changes: taller each time this many times in a row
 * is a size that never settles (a height in vh that grows its own frame), stopped and shown as text. An island that
 * grows as its images or fonts come grows a few times; one that animates goes down again.
 */
const MAX_GROWTH = 200;
const HEIGHTS_KEPT = 500;
/** The height each island last took, by a hash of its HTML (not the HTML: islands run to 200,000 characters). */
const heights = new Map<string, number>();

const islandKey = (html: string) => `${html.length}:${fnv1a(html, 0x811c9dc5).toString(36)}`;

function remember(key: string, height: number): void {
  heights.delete(key);
  heights.set(key, height);
  if (heights.size > HEIGHTS_KEPT) heights.delete(heights.keys().next().value!);
}

export const HtmlIsland = memo(function HtmlIsland(props: { html: string }) {
  // The HTML with the kept images it names in place (its frame has no network).
  const shown = useKeptImages(props.html);
  const page = useMemo(() => islandDocument(shown), [shown]);
  const key = useMemo(() => islandKey(props.html), [props.html]);
  // The height this island took last, so one that grows while a reply streams (a sibling closing after it) starts
  // its new frame at it instead of at 0.
  const last = useRef(0);
  const [stopped, setStopped] = useState(false);
  if (stopped || page === null) {
    return (
      <div className="msg__island msg__island--text" data-testid="html-island-stopped">
        <RoleplayText text={props.html} />
        {stopped && <p className="msg__widget-stopped">This HTML kept changing its size (it grew more than {MAX_GROWTH} times in a row), so it is shown as text.</p>}
      </div>
    );
  }
  return (
    <div className="msg__island" data-testid="html-island">
      <SandboxFrame
        url={sandboxUrl(ISLANDS_ORIGIN)}
        html={page}
        title="HTML in this message"
        minHeight={0}
        initialHeight={heights.get(key) ?? last.current}
        fit
        maxGrowth={MAX_GROWTH}
        onResize={(height) => {
          last.current = height;
          remember(key, height);
        }}
        onFlood={() => setStopped(true)}
      />
    </div>
  );
});
