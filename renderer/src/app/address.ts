// Where the window is, as an address in the hash: `#/<section>`, `#/workbench/<session>`, `#/workbench/<session>/<message>`.
// A reload, a bookmark, back and forward and a search result all go through it.
import { SECTIONS, type SectionId } from './sections';

export interface Place {
  section: SectionId;
  sessionId?: string;
  messageId?: string;
}

const SECTION_IDS = new Set<string>(SECTIONS.map((s) => s.id));

/** The place a hash names, or null when it names none (an empty hash, or one from before addresses). */
export function placeOf(hash: string): Place | null {
  if (!hash.startsWith('#/')) return null;
  const [section, session, message] = hash
    .slice(2)
    .split('/')
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return '';
      }
    });
  if (!section || !SECTION_IDS.has(section)) return null;
  const place: Place = { section: section as SectionId };
  if (section === 'workbench' && session) {
    place.sessionId = session;
    if (message) place.messageId = message;
  }
  return place;
}

/** The hash for a place. */
export function addressOf(place: Place): string {
  const parts: string[] = [place.section];
  if (place.section === 'workbench' && place.sessionId) {
    parts.push(place.sessionId);
    if (place.messageId) parts.push(place.messageId);
  }
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}
