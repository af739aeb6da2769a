// Extensions' parts of the preset editor (Lumiverse's ui.registerPresetEditorTab, registerPresetEditorToolbarItem and
// ui.mount('preset_editor_toolbar')): the toolbar items in a bar above the tabs, each as wide and tall as it draws,
// and every tab beneath the blocks, each in a frame of its extension's own origin.
import { useShallow } from 'zustand/react/shallow';
import { EditorTabFrames } from './EditorTabFrames';
import { useFrontendsStore } from './frontends-context';
import { PRESET_TOOLBAR_MOUNT_POINTS } from './frontends-store';
import { SurfaceFrame } from './SurfaceFrame';

/** The most a toolbar item draws of itself: one row of the bar. */
const TOOLBAR_ITEM_HEIGHT = 40;

/** The toolbar items, above the preset's blocks (nothing while there are none). */
export function PresetToolbar() {
  const tools = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === 'mount' && x.visible && PRESET_TOOLBAR_MOUNT_POINTS.has(x.options.point ?? ''))));
  if (tools.length === 0) return null;
  return (
    <div className="preset-toolbar" role="toolbar" aria-label="Extensions' preset tools">
      {tools.map((tool) => (
        <SurfaceFrame
          key={tool.key}
          extensionId={tool.extensionId}
          surfaceId={tool.surfaceId}
          title={tool.options.tooltip || `${tool.extensionId} (preset toolbar)`}
          className="surface-frame--header"
          height={Math.min(tool.contentHeight ?? 0, TOOLBAR_ITEM_HEIGHT)}
          hidden={!tool.contentHeight}
        />
      ))}
    </div>
  );
}

/** The tabs, beneath the blocks: all of them at once. */
export function PresetEditorTabs() {
  return <EditorTabFrames kind="preset" className="inset preset-tab" heading="h3" />;
}
