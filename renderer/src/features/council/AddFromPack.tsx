// Add a member from an installed pack: pick the pack and item, a role and a chance.
import { useId, useState, type FormEvent } from 'react';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { addMember, quickAddPack } from '../../stores/council/council-commands';
import { parseChance, CHANCE_ERROR } from './ChanceField';
import { useAction } from '../../components/use-action';
import { AskingHost } from '../../components/AskingHost';

export function AddFromPack() {
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const packs = useAppStore((s) => s.council.packs);
  const packsLoaded = useAppStore((s) => s.council.packsLoaded);
  const members = useAppStore((s) => s.council.view?.members ?? []);
  const [packId, setPackId] = useState('');
  const [itemId, setItemId] = useState('');
  const [role, setRole] = useState('');
  const [chance, setChance] = useState('100');
  const [status, setStatus] = useState('');
  const { busy, error, run } = useAction<'add' | 'quick'>();

  const pack = packs.find((p) => p.id === packId) ?? packs[0];
  const present = new Set(members.filter((m) => m.packId === pack?.id).map((m) => m.itemId));
  const item = pack?.items.find((i) => i.id === itemId) ?? pack?.items.find((i) => !present.has(i.id)) ?? pack?.items[0];
  const chanceValue = parseChance(chance);
  const missingCount = pack ? pack.items.filter((i) => !present.has(i.id)).length : 0;

  const already = item !== undefined && present.has(item.id);
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!pack || !item || already || chanceValue === null) return;
    void run('add', 'Could not add the member', () =>
      addMember(store, host, { packId: pack.id, itemId: item.id, chance: chanceValue, ...(role.trim() ? { role: role.trim() } : {}) }),
    ).then((result) => {
      if (result?.ok) {
        setStatus(`${item.name} joined the council.`);
        setRole('');
        setItemId('');
      }
    });
  };

  const quick = () => {
    if (!pack || chanceValue === null) return;
    void run('quick', `Could not add ${pack.name}`, () => quickAddPack(store, host, { packId: pack.id, chance: chanceValue })).then((result) => {
      if (result?.ok) setStatus(missingCount === 0 ? `Every item of ${pack.name} is already on the council.` : `${missingCount} ${missingCount === 1 ? 'member' : 'members'} from ${pack.name} joined the council.`);
    });
  };

  if (packs.length === 0) {
    return (
      <section className="card add-member" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="card__title">
          Add from a pack
        </h2>
        {packsLoaded ? <p className="card__lead">No Lumia packs are installed.</p> : <AskingHost className="card__lead">for its packs</AskingHost>}
      </section>
    );
  }

  return (
    <section className="card add-member" aria-labelledby={`${id}-title`} data-testid="add-member">
      <h2 id={`${id}-title`} className="card__title">
        Add from a pack
      </h2>
      <p className="card__lead">Each member is a persona from a Lumia pack. Pick one item, or add the whole pack at once.</p>
      <form className="add-member__form" onSubmit={add} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-pack`}>
            Pack
          </label>
          <select
            id={`${id}-pack`}
            className="input input--select"
            value={pack?.id ?? ''}
            onChange={(e) => {
              setPackId(e.target.value);
              setItemId('');
            }}
          >
            {packs.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({p.items.length} {p.items.length === 1 ? 'item' : 'items'}
                {p.source === 'bundled' ? ', bundled' : ''})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-item`}>
            Item
          </label>
          <select id={`${id}-item`} className="input input--select" value={item?.id ?? ''} onChange={(e) => setItemId(e.target.value)}>
            {(pack?.items ?? []).map((i) => (
              <option key={i.id} value={i.id} disabled={present.has(i.id)}>
                {i.name}
                {present.has(i.id) ? ' (already a member)' : ''}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-role`}>
            Role <span className="field__title">(optional)</span>
          </label>
          <input id={`${id}-role`} className="input" value={role} maxLength={200} onChange={(e) => setRole(e.target.value)} placeholder="e.g. Continuity" />
        </div>
        <div className="field add-member__chance">
          <label className="field__label" htmlFor={`${id}-chance`}>
            Chance %
          </label>
          <input
            id={`${id}-chance`}
            className="input"
            type="number"
            min={0}
            max={100}
            step={1}
            value={chance}
            aria-invalid={chanceValue === null || undefined}
            aria-describedby={chanceValue === null ? `${id}-chance-error` : undefined}
            onChange={(e) => setChance(e.target.value)}
          />
        </div>
        <div className="add-member__actions">
          <button type="submit" className="btn btn--primary" aria-disabled={busy !== null || chanceValue === null || !item || already || undefined}>
            <Icon name="plus" />
            {busy === 'add' ? 'Adding…' : 'Add member'}
          </button>
          <button
            type="button"
            className="btn"
            disabled={missingCount === 0}
            aria-disabled={busy !== null || chanceValue === null || undefined}
            onClick={quick}
            title={missingCount === 0 ? 'Every item of this pack is on the council already' : 'Adds every item of the pack that is not on the council yet, each with the role its item is named for'}
          >
            {busy === 'quick' ? 'Adding…' : missingCount === 0 ? 'All on the council' : `Quick add pack (${missingCount} new)`}
          </button>
        </div>
      </form>
      {chanceValue === null && (
        <p className="field__error" id={`${id}-chance-error`}>
          <Icon name="error" /> {CHANCE_ERROR}
        </p>
      )}
      {pack?.description && <p className="field__hint add-member__pack-desc">{pack.description}</p>}
      <p className="add-member__status" role="status">
        {status}
      </p>
      {error && <InlineError error={error.error} title={error.title} />}
    </section>
  );
}
