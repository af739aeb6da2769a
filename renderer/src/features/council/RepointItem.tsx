// For a member whose pack item is missing: pick another item from the installed packs to point it at.
import { useId, useState } from 'react';
import type { MemberView } from '../../../../shared/types/council';
import { useAppStore } from '../../app/context';

export function RepointItem(props: { member: MemberView; disabled: boolean; onPick(packId: string, itemId: string): void }) {
  const id = useId();
  const packs = useAppStore((s) => s.council.packs);
  const [packId, setPackId] = useState(() => (packs.some((p) => p.id === props.member.packId) ? props.member.packId : (packs[0]?.id ?? '')));
  const pack = packs.find((p) => p.id === packId);
  const [itemId, setItemId] = useState('');
  const item = pack?.items.find((i) => i.id === itemId) ?? pack?.items[0];
  if (packs.length === 0) return null;
  return (
    <div className="member__repoint" role="group" aria-label={`Back ${props.member.name} with another pack item`}>
      <label htmlFor={`${id}-pack`}>Pack</label>
      <select id={`${id}-pack`} className="input input--select" value={packId} onChange={(e) => setPackId(e.target.value)}>
        {packs.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-item`}>Item</label>
      <select id={`${id}-item`} className="input input--select" value={item?.id ?? ''} onChange={(e) => setItemId(e.target.value)}>
        {(pack?.items ?? []).map((i) => (
          <option key={i.id} value={i.id}>
            {i.name}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn--small" aria-disabled={props.disabled || !item || undefined} onClick={() => !props.disabled && item && props.onPick(packId, item.id)}>
        Use this item
      </button>
    </div>
  );
}
