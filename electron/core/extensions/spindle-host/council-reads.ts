// spindle.council: the Workbench's own council, read in Lumiverse's shapes (free tier, as in Lumiverse).
import type { CouncilMemberContext } from '../../../../shared/types/spindle';
import type { HandlersOf } from './handlers';

export interface CouncilReads {
  /** Lumiverse's CouncilSettings: councilMode, members (with packName and itemName), toolsSettings. */
  settings(): unknown;
  members(): CouncilMemberContext[];
  /** Lumiverse's LumiaItemDTO for every item of every installed pack. */
  lumiaItems(): unknown[];
}

export function councilHandlers(reads: () => CouncilReads | null): HandlersOf<'council'> {
  return {
    'council.getSettings': () => reads()?.settings() ?? { councilMode: false, members: [], toolsSettings: null },
    'council.getMembers': () => reads()?.members() ?? [],
    'council.getAvailableLumiaItems': () => reads()?.lumiaItems() ?? [],
  };
}
