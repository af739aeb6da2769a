// Host → renderer events, one discriminated union.
import type { Notice } from './notices';
import type { Settings } from './settings';

export type HostEvent =
  | { type: 'settings.changed'; settings: Settings }
  | { type: 'notice.added'; notice: Notice }
  | { type: 'notice.dismissed'; id: string };

export type HostEventListener = (event: HostEvent) => void;
