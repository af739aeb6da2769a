// An HTML island of a message (html-islands.ts) drawn as HTML in a sandbox frame (opaque origin, no network),
// sanitized there (island-boot.js: no script, no link, no remote source), so nothing of it runs in, reaches or
// covers the app. It is as tall as what it draws; the height it last took is remembered, so a message scrolled
// back into view does not jump.
import { memo, useMemo, useState } from 'react';
import { MAX_SANDBOX_MESSAGES_PER_SECOND } from '../../../frame/sandbox-host';
import { SandboxFrame, sandboxUrl } from '../frontends/SandboxFrame';
import { islandDocument } from './island-document';
import { RoleplayText } from './roleplay-text';

/** The frame origin islands load from: a name no extension id can be (ids hold no colon). */
const ISLANDS_ORIGIN = 'workbench:html-islands';
const HEIGHTS_KEPT = 500;
const heights = new Map<string, number>();

function remember(html: string, height: number): void {
  heights.delete(html);
  heights.set(html, height);
  if (heights.size > HEIGHTS_KEPT) heights.delete(heights.keys().next().value!);
}

export const HtmlIsland = memo(function HtmlIsland(props: { html: string }) {
  const page = useMemo(() => islandDocument(props.html), [props.html]);
  const [stopped, setStopped] = useState(false);
  if (stopped) {
    return (
      <div className="msg__island msg__island--text" data-testid="html-island-stopped">
        <RoleplayText text={props.html} />
        <p className="msg__widget-stopped">This HTML kept changing its size ({MAX_SANDBOX_MESSAGES_PER_SECOND} times in a second), so it is shown as text.</p>
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
        initialHeight={heights.get(props.html) ?? 0}
        fit
        onResize={(height) => remember(props.html, height)}
        onFlood={() => setStopped(true)}
      />
    </div>
  );
});
