// spindle.council: the Workbench's own council, read in Lumiverse's shapes (free tier, as in Lumiverse).
import type { CouncilMemberContext } from '../../../../shared/types/spindle';
import { unknownMethod, type NamespaceHandler } from './namespace';

export interface CouncilReads {
  /** Lumiverse's CouncilSettings: councilMode, members (with packName and itemName), toolsSettings. */
  settings(): unknown;
  members(): CouncilMemberContext[];
  /** Lumiverse's LumiaItemDTO for every item of every installed pack. */
  lumiaItems(): unknown[];
}

export function councilNamespace(reads: () => CouncilReads | null): NamespaceHandler {
  return {
    handle(_caller, method) {
      const council = reads();
      switch (method) {
        case 'getSettings':
          return council?.settings() ?? { councilMode: false, members: [], toolsSettings: null };
        case 'getMembers':
          return council?.members() ?? [];
        case 'getAvailableLumiaItems':
          return council?.lumiaItems() ?? [];
        default:
          return unknownMethod('council', method);
      }
    },
  };
}
