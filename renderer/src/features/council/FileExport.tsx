// An exported file (profile JSON, run trace JSON Lines): a download through a Blob URL, a copy button, and the text itself.
import { useEffect, useId, useRef, useState } from 'react';
import { useHost } from '../../app/context';
import { modifierLabel } from '../../app/platform';
import { copyText as copyToClipboard } from '../../api/clipboard';
import { Icon } from '../../components/Icon';

type CopyState = 'idle' | 'copied' | 'manual';

/** Keeps only what a file name needs; the host names files after ids, but this is still host data. */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return cleaned.slice(0, 120) || 'export.txt';
}

export function FileExport(props: { fileName: string; content: string; mime: string; title: string; onClose(): void; testId?: string }) {
  const id = useId();
  const host = useHost();
  const [url, setUrl] = useState<string | null>(null);
  const [copy, setCopy] = useState<CopyState>('idle');
  const areaRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    // Blob URLs are same-origin and need no CSP exception for a download link; without URL.createObjectURL the text stays.
    if (typeof URL.createObjectURL !== 'function') return;
    const made = URL.createObjectURL(new Blob([props.content], { type: props.mime }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [props.content, props.mime]);

  const copyText = async () => {
    try {
      if (!(await copyToClipboard(host, props.content))) throw new Error('no clipboard');
      setCopy('copied');
    } catch {
      areaRef.current?.focus();
      areaRef.current?.select();
      setCopy('manual');
    }
  };

  const fileName = safeFileName(props.fileName);
  const lines = props.content.split('\n').length;
  return (
    <div className="inset file-export" role="group" aria-labelledby={`${id}-title`} data-testid={props.testId ?? 'file-export'}>
      <div className="file-export__head">
        <strong id={`${id}-title`}>{props.title}</strong>
        <code className="file-export__name">{fileName}</code>
        <span className="file-export__actions">
          {url && (
            <a className="btn btn--small btn--primary" href={url} download={fileName} data-testid="download-link">
              <Icon name="folder" />
              Download
            </a>
          )}
          <button type="button" className="btn btn--small" onClick={() => void copyText()}>
            <Icon name={copy === 'copied' ? 'check' : 'copy'} />
            {copy === 'copied' ? 'Copied' : 'Copy'}
          </button>
          <button type="button" className="btn btn--small btn--ghost" onClick={props.onClose} aria-label={`Close ${props.title}`}>
            <Icon name="close" />
          </button>
        </span>
      </div>
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {props.title} text
      </label>
      <textarea
        id={`${id}-text`}
        ref={areaRef}
        className="input input--area input--mono file-export__text"
        readOnly
        value={props.content}
        rows={Math.min(10, lines + 1)}
        spellCheck={false}
        data-testid="export-text"
      />
      <p className="file-export__status" role="status">
        {copy === 'copied' && 'Copied to the clipboard.'}
        {copy === 'manual' && `Copying was blocked here. The text is selected: press ${modifierLabel()}C to copy it.`}
      </p>
    </div>
  );
}
