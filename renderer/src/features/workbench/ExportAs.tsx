// Export the open session in another shape: a character card (V2 or V3, JSON or PNG with the picture) or a
// SillyTavern chat or lorebook, saved as a file. (Download JSON / Copy JSON beside it give the Workbench's own format.)
import { useId, useState } from 'react';
import type { SessionExportFormat } from '../../../../shared/export-formats';
import type { HostError } from '../../../../shared/errors';
import { useHost } from '../../app/context';
import { InlineError } from '../../components/InlineError';
import { exportSessionAs } from '../../stores/chat/chat-commands';
import { downloadBase64, downloadText } from './files';

const LABELS: Record<Exclude<SessionExportFormat, 'workbench'>, string> = {
  'card-v3-png': 'Character card V3 (PNG with picture)',
  'card-v2-png': 'Character card V2 (PNG with picture)',
  'card-v3': 'Character card V3 (JSON)',
  'card-v2': 'Character card V2 (JSON)',
  'st-chat': 'SillyTavern chat (.jsonl)',
  'st-lorebook': 'SillyTavern lorebook (world info .json)',
};

export function ExportAs(props: { sessionId: string }) {
  const host = useHost();
  const id = useId();
  const [format, setFormat] = useState<keyof typeof LABELS>('card-v3-png');
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<HostError | null>(null);

  const run = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    setSaved(null);
    const result = await exportSessionAs(host, props.sessionId, format);
    setBusy(false);
    if (!result.ok) return setError(result.error);
    const { fileName, content, encoding } = result.value;
    const done = encoding === 'base64' ? downloadBase64(fileName, content, 'image/png') : downloadText(fileName, content, fileName.endsWith('.jsonl') ? 'application/jsonl' : 'application/json');
    if (done) setSaved(fileName);
    else setError({ code: 'UNSUPPORTED_HERE', message: 'This window cannot save files.' });
  };

  return (
    <div className="export-as">
      <label className="visually-hidden" htmlFor={`${id}-format`}>
        Export format
      </label>
      <select id={`${id}-format`} className="input input--select" value={format} onChange={(e) => setFormat(e.target.value as keyof typeof LABELS)}>
        {Object.entries(LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn--small" aria-disabled={busy || undefined} onClick={() => void run()}>
        {busy ? 'Exporting…' : 'Export'}
      </button>
      {saved && (
        <span role="status" className="panel-note">
          Saved as <code>{saved}</code>.
        </span>
      )}
      {error && <InlineError error={error} title="Could not export" />}
    </div>
  );
}
