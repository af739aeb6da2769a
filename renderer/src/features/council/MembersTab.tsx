// The Members tab: every member in council order, then adding from a pack (one item, or the whole pack at once).
import { useState } from 'react';
import type { CouncilView } from '../../../../shared/types/council';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { MemberCard } from './MemberCard';
import { AddFromPack } from './AddFromPack';

const SPEC = sectionById('council');

export function MembersTab(props: { view: CouncilView }) {
  const [announcement, setAnnouncement] = useState('');
  const members = props.view.members;
  return (
    <div className="panel-stack">
      <section aria-labelledby="council-members-title" className="members">
        <h2 id="council-members-title" className="section-title" tabIndex={-1}>
          Members <span className="section-title__count">{members.length}</span>
        </h2>
        {members.length === 0 ? (
          <EmptyState icon="council" {...SPEC.empty} />
        ) : (
          <ol className="stack-list member-list" data-testid="member-list">
            {members.map((m, i) => (
              <MemberCard key={m.id} member={m} index={i} count={members.length} announce={setAnnouncement} />
            ))}
          </ol>
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
      </section>
      <AddFromPack />
    </div>
  );
}
