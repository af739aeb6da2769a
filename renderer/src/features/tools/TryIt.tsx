// "Try it": a form generated from the tool's schema (or raw JSON), run through tools.invoke, with the outcome as text.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { ToolInfo } from '../../../../shared/types/tools';
import { useAppStore, useHost } from '../../app/context';
import { Icon } from '../../components/Icon';
import { formatMs, InlineError } from '../../components/InlineError';
import { OutcomeFlags, type Flags } from '../safety/OutcomeFlags';
import { selectApproveAllWrites } from '../../stores/safety/safety-selectors';
import { invokeTool } from '../../stores/tools/tools-commands';
import { fieldId, SchemaForm, type DraftUpdate } from './SchemaForm';
import { draftFrom, formatArgs, initialDraft, parseArgsJson, readForm, schemaToForm, updateDraft, type Draft, type FieldError } from './schema-form';

type Outcome =
  | { kind: 'ok'; content: string; durationMs: number; flags: Flags }
  | { kind: 'tool-error'; error: HostError; durationMs: number; flags: Flags; rejectionNote?: string }
  | { kind: 'call-error'; error: HostError };

/** The safety flags of a tools.invoke outcome (absent when false). */
function flagsOf(o: { simulated?: true; unvalidated?: true; cached?: true; approval?: 'once' | 'always' | 'policy' }): Flags {
  return { simulated: o.simulated, unvalidated: o.unvalidated, cached: o.cached, approval: o.approval };
}

/** A rejection or an approval timeout is worded for the model (what not to retry); the person reads what happened. */
function forPeople(error: HostError): HostError {
  if (error.code === 'APPROVAL_REJECTED') return { code: error.code, message: 'You rejected this call in the approval dialog, so it did not run.' };
  if (error.code === 'APPROVAL_TIMEOUT') return { code: error.code, message: error.message };
  return error;
}

export function TryIt(props: { tool: ToolInfo; onRan?(): void }) {
  const { tool } = props;
  const host = useHost();
  const idPrefix = useId();
  const root = useMemo(() => schemaToForm(tool.parameters), [tool.parameters]);
  // A schema the form cannot show as fields (not an object with properties) is edited as JSON only.
  const formUsable = root.kind === 'object';
  const [rawMode, setRawMode] = useState(!formUsable);
  const [draft, setDraft] = useState<Draft>(() => initialDraft(root));
  const [jsonText, setJsonText] = useState(() => formatArgs(readForm(root, initialDraft(root)).args));
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>([]);
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [dryRun, setDryRun] = useState(false);
  const asksFirst = useAppStore(selectApproveAllWrites);
  const runSeq = useRef(0);
  const formRef = useRef<HTMLFormElement>(null);

  // A run that answers after the panel moved on (another tool, unmounted) is dropped.
  useEffect(() => () => void (runSeq.current += 1), []);

  const errors = useMemo(() => new Map(fieldErrors.map((e) => [e.at, e.message])), [fieldErrors]);
  const onChange: DraftUpdate = (path, update) => {
    setDraft((d) => updateDraft(d, path, update));
    if (fieldErrors.length) setFieldErrors([]);
  };

  const toggleRaw = (next: boolean) => {
    setJsonError(null);
    if (next) {
      // Whatever the form holds (fields with errors left out) becomes the starting JSON.
      setJsonText(formatArgs(readForm(root, draft).args));
      setFieldErrors([]);
      setRawMode(true);
      return;
    }
    const parsed = parseArgsJson(jsonText);
    if (!parsed.ok) {
      setJsonError(`${parsed.message} Fix it (or clear it) before switching back to the form.`);
      return;
    }
    setDraft(draftFrom(root, parsed.args, false));
    setRawMode(false);
  };

  const run = async (args: Record<string, unknown>) => {
    const seq = ++runSeq.current;
    setRunning(true);
    setOutcome(null);
    const simulate = dryRun && tool.mode === 'write';
    const result = await invokeTool(host, tool.qualifiedName, args, simulate);
    if (seq !== runSeq.current) return;
    setRunning(false);
    if (!result.ok) setOutcome({ kind: 'call-error', error: result.error });
    else if (result.value.ok) setOutcome({ kind: 'ok', content: result.value.content, durationMs: result.value.durationMs, flags: flagsOf(result.value) });
    else {
      const v = result.value;
      setOutcome({ kind: 'tool-error', error: v.error, durationMs: v.durationMs, flags: flagsOf(v), ...(v.rejectionNote ? { rejectionNote: v.rejectionNote } : {}) });
    }
    props.onRan?.();
  };

  /** Input that does not validate: the last run's result goes, so it never sits under the new error as if it were its answer. */
  const invalid = () => setOutcome(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (running) return;
    if (rawMode) {
      const parsed = parseArgsJson(jsonText);
      if (!parsed.ok) {
        invalid();
        setJsonError(parsed.message);
        formRef.current?.querySelector<HTMLElement>('textarea[data-raw-json]')?.focus();
        return;
      }
      setJsonError(null);
      void run(parsed.args);
      return;
    }
    const { args, errors: found } = readForm(root, draft);
    setFieldErrors(found);
    if (found.length > 0) {
      invalid();
      const first = found[0]!;
      document.getElementById(fieldId(idPrefix, first.at === '' ? [] : first.at.split('.').map(Number)))?.focus();
      return;
    }
    void run(args);
  };

  const rawId = `${idPrefix}-raw`;
  return (
    <form ref={formRef} className="try-it" onSubmit={submit} noValidate aria-label={`Try ${tool.displayName}`}>
      {tool.mode === 'write' && (
        <p className="try-it__warning">
          <Icon name="warning" />
          This tool can change things. Running it here really runs it
          {tool.requiresApproval || asksFirst ? ', once you approve the exact arguments' : ''}
          {tool.hasSimulate ? '; a dry run asks the tool what it would do instead' : '; a dry run returns a placeholder instead'}.
        </p>
      )}
      {tool.mode === 'write' && (
        <label className="field__check">
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} data-testid="try-it-dry-run" />
          Dry run (simulate; nothing is written)
        </label>
      )}
      {formUsable && (
        <label className="switch">
          <input type="checkbox" role="switch" checked={rawMode} onChange={(e) => toggleRaw(e.target.checked)} />
          <span className="switch__track" aria-hidden="true" />
          <span>Edit as JSON</span>
        </label>
      )}
      {rawMode ? (
        <div className={`field${jsonError ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={rawId}>
            Arguments (JSON object)
          </label>
          <textarea
            id={rawId}
            data-raw-json=""
            className="input input--area input--mono"
            rows={Math.min(14, Math.max(4, jsonText.split('\n').length + 1))}
            value={jsonText}
            spellCheck={false}
            aria-invalid={jsonError ? true : undefined}
            aria-describedby={jsonError ? `${rawId}-error` : `${rawId}-hint`}
            onChange={(e) => {
              setJsonText(e.target.value);
              setJsonError(null);
            }}
          />
          {!formUsable && (
            <p className="field__hint" id={`${rawId}-hint`}>
              {root.kind === 'json' ? root.reason : ''} The host checks the arguments against the tool’s schema.
            </p>
          )}
          {jsonError && (
            <p className="field__error" id={`${rawId}-error`} data-testid="json-error">
              <Icon name="error" /> {jsonError}
            </p>
          )}
        </div>
      ) : (
        root.kind === 'object' && <SchemaForm root={root} draft={draft} idPrefix={idPrefix} errors={errors} onChange={onChange} />
      )}
      {fieldErrors.length > 0 && (
        <p className="try-it__summary" role="alert">
          {fieldErrors.length === 1 ? 'One field needs attention' : `${fieldErrors.length} fields need attention`}:{' '}
          {fieldErrors.map((e) => `${e.label} (${e.message.replace(/\.$/, '')})`).join(', ')}.
        </p>
      )}
      <div className="try-it__actions">
        <button type="submit" className="btn btn--primary" aria-disabled={running || undefined} data-testid="try-it-run">
          <Icon name="play" />
          {running ? 'Running…' : 'Run'}
        </button>
        {running && (
          <span className="try-it__progress" role="status">
            <span className="spinner" aria-hidden="true" /> Waiting for the tool…
          </span>
        )}
      </div>
      <div className="try-it__outcome" aria-live="polite" data-testid="try-it-outcome">
        {outcome?.kind === 'ok' && (
          <div className="tool-result" data-testid="tool-result">
            <div className="tool-result__head">
              <Icon name="check" className="tool-result__icon" />
              <strong>Result</strong>
              <OutcomeFlags flags={outcome.flags} testId="try-it-flags" />
              <span className="tool-result__time" data-testid="tool-duration">
                {formatMs(outcome.durationMs)}
              </span>
            </div>
            <pre className="tool-result__content" tabIndex={0} aria-label="Tool result">
              {outcome.content === '' ? '(empty result)' : outcome.content}
            </pre>
          </div>
        )}
        {outcome?.kind === 'tool-error' && (
          <>
            <InlineError
              error={forPeople(outcome.error)}
              title={outcome.error.code === 'APPROVAL_REJECTED' ? 'You rejected the call; it did not run' : outcome.error.code.startsWith('APPROVAL_') ? 'Not approved; it did not run' : 'The tool failed'}
              durationMs={outcome.durationMs}
              testId="tool-error"
            />
            <OutcomeFlags flags={outcome.flags} testId="try-it-flags" />
            {outcome.rejectionNote !== undefined && (
              <p className="rejection-note" data-testid="rejection-note">
                Your message: “{outcome.rejectionNote}”
              </p>
            )}
          </>
        )}
        {outcome?.kind === 'call-error' && <InlineError error={outcome.error} title="The call did not go through" testId="tool-error" />}
      </div>
    </form>
  );
}
