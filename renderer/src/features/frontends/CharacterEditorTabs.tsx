// Extensions' character editor tabs (Lumiverse's ui.registerCharacterEditorTab), shown under the session's
// "Character & world" — the Workbench's character editor — each in a frame of its extension's own origin. While it
// shows, the extensions granted characters hear that the editor is open for this session's character (host-state-news.ts).
import { useEffect } from 'react';
import { EditorTabFrames } from './EditorTabFrames';
import { useFrontends } from './frontends-context';

export function CharacterEditorTabs(props: { sessionId: string }) {
  const { store } = useFrontends();
  useEffect(() => {
    store.setState({ characterEditor: props.sessionId });
    return () => store.setState((s) => (s.characterEditor === props.sessionId ? { characterEditor: null } : s));
  }, [store, props.sessionId]);
  return <EditorTabFrames kind="character" className="card character-tab" heading="h2" />;
}
