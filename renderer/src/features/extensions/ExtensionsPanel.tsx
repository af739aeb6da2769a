// Extensions section: every installed extension with its worker status, permissions, actions and log; install from a folder.
import { useAppStore } from '../../app/context';
import { sectionById } from '../../app/sections';
import { EmptyState } from '../../components/EmptyState';
import { selectExtensions, selectExtensionsLoaded } from '../../stores/app/selectors';
import { InstallForm } from './InstallForm';
import { AskingHost } from '../../components/AskingHost';
import { ExtensionCard } from './ExtensionCard';

const SPEC = sectionById('extensions');

export function ExtensionsPanel() {
  const extensions = useAppStore(selectExtensions);
  const loaded = useAppStore(selectExtensionsLoaded);

  const running = extensions.filter((e) => e.status === 'running').length;
  const troubled = extensions.filter((e) => e.status === 'failed' || e.status === 'crashed').length;
  // The install form keeps its place whether the list is empty or not, so installing the first extension
  // does not remount it (and lose its "Installed …" message).
  return (
    <div className="panel-stack">
      {extensions.length === 0 ? (
        <EmptyState icon="extensions" {...SPEC.empty}>
          {!loaded && <AskingHost>for its extensions</AskingHost>}
        </EmptyState>
      ) : (
        <>
          <p className="panel-summary" role="status">
            {extensions.length} {extensions.length === 1 ? 'extension' : 'extensions'} · {running} running
            {troubled > 0 && <span className="panel-summary__bad"> · {troubled} need attention</span>}
          </p>
          <ul className="stack-list ext-list" aria-label="Installed extensions">
            {extensions.map((ext) => (
              <ExtensionCard key={ext.id} extension={ext} />
            ))}
          </ul>
        </>
      )}
      {(loaded || extensions.length > 0) && <InstallForm />}
    </div>
  );
}
