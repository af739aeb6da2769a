// Ctrl/Cmd+1..9 jump to a section (in a browser tab the browser may keep these for itself).
import { useEffect } from 'react';
import { SECTIONS, type SectionId } from './sections';

export function sectionForShortcut(event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'key' | 'code'>): SectionId | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return null;
  const digit = /^[1-9]$/.test(event.key) ? Number(event.key) : /^Digit[1-9]$/.test(event.code) ? Number(event.code.slice(5)) : 0;
  return SECTIONS[digit - 1]?.id ?? null;
}

export function useSectionShortcuts(select: (section: SectionId) => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const section = sectionForShortcut(event);
      if (!section) return;
      event.preventDefault();
      select(section);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [select]);
}
