// "Copy as": the tool's definition in another host's format (tools.exportSpec), shown read-only with a copy button.
import { useEffect, useId, useRef, useState } from 'react';
import type { HostError } from '../../../../shared/errors';
import type { ToolInfo } from '../../../../shared/types/tools';
import { useHost } from '../../app/context';
import { modifierLabel } from '../../app/platform';
import { Icon } from '../../components/Icon';
import { InlineError } from '../../components/InlineError';
import { exportToolSpec, type SpecFormat } from '../../stores/tools/tools-commands';
import { copyText as copyToClipboard } from '../../api/clipboard';

export type { SpecFormat };

export const SPEC_FORMATS: ReadonlyArray<{ format: SpecFormat; label: string; note: string }> = [
  { format: 'openai', label: 'OpenAI function', note: 'A Chat Completions function tool with the schema as registered.' },
  {
    format: 'openai-strict',
    label: 'OpenAI strict',
    note: 'Strict mode: every object is closed and every property required; optional ones accept null instead. Map nulls back to “left out” before invoking.',
  },
  { format: 'anthropic', label: 'Anthropic tool', note: 'A Messages API tool: name, description and input_schema.' },
  { format: 'mcp', label: 'MCP tool', note: 'An MCP tools/list entry; readOnlyHint follows the tool’s mode.' },
];

type CopyState = 'idle' | 'copied' | 'manual';

type Shown = { format: SpecFormat; text: string } | { format: SpecFormat; error: HostError } | null;

export function CopyAs(props: { tool: ToolInfo }) {
  const host = useHost();
  const id = useId();
  const [loading, setLoading] = useState<SpecFormat | null>(null);
  const [shown, setShown] = useState<Shown>(null);
  const [copy, setCopy] = useState<CopyState>('idle');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const seq = useRef(0);
  useEffect(() => () => void (seq.current += 1), []);

  const load = async (format: SpecFormat) => {
    const mine = ++seq.current;
    setLoading(format);
    setCopy('idle');
    const result = await exportToolSpec(host, props.tool.qualifiedName, format);
    if (mine !== seq.current) return;
    setLoading(null);
    if (result.ok) setShown({ format, text: JSON.stringify(result.value.spec, null, 2) ?? 'null' });
    else setShown({ format, error: result.error });
  };

  const copyText = async (text: string) => {
    try {
      // The host's clipboard in the desktop app, the page's own in a browser (which refuses it without focus).
      if (!(await copyToClipboard(host, text))) throw new Error('no clipboard');
      setCopy('copied');
    } catch {
      const area = textRef.current;
      area?.focus();
      area?.select();
      setCopy('manual');
    }
  };

  const spec = shown && 'text' in shown ? shown : null;
  const meta = shown ? SPEC_FORMATS.find((f) => f.format === shown.format)! : null;
  const areaId = `${id}-spec`;
  return (
    <div className="copy-as">
      <div className="copy-as__buttons" role="group" aria-label="Copy as">
        {SPEC_FORMATS.map((f) => (
          <button
            key={f.format}
            type="button"
            className="btn btn--small"
            aria-pressed={shown?.format === f.format}
            aria-disabled={loading !== null || undefined}
            onClick={() => loading === null && void load(f.format)}
          >
            {loading === f.format ? 'Loading…' : f.label}
          </button>
        ))}
      </div>
      {shown && 'error' in shown && <InlineError error={shown.error} title={`Could not export as ${meta!.label}`} />}
      {spec && meta && (
        <div className="copy-as__result">
          <div className="copy-as__head">
            <label htmlFor={areaId} className="field__label">
              {meta.label} spec
            </label>
            <button type="button" className="btn btn--small" onClick={() => void copyText(spec.text)}>
              <Icon name={copy === 'copied' ? 'check' : 'copy'} />
              {copy === 'copied' ? 'Copied' : 'Copy'}
            </button>
          </div>
          <p className="field__hint">{meta.note}</p>
          <textarea
            id={areaId}
            ref={textRef}
            className="input input--area input--mono copy-as__text"
            readOnly
            value={spec.text}
            rows={Math.min(18, spec.text.split('\n').length + 1)}
            spellCheck={false}
            data-testid="spec-text"
            data-format={spec.format}
          />
          <p className="copy-as__status" role="status">
            {copy === 'copied' && 'Copied to the clipboard.'}
            {copy === 'manual' && `Copying was blocked here. The text is selected: press ${modifierLabel()}C to copy it.`}
          </p>
        </div>
      )}
    </div>
  );
}
