// A text input edited as a draft: committed when Enter is pressed or the field is left, dropped with Escape. `read`
// turns the draft into the value to commit, or null while it is not valid (then the draft stays, and nothing is sent).
import { useState, type KeyboardEvent } from 'react';

export function useCommitDraft<T>(read: (draft: string) => T | null, current: T, onCommit: (value: T) => void) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft === null) return;
    const value = read(draft);
    if (value === null) return;
    setDraft(null);
    if (value !== current) onCommit(value);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') setDraft(null);
  };
  return { draft, setDraft, commit, onKeyDown };
}
