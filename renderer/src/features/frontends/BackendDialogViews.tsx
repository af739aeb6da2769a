// The dialogs an extension's backend opens (backend-dialogs.ts), drawn by the app as text only: a line or text to
// write (prompt.input, textEditor.open) and a notice of headings, text, label–value rows and cards (modal.open).
import { useId, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { DialogShell } from './DialogShell';
import type { PendingDialog } from './frontends-store';

type Item = { type: 'text'; content: string; muted?: boolean } | { type: 'divider' } | { type: 'key_value'; label: string; value: string } | { type: 'heading'; content: string } | { type: 'card'; items: Item[] };

function Items(props: { items: Item[] }): ReactNode {
  return props.items.map((item, i) => {
    switch (item.type) {
      case 'text':
        return (
          <p key={i} className={`ext-dialog__message${item.muted ? ' ext-dialog__message--muted' : ''}`}>
            {item.content}
          </p>
        );
      case 'divider':
        return <hr key={i} className="ext-dialog__divider" />;
      case 'key_value':
        return (
          <p key={i} className="ext-dialog__row">
            <span className="ext-dialog__label">{item.label}</span> <span>{item.value}</span>
          </p>
        );
      case 'heading':
        return (
          <h3 key={i} className="ext-dialog__heading">
            {item.content}
          </h3>
        );
      case 'card':
        return (
          <div key={i} className="ext-dialog__card">
            <Items items={item.items} />
          </div>
        );
    }
  });
}

const label = (value: unknown, fallback: string) => (typeof value === 'string' && value ? value : fallback);

/** A backend's dialog, or null for a kind drawn elsewhere. `done(null)` cancels. */
export function BackendAsk(props: { dialog: PendingDialog; extensionName: string; done(value: unknown): void }) {
  const { dialog, extensionName, done } = props;
  const p = dialog.params;
  const [text, setText] = useState(() => String((dialog.kind === 'textEditor' ? p.value : p.defaultValue) ?? ''));
  const title = label(p.title, dialog.kind === 'textEditor' ? 'Edit Text' : extensionName);
  const described = useId();
  // As Lumiverse's: a line to write needs some text; a text to edit may be emptied.
  const blank = dialog.kind === 'input' && text.trim() === '';
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!blank) done(dialog.kind === 'textEditor' ? { text } : { value: text });
  };
  // Ctrl/Cmd+Enter sends from a text box (Enter there is a new line).
  const onAreaKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit();
    }
  };
  switch (dialog.kind) {
    case 'input':
    case 'textEditor': {
      const long = dialog.kind === 'textEditor' || p.multiline === true;
      return (
        <DialogShell title={title} extensionId={dialog.extensionId} onEscape={() => done(null)} testId={`extension-${dialog.kind === 'input' ? 'prompt' : 'text-editor'}`} width={long ? 640 : 420} describedBy={typeof p.message === 'string' ? described : undefined}>
          <form onSubmit={submit}>
            <h2 className="ext-dialog__title">{title}</h2>
            <p className="ext-dialog__from">From {extensionName}</p>
            {typeof p.message === 'string' && (
              <p id={described} className="ext-dialog__message">
                {p.message}
              </p>
            )}
            {long ? (
              <textarea className="input ext-dialog__text" rows={dialog.kind === 'textEditor' ? 16 : 5} value={text} placeholder={label(p.placeholder, '')} aria-label={title} onChange={(e) => setText(e.target.value)} onKeyDown={onAreaKey} />
            ) : (
              <input className="input" value={text} placeholder={label(p.placeholder, '')} aria-label={title} onChange={(e) => setText(e.target.value)} />
            )}
            <footer className="ext-dialog__actions">
              <button type="button" className="btn" onClick={() => done(null)}>
                {label(p.cancelLabel, 'Cancel')}
              </button>
              <button type="submit" className="btn btn--primary" disabled={blank}>
                {label(p.submitLabel, dialog.kind === 'textEditor' ? 'Save' : 'Submit')}
              </button>
            </footer>
          </form>
        </DialogShell>
      );
    }
    case 'modal':
      return (
        <DialogShell title={title} extensionId={dialog.extensionId} onEscape={() => p.persistent !== true && done({})} testId="extension-notice" width={typeof p.width === 'number' ? p.width : 420}>
          <h2 className="ext-dialog__title">{title}</h2>
          <p className="ext-dialog__from">From {extensionName}</p>
          <div className="ext-dialog__items" style={{ maxHeight: Math.min(typeof p.maxHeight === 'number' ? p.maxHeight : 520, innerHeight - 160) }}>
            <Items items={(p.items as Item[]) ?? []} />
          </div>
          <footer className="ext-dialog__actions">
            <button type="button" className="btn btn--primary" onClick={() => done({})}>
              Close
            </button>
          </footer>
        </DialogShell>
      );
    default:
      return null;
  }
}
