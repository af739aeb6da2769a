// The Workbench's places under Lumiverse's names: the drawer tabs and settings views of Lumiverse (its
// ui-registry.ts) the Workbench has a section for, and its own sections under their ids. An extension opens them
// (spindle.ui.openDrawerTab, ctx.host.surfaces.invoke) and lists them (ctx.host.surfaces.list).
import { drawerTabPrefix } from '../../../../shared/frames/host-state';
import { SECTIONS, type SectionId } from '../../app/sections';
import type { Surface } from './frontends-store';

export const LUMIVERSE_PLACES: Readonly<Record<string, SectionId>> = {
  connections: 'connections',
  council: 'council',
  feedback: 'council',
  spindle: 'extensions',
  extensions: 'extensions',
  mcpServers: 'mcp',
  characters: 'workbench',
  profile: 'workbench',
  personas: 'workbench',
  lorebook: 'workbench',
  worldinfo: 'workbench',
  regex: 'workbench',
  branches: 'workbench',
  tools: 'tools',
  sidecar: 'sidecar',
  safety: 'safety',
};

/** Each section once, under the first Lumiverse id that names it (else its own), in the shell's order. */
export const SECTION_PLACES: ReadonlyArray<{ id: string; section: SectionId; label: string }> = SECTIONS.map((spec) => ({
  id: Object.keys(LUMIVERSE_PLACES).find((id) => LUMIVERSE_PLACES[id] === spec.id) ?? spec.id,
  section: spec.id,
  label: spec.label,
}));

/**
 * An extension's tab in the drawer by the id it has everywhere: a drawer tab's (drawerTabId, as its frame names it,
 * taken only under its own extension's prefix, so no tab passes for another's), else its place's key.
 */
export const placeId = (tab: Surface): string => {
  const named = tab.kind === 'drawer' ? tab.options.tabId : undefined;
  return named?.startsWith(drawerTabPrefix(tab.extensionId)) ? named : tab.key;
};
