// Packs tab: the Lumia packs installed (bundled and yours). Import a pack file — the Workbench's, or one downloaded
// from LumiHub or exported by Lumiverse — by choosing or dropping it; a pack already installed asks to replace it or
// keep both. Export any pack (the Workbench's shape or LumiHub's); remove your own.
import { useAppStore } from '../../app/context';
import { PackImport } from './PackImport';
import { PackRow } from './PackRow';


export function PacksTab() {
  const packs = useAppStore((s) => s.council.packs);
  return (
    <div className="panel-stack" data-testid="packs-tab">
      <PackImport />
      {packs.length === 0 ? (
        <p className="panel-note">No packs installed yet.</p>
      ) : (
        <ul className="stack-list pack-list" aria-label="Installed packs">
          {packs.map((p) => (
            <PackRow key={p.id} pack={p} />
          ))}
        </ul>
      )}
    </div>
  );
}
