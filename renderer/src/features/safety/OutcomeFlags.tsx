// The safety flags on a tool result as badges: simulated, unvalidated, cached, how it was approved. Nothing when none apply.
import './safety.css';

export interface Flags {
  simulated?: boolean | undefined;
  unvalidated?: boolean | undefined;
  cached?: boolean | undefined;
  approval?: 'once' | 'always' | 'policy' | undefined;
}

const APPROVAL_TEXT = { once: 'approved once', always: 'always allowed', policy: 'allowed by policy' } as const;

export function hasFlags(flags: Flags): boolean {
  return Boolean(flags.simulated || flags.unvalidated || flags.cached || flags.approval);
}

export function OutcomeFlags(props: { flags: Flags; testId?: string }) {
  const { flags } = props;
  if (!hasFlags(flags)) return null;
  return (
    <span className="outcome-flags" data-testid={props.testId ?? 'outcome-flags'}>
      {flags.simulated && (
        <span className="badge badge--sim" title="Dry run: the write tool described what it would do instead of doing it." data-flag="simulated">
          simulated
        </span>
      )}
      {flags.unvalidated && (
        <span className="badge badge--write" title="A placeholder answered for the simulated tool; nothing checked what it would really do." data-flag="unvalidated">
          unvalidated
        </span>
      )}
      {flags.cached && (
        <span className="badge badge--neutral" title="Served from the tool’s result cache; the tool did not run again." data-flag="cached">
          cached
        </span>
      )}
      {flags.approval && (
        <span className="badge badge--ok" data-flag="approval">
          {APPROVAL_TEXT[flags.approval]}
        </span>
      )}
    </span>
  );
}
