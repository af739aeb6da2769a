// UI slice: which section the shell shows. Renderer-only state, not mirrored from the host.
import { DEFAULT_SECTION, type SectionId } from '../app/sections';
import type { Slice } from './slice';

export interface UiSlice {
  section: SectionId;
  sectionSelected(section: SectionId): void;
}

export const createUiSlice: Slice<UiSlice> = (set) => ({
  section: DEFAULT_SECTION,
  sectionSelected: (section) => set({ section }),
});
