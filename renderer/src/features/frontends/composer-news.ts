// What each running frontend hears of the Workbench's message box: only one granted `generation` (the draft is the
// person's words), each its own room above the box, and only when that changed since it last heard.
import type { FrameNotice } from '../../../../shared/frames/frame-contract';
import type { FrameBroker } from './frame-broker';
import type { FrontendsState } from './frontends-store';

type Notice = FrameNotice<'composer'>;
const HIDDEN: Notice = { shown: false, place: null, draft: '', generating: false, canRegenerate: false, canContinue: false };

/** The notice for one extension from the store's message box (none shown: hidden). */
export function composerNotice(state: Pick<FrontendsState, 'composer'>, extensionId: string): Notice {
  const box = state.composer;
  return box ? { shown: true, place: box.places[extensionId] ?? box.base, ...box.state } : HIDDEN;
}

/** Tells the brokers whose extension may hear it what changed since they last heard. */
export function tellComposer(brokers: Iterable<FrameBroker>, grantedOf: (id: string) => readonly string[], state: Pick<FrontendsState, 'composer'>): void {
  for (const broker of brokers) {
    const notice = grantedOf(broker.extensionId).includes('generation') ? composerNotice(state, broker.extensionId) : HIDDEN;
    // A frame never told is told only once there is a box to tell of.
    if (!broker.heard('composer') && !notice.shown) continue;
    broker.notifyChanged('composer', notice);
  }
}
