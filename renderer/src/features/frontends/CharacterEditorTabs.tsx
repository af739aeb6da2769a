// Extensions' character editor tabs (Lumiverse's ui.registerCharacterEditorTab), shown under the session's
// "Character & world" — the Workbench's character editor — each in a frame of its extension's own origin. While it
// shows, the extensions granted characters hear that the editor is open for this session's character (host-state-news.ts).
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { SurfaceFrame } from './SurfaceFrame';

/** A tab is as tall as its content, within what the panel can hold (the frame scrolls past that). */
const tabHeight = (content: number) => Math.min(Math.max(content + 2, 96), 1200);

export function CharacterEditorTabs(props: { sessionId: string }) {
  const { store } = useFrontends();
  const tabs = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === 'character' && x.visible)));
  useEffect(() => {
    store.setState({ characterEditor: props.sessionId });
    return () => store.setState((s) => (s.characterEditor === props.sessionId ? { characterEditor: null } : s));
  }, [store, props.sessionId]);
  if (tabs.length === 0) return null;
  return (
    <>
      {tabs.map((tab) => (
        <section key={tab.key} className="card character-tab" aria-label={tab.title || 'Extension'} data-extension-id={tab.extensionId}>
          <h2 className="card__title">{tab.title || tab.extensionId}</h2>
          <SurfaceFrame extensionId={tab.extensionId} surfaceId={tab.surfaceId} title={tab.title || `${tab.extensionId} character tab`} className="surface-frame--card" height={tab.contentHeight === null ? undefined : tabHeight(tab.contentHeight)} />
        </section>
      ))}
    </>
  );
}
