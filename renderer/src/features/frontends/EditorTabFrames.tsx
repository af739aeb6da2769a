// The tabs extensions placed in one of the Workbench's editors (the character editor's, the preset editor's): every
// one shown at once, each a titled frame of its extension's own origin, as tall as its content.
import { useShallow } from 'zustand/react/shallow';
import { useFrontendsStore } from './frontends-context';
import { SurfaceFrame } from './SurfaceFrame';

/** A tab is as tall as its content, within what the panel can hold (the frame scrolls past that). */
const tabHeight = (content: number) => Math.min(Math.max(content + 2, 96), 1200);

export function EditorTabFrames(props: { kind: 'character' | 'preset'; className: string; heading: 'h2' | 'h3' }) {
  const tabs = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === props.kind && x.visible)));
  const Heading = props.heading;
  return (
    <>
      {tabs.map((tab) => (
        <section key={tab.key} className={props.className} aria-label={tab.title || 'Extension'} data-extension-id={tab.extensionId}>
          <Heading className="card__title">{tab.title || tab.extensionId}</Heading>
          <SurfaceFrame extensionId={tab.extensionId} surfaceId={tab.surfaceId} title={tab.title || `${tab.extensionId} ${props.kind} tab`} className="surface-frame--card" height={tab.contentHeight === null ? undefined : tabHeight(tab.contentHeight)} />
        </section>
      ))}
    </>
  );
}
