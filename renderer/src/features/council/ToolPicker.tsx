// A member's tool checkboxes, grouped by source and extension; each description shows as one line, in full on hover (title) and on keyboard focus.
import { useId } from 'react';
import type { ToolGroup } from './tool-groups';

export const RETENTION_CHOICES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

export function ToolPicker(props: {
  memberName: string;
  groups: readonly ToolGroup[];
  disabled: boolean;
  onToggle(qualifiedName: string, checked: boolean): void;
  onRetention(qualifiedName: string, kept: number): void;
}) {
  const id = useId();
  if (props.groups.length === 0) {
    return <p className="panel-note">No council-eligible tools are registered. Enable an extension, or add a pack with prompt tools.</p>;
  }
  return (
    <div className="tool-picker" role="group" aria-label={`Tools for ${props.memberName}`} data-testid="tool-picker">
      {props.groups.map((group, gi) => (
        <fieldset key={group.id} className={`inset tool-group tool-group--${group.kind}`} data-testid="tool-group" data-group={group.id}>
          <legend className="tool-group__legend">
            <span className="tool-group__label">{group.label}</span>{' '}
            <span className={`badge badge--${group.kind === 'missing' ? 'danger' : group.kind === 'extension' ? 'read' : 'neutral'}`}>{group.badge}</span>
            {(group.kind === 'prompt' || group.kind === 'pack') && ' '}
            {(group.kind === 'prompt' || group.kind === 'pack') && (
              <span className="badge badge--neutral" data-testid="not-inline" title="The sidecar answers prompt tools, so inline mode does not offer them to the main model; every other tool here is offered in inline mode.">
                sidecar mode only
              </span>
            )}
          </legend>
          <ul className="stack-list tool-group__list">
            {group.tools.map((tool, ti) => {
              const descId = `${id}-${gi}-${ti}-desc`;
              return (
                <li key={tool.qualifiedName}>
                  <label className={`tool-check${tool.missing ? ' tool-check--missing' : ''}`} title={tool.description}>
                    <input
                      type="checkbox"
                      checked={tool.checked}
                      aria-disabled={props.disabled || undefined}
                      aria-describedby={descId}
                      data-qualified-name={tool.qualifiedName}
                      onChange={(e) => !props.disabled && props.onToggle(tool.qualifiedName, e.target.checked)}
                    />
                    <span className="tool-check__text">
                      <span className="tool-check__name">
                        {tool.displayName}
                        {tool.missing && <span className="badge badge--danger">missing</span>}
                        {!tool.missing && tool.unavailable && <span className="badge badge--danger">unavailable</span>}
                        {tool.ineligible && <span className="badge badge--neutral">not council eligible</span>}
                      </span>
                      <code className="tool-check__qname">{tool.qualifiedName}</code>
                      <span className="tool-check__desc" id={descId}>
                        {tool.description}
                      </span>
                    </span>
                  </label>
                  {tool.checked && !tool.missing && (
                    <label className="tool-check__retention" title="Past deliberations of this tool, for this member, shown to the main model as reference (0 = none)">
                      <span>Keep past</span>
                      <select
                        className="input input--select"
                        value={tool.retention}
                        aria-label={`Past deliberations of ${tool.displayName} kept for ${props.memberName}`}
                        aria-disabled={props.disabled || undefined}
                        onChange={(e) => !props.disabled && props.onRetention(tool.qualifiedName, Number(e.target.value))}
                      >
                        {RETENTION_CHOICES.map((n) => (
                          <option key={n} value={n}>
                            {n}
                          </option>
                        ))}
                      </select>
                    </label>
                  )}
                </li>
              );
            })}
          </ul>
        </fieldset>
      ))}
    </div>
  );
}
