// What the Extensions card says beyond status and permissions: safe mode, warnings, the first line of its last crash, what
// confines its worker, the Lumiverse members it used that do nothing here, and whether its tools run without asking.
import type { ExtensionInfo } from '../../../../shared/events';
import { Icon } from '../../components/Icon';

export function ExtensionFacts(props: { extension: ExtensionInfo; busy: boolean; onTrust(trusted: boolean): void }) {
  const ext = props.extension;
  return (
    <section className="ext-card__facts" aria-label={`About ${ext.name}`} data-testid="extension-facts">
      {ext.safeMode && (
        <p className="ext-card__fact ext-card__fact--warn" data-testid="extension-safe-mode">
          <Icon name="warning" /> Safe mode: it failed to start three times in a row, so it was started disabled. Enable it once it is fixed.
        </p>
      )}
      {(ext.warnings ?? []).map((warning) => (
        <p key={warning} className="ext-card__fact ext-card__fact--warn" data-testid="extension-warning">
          <Icon name="warning" /> {warning}
        </p>
      ))}
      {ext.lastCrash && (
        <p className="ext-card__fact" data-testid="extension-last-crash">
          Last crash: <code>{ext.lastCrash}</code>
        </p>
      )}
      {ext.containment && (
        <p className="ext-card__fact" data-testid="extension-containment">
          Worker: {ext.containment}
        </p>
      )}
      {ext.inertTouched && ext.inertTouched.length > 0 && (
        <p className="ext-card__fact" data-testid="extension-inert">
          Uses what the Workbench does not have (they do nothing here): {ext.inertTouched.map((name, i) => [i > 0 && ', ', <code key={name}>{name}</code>])}
        </p>
      )}
      <label className="switch" title="Its tools that declare no mode run without asking; tools that declare mode 'write' or requires_approval still ask.">
        <input type="checkbox" role="switch" checked={ext.trusted === true} aria-disabled={props.busy || undefined} onChange={(e) => !props.busy && props.onTrust(e.target.checked)} />
        <span className="switch__track" aria-hidden="true" />
        <span>Let its tools run without asking</span>
      </label>
    </section>
  );
}
