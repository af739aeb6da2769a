// A member's role: typed freely, committed when the field is left or Enter is pressed (Escape puts it back).
import { useId } from 'react';
import { useCommitDraft } from './use-commit-draft';

export function RoleField(props: { memberName: string; role: string; disabled: boolean; onCommit(role: string): void }) {
  const id = useId();
  const { draft, setDraft, commit, onKeyDown } = useCommitDraft((text) => text.trim(), props.role, props.onCommit);
  return (
    <div className="member__role">
      <label htmlFor={`${id}-role`} className="member__field-label">
        Role
      </label>
      <input
        id={`${id}-role`}
        className="input"
        value={draft ?? props.role}
        maxLength={200}
        placeholder="What this member looks at, e.g. Continuity"
        aria-label={`Role of ${props.memberName}`}
        readOnly={props.disabled}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
