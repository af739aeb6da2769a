// What the Extensions card says beyond status and permissions: safe mode, warnings, the first line of its last crash, what
// confines its worker, what it registered besides tools (macros, pipeline handlers, the events it listens to, a
// frontend; and which of those events come without their text), the Lumiverse members it used that do nothing here, and
// whether its tools run without asking.
import type { ExtensionInfo } from '../../../../shared/contract/events';
import { Icon } from '../../components/Icon';
import { CHAT_TEXT_EVENTS, CHAT_TEXT_PERMISSION, WITHHELD_EVENTS } from '../../../../shared/spindle/event-access';

/** A list of names as code, comma-separated. */
function Names(props: { names: readonly string[] }) {
  return <>{props.names.map((name, i) => [i > 0 && ', ', <code key={name}>{name}</code>])}</>;
}

/** Everything it registered that is not a tool: an extension of macros and handlers is not "0 tools" and nothing else. */
function Registered(props: { extension: ExtensionInfo }) {
  const { registrations, events, frontend } = props.extension;
  const macros = registrations?.macros ?? [];
  const pipeline = registrations?.pipeline ?? [];
  const providers = registrations?.providers ?? [];
  const shared = registrations?.shared ?? [];
  if (!macros.length && !pipeline.length && !providers.length && !shared.length && !events?.length && !frontend) return null;
  return (
    <ul className="ext-card__registered" data-testid="extension-registered" aria-label="What it registered besides tools">
      {macros.length > 0 && (
        <li>
          {macros.length} {macros.length === 1 ? 'macro' : 'macros'}: <Names names={macros.map((m) => `{{${m}}}`)} />
        </li>
      )}
      {pipeline.length > 0 && (
        <li>
          In each turn’s prompt: <Names names={pipeline} />
        </li>
      )}
      {providers.length > 0 && (
        <li data-testid="extension-providers">
          Provides: <Names names={providers} />
        </li>
      )}
      {shared.length > 0 && (
        <li data-testid="extension-shared">
          Shares with other extensions: <Names names={shared} />
        </li>
      )}
      {events && events.length > 0 && (
        <li>
          Listens to: <Names names={events} />
        </li>
      )}
      <WithoutText extension={props.extension} />
      {frontend && <li>A frontend of its own (its surfaces show in the Workbench’s extensions panel and over the chat)</li>}
    </ul>
  );
}

/**
 * The events it listens to that carry chat text, while it lacks chat_mutation: they come without their text, or not at
 * all (a world-info panel that never lights up says why here).
 */
function WithoutText(props: { extension: ExtensionInfo }) {
  const { events, granted } = props.extension;
  if (!events?.length || granted.includes(CHAT_TEXT_PERMISSION)) return null;
  const withheld = events.filter((e) => WITHHELD_EVENTS.includes(e));
  const bare = events.filter((e) => CHAT_TEXT_EVENTS.includes(e) && !WITHHELD_EVENTS.includes(e));
  if (!withheld.length && !bare.length) return null;
  return (
    <li data-testid="extension-events-without-text">
      Without {CHAT_TEXT_PERMISSION}, which reading the chat needs:{bare.length > 0 && <> it hears <Names names={bare} /> without {bare.length === 1 ? 'its' : 'their'} text</>}
      {bare.length > 0 && withheld.length > 0 && ';'}
      {withheld.length > 0 && <> it does not hear <Names names={withheld} /></>}.
    </li>
  );
}

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
      <Registered extension={ext} />
      {ext.refused && ext.refused.length > 0 && (
        <p className="ext-card__fact ext-card__fact--warn" role="note" data-testid="extension-refused">
          Refused for a permission it was not granted (grant it to allow): <Names names={ext.refused} />
        </p>
      )}
      {ext.inertTouched && ext.inertTouched.length > 0 && (
        <p className="ext-card__fact" data-testid="extension-inert">
          Uses what the Workbench does not have (they do nothing here): <Names names={ext.inertTouched} />
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
