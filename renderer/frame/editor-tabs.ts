// The tabs an extension places in one of the Workbench's editors (Lumiverse's registerCharacterEditorTab and
// registerPresetEditorTab): each a place of its own shown under the editor, its handle Lumiverse's (root, tabId,
// setTitle, activate, destroy, onActivate), its tabId `spindle:<extension>:<kind>-editor-tab:<id>:<n>`.
import type { RuntimeState } from './runtime-state';
import { clip, openSurface, surfaceOptions } from './surface-open';
import { tellEach } from './tell-each';

export interface EditorTabsOptions {
  /** `character` or `preset`: the surface kind and the tabId's word. */
  kind: 'character' | 'preset';
  /** Tabs one extension may have at once (Lumiverse's limit), and the refusal past it. */
  limit?: { count: number; refuse(): Error };
  /** A tab's activate(): every tab shows at once here, so there is nothing to switch to; it may still refuse (closed). */
  activate(): void;
}

export function editorTabs(state: RuntimeState, options: EditorTabsOptions) {
  const tabIds = new Map<string, string>();
  const activateHandlers = new Map<string, Set<() => void>>();
  return {
    /** The tabId of this extension's tab in that place, if it is one. */
    tabIdOf: (surfaceId: string | null) => (surfaceId === null ? undefined : tabIds.get(surfaceId)),
    /** Tells the tab `tabId` it became the one shown. */
    activated(tabId: string): void {
      const surfaceId = [...tabIds].find(([, id]) => id === tabId)?.[0];
      if (surfaceId) tellEach(activateHandlers.get(surfaceId) ?? [], () => undefined);
    },
    register(given: Record<string, unknown> = {}) {
      if (options.limit && tabIds.size >= options.limit.count) throw options.limit.refuse();
      const s = openSurface(state, options.kind, surfaceOptions(given));
      const tabId = `spindle:${state.extensionId}:${options.kind}-editor-tab:${String(given.id ?? 'tab').slice(0, 60)}:${s.surfaceId}`;
      tabIds.set(s.surfaceId, tabId);
      const handlers = new Set<() => void>();
      activateHandlers.set(s.surfaceId, handlers);
      return {
        root: s.root,
        tabId,
        setTitle: (title: string) => s.update({ title: clip('title', title) }),
        activate: () => options.activate(),
        destroy: () => {
          s.close();
          tabIds.delete(s.surfaceId);
          activateHandlers.delete(s.surfaceId);
        },
        onActivate(handler: () => void): () => void {
          handlers.add(handler);
          return () => void handlers.delete(handler);
        },
      };
    },
  };
}
