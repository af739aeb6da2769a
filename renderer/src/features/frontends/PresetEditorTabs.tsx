// Extensions' parts of the preset editor (Lumiverse's ui.registerPresetEditorTab, registerPresetEditorToolbarItem and
// ui.mount('preset_editor_toolbar')): the toolbar items in a bar above the tabs, each as wide and tall as it draws,
// and every tab beneath the blocks, each in a frame of its extension's own origin.
import { BarMountFrames, useAnyMount } from './BarMountFrames';
import { EditorTabFrames } from './EditorTabFrames';
import { PRESET_TOOLBAR_MOUNT_POINTS } from './frontends-store';

/** The toolbar items, above the preset's blocks (nothing while there are none). */
export function PresetToolbar() {
  if (!useAnyMount(PRESET_TOOLBAR_MOUNT_POINTS)) return null;
  return (
    <div className="preset-toolbar" role="toolbar" aria-label="Extensions' preset tools">
      <BarMountFrames points={PRESET_TOOLBAR_MOUNT_POINTS} place="preset toolbar" />
    </div>
  );
}

/** The tabs, beneath the blocks: all of them at once. */
export function PresetEditorTabs() {
  return <EditorTabFrames kind="preset" className="inset preset-tab" heading="h3" />;
}
