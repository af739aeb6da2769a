// spindle.council: the Workbench's own council, read in Lumiverse's shapes (free tier, as in Lumiverse); spindle.dlc:
// its Lumia packs as Lumiverse's DLC catalog.
import type { CouncilMemberContext } from '../../../../shared/types/spindle';
import type { HandlersOf } from './handlers';
import { EMPTY_ANSWERS } from '../../../../shared/spindle/empty-answers';

export interface CouncilReads {
  /** Lumiverse's CouncilSettings: councilMode, members (with packName and itemName), toolsSettings. */
  settings(): unknown;
  members(): CouncilMemberContext[];
  /** Lumiverse's LumiaItemDTO for every item of every installed pack. */
  lumiaItems(): unknown[];
  /** Lumiverse's LumiaDlcPackDTO for every installed pack. */
  packs(): unknown[];
}

export function councilHandlers(reads: () => CouncilReads | null): HandlersOf<'council'> & HandlersOf<'dlc'> {
  return {
    // The Workbench's packs bring Lumia items only; Loom's styles, utilities, retrofits and tools are none.
    'dlc.getCatalog': () => ({ ...EMPTY_ANSWERS.catalog(), packs: reads()?.packs() ?? [], lumiaItems: reads()?.lumiaItems() ?? [] }),
    'council.getSettings': () => reads()?.settings() ?? { councilMode: false, members: [], toolsSettings: null },
    'council.getMembers': () => reads()?.members() ?? [],
    'council.getAvailableLumiaItems': () => reads()?.lumiaItems() ?? [],
  };
}
