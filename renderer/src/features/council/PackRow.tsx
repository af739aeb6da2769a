// One installed pack: its faces, name, items; Export (Workbench or LumiHub) and Remove.
import { useId, useState } from 'react';
import type { PackSummary } from '../../../../shared/types/council';
import { useAppStoreApi, useHost } from '../../app/context';
import { AskRemoveButton, ConfirmRemove, useConfirmRemove } from '../../components/ConfirmRemove';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { exportPack, reloadPacks, removePack } from '../../stores/council/council-commands';
import { downloadText } from '../workbench/files';
import { Avatar } from './Avatar';
import { useAction } from '../../components/use-action';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What removing loses, after "Remove <name>". */
const REMOVE_CONSEQUENCE = '? Members made from it show as missing until it is back. This cannot be undone; export it first to keep a copy.';

export function PackRow(props: { pack: PackSummary }) {
  const { pack } = props;
  const store = useAppStoreApi();
  const host = useHost();
  const id = useId();
  const { busy, error, run } = useAction<'export' | 'remove'>();
  const [format, setFormat] = useState<'workbench' | 'lumihub'>('workbench');
  const confirm = useConfirmRemove();
  const [saved, setSaved] = useState<string | null>(null);

  const saveExport = async () => {
    setSaved(null);
    const result = await run('export', `Could not export ${pack.name}`, () => exportPack(host, pack.id, format));
    if (result?.ok && downloadText(result.value.fileName, result.value.content)) setSaved(result.value.fileName);
  };
  const remove = async () => {
    const result = await run('remove', `Could not remove ${pack.name}`, () => removePack(host, pack.id));
    if (result?.ok) await reloadPacks(store, host);
  };

  return (
    <li className="pack-row" data-testid="pack" data-id={pack.id}>
      <div className="pack-row__head">
        <div className="pack-row__faces" aria-hidden="true">
          {pack.items.slice(0, 4).map((item) => (
            <Avatar key={item.id} packId={pack.id} itemId={item.id} hasAvatar={item.avatarUrl !== null} name={item.name} size="sm" />
          ))}
        </div>
        <div className="pack-row__text">
          <p className="pack-row__name">
            {pack.name} <span className="pack-row__meta">v{pack.version}{pack.author ? ` · by ${pack.author}` : ''}</span>{' '}
            <span className={`badge${pack.source === 'bundled' ? '' : ' badge--ok'}`}>{pack.source === 'bundled' ? 'Bundled' : 'Yours'}</span>
          </p>
          <p className="panel-note">
            {plural(pack.items.length, 'persona', 'personas')}
            {pack.items.length ? `: ${pack.items.map((i) => i.name).join(', ')}` : ''}
            {pack.loomItems?.length ? ` · ${plural(pack.loomItems.length, 'loom item', 'loom items')} kept (${pack.loomItems.join(', ')})` : ''}
            {pack.tools.length ? ` · ${plural(pack.tools.length, 'tool', 'tools')}` : ''}
          </p>
        </div>
        <div className="pack-row__actions">
          <label className="visually-hidden" htmlFor={`${id}-format`}>
            Export format for {pack.name}
          </label>
          <select id={`${id}-format`} className="input input--select" value={format} onChange={(e) => setFormat(e.target.value as 'workbench' | 'lumihub')}>
            <option value="workbench">Workbench pack</option>
            <option value="lumihub">LumiHub pack</option>
          </select>
          <button type="button" className="btn btn--small" aria-label={`Export ${pack.name}`} aria-disabled={busy !== null || undefined} onClick={() => void saveExport()}>
            {busy === 'export' ? 'Exporting…' : 'Export'}
          </button>
          {pack.source === 'user' && !confirm.open && (
            <AskRemoveButton name={pack.name} busy={false} small onAsk={confirm.ask} />
          )}
        </div>
      </div>
      <ConfirmRemove confirm={confirm} name={pack.name} consequence={REMOVE_CONSEQUENCE} busy={busy} onRemove={() => void remove()} />
      {saved && (
        <p className="panel-note" role="status">
          <Icon name="check" /> Saved as <code>{saved}</code>.
        </p>
      )}
      {error && <InlineError error={error.error} title={error.title} />}
    </li>
  );
}
