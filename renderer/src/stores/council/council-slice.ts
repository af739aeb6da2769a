// Council slice: the council view (council.get / council.changed), installed packs, saved profiles, avatar data URLs, and which council tab is shown.
import type { HostError } from '../../../../shared/errors';
import type { CouncilView, PackSummary, ProfileSummary } from '../../../../shared/types/council';
import type { Slice } from '../app/slice';

export type CouncilTab = 'members' | 'runs' | 'packs' | 'settings';

export interface CouncilSlice {
  council: {
    /** Host truth as last reported; null until council.get answered. */
    view: CouncilView | null;
    /** Why council.get failed (shown in the panel), null otherwise. */
    loadError: HostError | null;
    packs: readonly PackSummary[];
    packsLoaded: boolean;
    profiles: readonly ProfileSummary[];
    profilesLoaded: boolean;
    /** Avatar data URLs by `packId/itemId`: a string, null for none, absent while unknown. */
    avatars: Readonly<Record<string, string | null>>;
    /** Renderer-only: the council tab on screen. */
    tab: CouncilTab;
  };
  councilLoaded(view: CouncilView): void;
  councilLoadFailed(error: HostError): void;
  packsReplaced(packs: readonly PackSummary[]): void;
  profilesReplaced(profiles: readonly ProfileSummary[]): void;
  avatarLoaded(key: string, dataUrl: string | null): void;
  councilTabSelected(tab: CouncilTab): void;
}

export function avatarKey(packId: string, itemId: string): string {
  return `${packId}/${itemId}`;
}

export const createCouncilSlice: Slice<CouncilSlice> = (set) => ({
  council: { view: null, loadError: null, packs: [], packsLoaded: false, profiles: [], profilesLoaded: false, avatars: {}, tab: 'members' },
  councilLoaded: (view) => set((s) => ({ council: { ...s.council, view, loadError: null } })),
  councilLoadFailed: (error) => set((s) => ({ council: { ...s.council, loadError: error } })),
  packsReplaced: (packs) =>
    // Pack contents may have changed: avatars are asked for again.
    set((s) => ({ council: { ...s.council, packs: [...packs], packsLoaded: true, avatars: {} } })),
  profilesReplaced: (profiles) => set((s) => ({ council: { ...s.council, profiles: [...profiles], profilesLoaded: true } })),
  avatarLoaded: (key, dataUrl) =>
    set((s) => {
      const avatars: Record<string, string | null> = { ...s.council.avatars };
      // defineProperty: pack and item ids are host data; `__proto__` must stay a plain key.
      Object.defineProperty(avatars, key, { value: dataUrl, writable: true, enumerable: true, configurable: true });
      return { council: { ...s.council, avatars } };
    }),
  councilTabSelected: (tab) => set((s) => ({ council: { ...s.council, tab } })),
});
