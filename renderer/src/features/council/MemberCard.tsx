// One council member: avatar, name, pack, role, chance, tools; move up/down, remove; a missing item or tool is flagged.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { MemberView } from '../../../../shared/types/council';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { moveMember, removeMember, setMember } from '../../stores/council/council-commands';
import { isUnrestricted, PathListEditor } from '../safety/PathListEditor';
import { Avatar } from './Avatar';
import { ChanceField } from './ChanceField';
import { groupTools } from './tool-groups';
import { ToolPicker } from './ToolPicker';
import { useAction } from '../../components/use-action';
import { AskRemoveButton, ConfirmRemove, useConfirmRemove } from '../../components/ConfirmRemove';
import { RoleField } from './RoleField';
import { RepointItem } from './RepointItem';

type Busy = 'role' | 'chance' | 'tools' | 'move' | 'remove' | 'item' | 'paths';

const MAX_TOOLS = 64;

function pathSummary(list: readonly string[] | undefined): string {
  if (isUnrestricted(list)) return 'no restriction';
  if (!list || list.length === 0) return 'nothing';
  return list.length === 1 ? list[0]! : `${list.length} prefixes`;
}

/** What removing loses, after "Remove <name>". */
const REMOVE_CONSEQUENCE = ' from the council? Its role, chance and tool choices are lost (the pack item stays installed).';

export function MemberCard(props: { member: MemberView; index: number; count: number; announce(text: string): void }) {
  const { member, index, count } = props;
  const store = useAppStoreApi();
  const host = useHost();
  const uid = useId();
  const tools = useAppStore((s) => s.tools.items);
  const extensions = useAppStore((s) => s.extensions.items);
  const packs = useAppStore((s) => s.council.packs);
  const { busy, error, run } = useAction<Busy>();
  const [revision, setRevision] = useState(0);
  const [toolsOpen, setToolsOpen] = useState(false);
  const [pathsOpen, setPathsOpen] = useState(false);
  const confirm = useConfirmRemove();
  const [optimisticTools, setOptimisticTools] = useState<string[] | null>(null);
  const upRef = useRef<HTMLButtonElement>(null);
  const downRef = useRef<HTMLButtonElement>(null);
  const refocus = useRef<'up' | 'down' | null>(null);

  // After a move the card sits elsewhere in the list: give focus back to the button that moved it (or its sibling at an edge).
  useEffect(() => {
    const wanted = refocus.current;
    if (!wanted) return;
    refocus.current = null;
    const atEdge = wanted === 'up' ? index === 0 : index === count - 1;
    ((atEdge ? (wanted === 'up' ? downRef : upRef) : wanted === 'up' ? upRef : downRef).current ?? null)?.focus();
  }, [index, count]);

  const assigned = optimisticTools ?? member.tools;
  const groups = useMemo(
    () => groupTools(tools, { tools: assigned, toolViews: member.toolViews, toolHistoryRetention: member.toolHistoryRetention }, extensions, packs),
    [tools, assigned, member.toolViews, member.toolHistoryRetention, extensions, packs],
  );

  const patch = (what: Busy, title: string, body: Parameters<typeof setMember>[3]) =>
    run(what, title, () => setMember(store, host, member.id, body)).then((result) => {
      if (!result?.ok) setRevision((r) => r + 1);
      return result;
    });

  const toggleTool = (q: string, checked: boolean) => {
    const next = checked ? [...assigned.filter((t) => t !== q), q] : assigned.filter((t) => t !== q);
    if (next.length > MAX_TOOLS) return;
    setOptimisticTools(next);
    void patch('tools', `Could not change ${member.name}'s tools`, { tools: next }).finally(() => setOptimisticTools(null));
  };

  const move = (delta: -1 | 1) => {
    if (busy !== null) return;
    const to = index + delta;
    if (to < 0 || to >= count) return;
    refocus.current = delta < 0 ? 'up' : 'down';
    void run('move', `Could not move ${member.name}`, () => moveMember(store, host, member.id, delta)).then((result) => {
      if (result?.ok) props.announce(`${member.name} moved to position ${to + 1} of ${count}.`);
      else refocus.current = null;
    });
  };

  const remove = () =>
    void run('remove', `Could not remove ${member.name}`, () => removeMember(store, host, member.id)).then((result) => {
      if (result?.ok) {
        props.announce(`${member.name} removed from the council.`);
        document.getElementById('council-members-title')?.focus();
      }
    });

  const titleId = `${uid}-title`;
  const toolsId = `${uid}-tools`;
  const missingTools = member.missingTools;
  const flagged = member.missingItem || missingTools.length > 0;
  return (
    <li>
      <article
        className={`card member${flagged ? ' member--flagged' : ''}`}
        aria-labelledby={titleId}
        aria-busy={busy !== null || undefined}
        data-testid="member"
        data-member-id={member.id}
      >
        <header className="member__header">
          <Avatar packId={member.packId} itemId={member.itemId} hasAvatar={member.avatarUrl !== null} name={member.name} missing={member.missingItem} />
          <div className="member__heading">
            <h3 id={titleId} className="member__name">
              <span className="visually-hidden">{index + 1}. </span>
              {member.name}
            </h3>
            <p className="member__meta">
              {member.packName ? <span className="badge badge--neutral">{member.packName}</span> : <code>{member.packId}</code>}
              {member.role && <span className="member__role-text">{member.role}</span>}
              {member.missingItem && (
                <span className="badge badge--danger" data-testid="member-missing">
                  missing item
                </span>
              )}
              {missingTools.length > 0 && (
                <span className="badge badge--danger" data-testid="member-missing-tools">
                  {missingTools.length} missing {missingTools.length === 1 ? 'tool' : 'tools'}
                </span>
              )}
            </p>
          </div>
          <div className="member__order" role="group" aria-label={`Order of ${member.name}`}>
            <button
              ref={upRef}
              type="button"
              className="btn btn--small btn--icon"
              aria-label={`Move ${member.name} up`}
              title="Move up"
              aria-disabled={index === 0 || busy !== null || undefined}
              onClick={() => move(-1)}
            >
              <span aria-hidden="true">↑</span>
            </button>
            <button
              ref={downRef}
              type="button"
              className="btn btn--small btn--icon"
              aria-label={`Move ${member.name} down`}
              title="Move down"
              aria-disabled={index === count - 1 || busy !== null || undefined}
              onClick={() => move(1)}
            >
              <span aria-hidden="true">↓</span>
            </button>
            {!confirm.open && (
              <AskRemoveButton name={member.name} busy={busy !== null} small buttonRef={confirm.removeRef} onAsk={confirm.ask} />
            )}
          </div>
        </header>

        <ConfirmRemove confirm={confirm} name={member.name} consequence={REMOVE_CONSEQUENCE} busy={busy} onRemove={remove} />

        {member.missingItem && (
          <div className="member__problem" data-testid="member-problem">
            <Icon name="warning" />
            <div>
              <p>
                Pack item <code>{member.packId}/{member.itemId}</code> is missing, so this member cannot run its tools (runs show them as “missing”).
                Reinstall the pack, back the member with another item, or remove it.
              </p>
              <RepointItem
                member={member}
                disabled={busy !== null}
                onPick={(packId, itemId) => void patch('item', `Could not change ${member.name}'s item`, { packId, itemId })}
              />
            </div>
          </div>
        )}

        <div className="member__fields">
          <RoleField memberName={member.name} role={member.role} disabled={busy === 'role'} onCommit={(role) => void patch('role', `Could not change ${member.name}'s role`, { role })} />
          <ChanceField
            memberName={member.name}
            chance={member.chance}
            revision={revision}
            busy={busy === 'chance'}
            onCommit={(chance) => void patch('chance', `Could not change ${member.name}'s chance`, { chance })}
          />
        </div>

        <div className="member__tools">
          <div className="member__tools-head">
            <button type="button" className="disclosure" aria-expanded={toolsOpen} aria-controls={toolsId} onClick={() => setToolsOpen((o) => !o)}>
              <span className="disclosure__chevron" aria-hidden="true">
                ▸
              </span>
              Tools <span className="member__tool-count">({assigned.length})</span>
              <span className="visually-hidden"> for {member.name}</span>
            </button>
            {!toolsOpen && (
              <ul className="chip-row tool-chips" aria-label={`Tools of ${member.name}`}>
                {assigned.length === 0 && <li className="tool-chips__none">No tools: this member never takes part.</li>}
                {member.toolViews
                  .filter((t) => assigned.includes(t.qualifiedName))
                  .map((t) => (
                    <li key={t.qualifiedName} className={`tool-chip${t.missing ? ' tool-chip--missing' : ''}`} title={t.qualifiedName} data-testid="tool-chip">
                      {t.displayName}
                      {t.missing && <span className="tool-chip__flag"> · missing</span>}
                      {!t.missing && !t.available && <span className="tool-chip__flag"> · unavailable</span>}
                    </li>
                  ))}
              </ul>
            )}
          </div>
          <div id={toolsId} hidden={!toolsOpen}>
            {toolsOpen && (
              <ToolPicker
                memberName={member.name}
                groups={groups}
                disabled={busy !== null}
                onToggle={toggleTool}
                onRetention={(q, kept) => void patch('tools', `Could not change ${member.name}'s retention`, { toolHistoryRetention: { [q]: kept } })}
              />
            )}
          </div>
        </div>

        <div className="member__tools member__paths">
          <div className="member__tools-head">
            <button type="button" className="disclosure" aria-expanded={pathsOpen} aria-controls={`${uid}-paths`} onClick={() => setPathsOpen((o) => !o)} data-testid="member-paths-toggle">
              <span className="disclosure__chevron" aria-hidden="true">
                ▸
              </span>
              Paths
              <span className="visually-hidden"> {member.name} may read and write</span>
            </button>
            {!pathsOpen && (
              <span className="member__tool-count" data-testid="member-paths-summary">
                read: {pathSummary(member.allowedReadPaths)} · write: {pathSummary(member.allowedWritePaths)}
              </span>
            )}
          </div>
          <div id={`${uid}-paths`} hidden={!pathsOpen}>
            {pathsOpen && (
              <div className="path-lists">
                <PathListEditor
                  label="Read paths"
                  owner={member.name}
                  kind="read"
                  value={member.allowedReadPaths}
                  disabled={busy !== null && busy !== 'paths'}
                  onSave={(list) => patch('paths', `Could not change ${member.name}'s read paths`, { allowedReadPaths: list })}
                />
                <PathListEditor
                  label="Write paths"
                  owner={member.name}
                  kind="write"
                  value={member.allowedWritePaths}
                  disabled={busy !== null && busy !== 'paths'}
                  onSave={(list) => patch('paths', `Could not change ${member.name}'s write paths`, { allowedWritePaths: list })}
                />
              </div>
            )}
          </div>
        </div>

        {busy !== null && busy !== 'chance' && (
          <span className="member__progress" role="status">
            <span className="spinner" aria-hidden="true" /> Saving…
          </span>
        )}
        {error && <InlineError error={error.error} title={error.title} />}
      </article>
    </li>
  );
}
