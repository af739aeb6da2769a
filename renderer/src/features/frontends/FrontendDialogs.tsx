// What extensions' frontends ask the person, drawn by the app (text only, never their markup): modals
// (a frame of the extension inside the app's dialog), confirms, context menus, permission requests and
// file picks (the app's own file dialog, after the person chose to open one); and what their backends ask
// (confirms, a line or a text to write, notices: BackendDialogViews.tsx).
import { useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../app/context';
import { selectExtensions } from '../../stores/app/selectors';
import { useFrontends, useFrontendsStore } from './frontends-context';
import { frontendsActions, type PendingDialog, type Surface } from './frontends-store';
import { SurfaceFrame } from './SurfaceFrame';
import { DialogShell as Shell } from './DialogShell';
import { BackendAsk } from './BackendDialogViews';
import { useBackendDialogs } from './backend-dialogs';
import { useHost } from '../../app/context';

function Modal(props: { surface: Surface }) {
  const { store, brokers } = useFrontends();
  const { surface } = props;
  const dismiss = () => {
    frontendsActions.closeSurface(store, surface.key);
    brokers.get(surface.extensionId)?.notify('surface', { surfaceId: surface.surfaceId, what: 'dismiss' });
  };
  const title = surface.title || surface.extensionId;
  return (
    <Shell title={title} extensionId={surface.extensionId} onEscape={() => !surface.options.persistent && dismiss()} testId="extension-modal" width={surface.options.width ?? 420}>
      <header className="ext-dialog__head">
        <h2 className="ext-dialog__title">{title}</h2>
        {!surface.options.persistent && (
          <button type="button" className="btn btn--small btn--ghost" onClick={dismiss} aria-label={`Close ${title}`}>
            ✕
          </button>
        )}
      </header>
      <div className="ext-dialog__frame" style={{ height: Math.min(surface.options.maxHeight ?? 520, innerHeight - 120) }}>
        <SurfaceFrame extensionId={surface.extensionId} surfaceId={surface.surfaceId} title={title} className="surface-frame--fill" />
      </div>
    </Shell>
  );
}

function answer(store: ReturnType<typeof useFrontends>['store'], dialog: PendingDialog, value: unknown, failure?: { code: string; message: string }) {
  store.setState((s) => ({ dialogs: s.dialogs.filter((d) => d.id !== dialog.id) }));
  if (failure) dialog.reject(failure);
  else dialog.resolve(value);
}

function Ask(props: { dialog: PendingDialog; extensionName: string }) {
  const { store } = useFrontends();
  const { dialog } = props;
  const p = dialog.params as Record<string, unknown>;
  const files = useRef<HTMLInputElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const done = (value: unknown, failure?: { code: string; message: string }) => answer(store, dialog, value, failure);
  switch (dialog.kind) {
    case 'input':
    case 'textEditor':
    case 'modal':
      return <BackendAsk dialog={dialog} extensionName={props.extensionName} done={done} />;
    case 'confirm':
      return (
        <Shell title={String(p.title)} extensionId={dialog.extensionId} onEscape={() => done({ confirmed: false })} testId="extension-confirm">
          <h2 className="ext-dialog__title">{String(p.title)}</h2>
          <p className="ext-dialog__from">From {props.extensionName}</p>
          <p className="ext-dialog__message">{String(p.message)}</p>
          <footer className="ext-dialog__actions">
            <button type="button" className="btn" onClick={() => done({ confirmed: false })}>
              {typeof p.cancelLabel === 'string' ? p.cancelLabel : 'Cancel'}
            </button>
            <button type="button" className={`btn ${p.variant === 'danger' ? 'btn--danger' : 'btn--primary'}`} onClick={() => done({ confirmed: true })}>
              {typeof p.confirmLabel === 'string' ? p.confirmLabel : 'Confirm'}
            </button>
          </footer>
        </Shell>
      );
    case 'contextMenu': {
      const items = (p.items as Array<{ key: string; label?: string; disabled?: boolean; danger?: boolean; type?: string }>) ?? [];
      return (
        <Shell title={`${props.extensionName} menu`} extensionId={dialog.extensionId} onEscape={() => done({ selectedKey: null })} testId="extension-menu">
          <ul className="ext-menu" role="menu" aria-label={`${props.extensionName} menu`}>
            {items.map((item, i) =>
              item.type === 'divider' ? (
                <li key={`d${i}`} role="separator" className="ext-menu__divider" />
              ) : (
                <li key={item.key} role="none">
                  <button type="button" role="menuitem" className={`ext-menu__item${item.danger ? ' ext-menu__item--danger' : ''}`} disabled={item.disabled} onClick={() => done({ selectedKey: item.key })}>
                    {item.label ?? item.key}
                  </button>
                </li>
              ),
            )}
          </ul>
        </Shell>
      );
    }
    case 'permissions':
      return (
        <Shell title="Permission request" extensionId={dialog.extensionId} onEscape={() => done(null, { code: 'PERMISSION_DENIED', message: 'Permission request denied by user' })} testId="extension-permission-request">
          <h2 className="ext-dialog__title">{props.extensionName} asks for permissions</h2>
          <p className="ext-dialog__message">
            {(p.permissions as string[]).map((name) => (
              <code key={name}>{name} </code>
            ))}
          </p>
          {typeof p.reason === 'string' && <p className="ext-dialog__message">{p.reason}</p>}
          <footer className="ext-dialog__actions">
            <button type="button" className="btn" onClick={() => done(null, { code: 'PERMISSION_DENIED', message: 'Permission request denied by user' })}>
              Deny
            </button>
            <button type="button" className="btn btn--primary" onClick={() => done({ grant: p.permissions })}>
              Allow
            </button>
          </footer>
        </Shell>
      );
    case 'file': {
      const max = typeof p.maxSizeBytes === 'number' ? p.maxSizeBytes : Infinity;
      const pick = async () => {
        const chosen = [...(files.current?.files ?? [])];
        const tooBig = chosen.find((f) => f.size > max);
        if (tooBig) return setFileError(`${tooBig.name} is larger than ${max} bytes.`);
        const read = await Promise.all(
          chosen.map(async (f) => {
            const bytes = new Uint8Array(await f.arrayBuffer());
            let binary = '';
            for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
            return { name: f.name, mimeType: f.type || 'application/octet-stream', sizeBytes: f.size, base64: btoa(binary) };
          }),
        );
        done(read);
      };
      return (
        <Shell title="Open a file" extensionId={dialog.extensionId} onEscape={() => done([])} testId="extension-file-pick">
          <h2 className="ext-dialog__title">{props.extensionName} wants to open a file</h2>
          <input ref={files} type="file" className="input" accept={Array.isArray(p.accept) ? (p.accept as string[]).join(',') : undefined} multiple={p.multiple === true} aria-label="File to give the extension" />
          {fileError && <p className="ext-dialog__error">{fileError}</p>}
          <footer className="ext-dialog__actions">
            <button type="button" className="btn" onClick={() => done([])}>
              Cancel
            </button>
            <button type="button" className="btn btn--primary" onClick={() => void pick()}>
              Give it the file
            </button>
          </footer>
        </Shell>
      );
    }
  }
}

export function FrontendDialogs() {
  useBackendDialogs(useHost(), useFrontends().store);
  const modals = useFrontendsStore(useShallow((s) => s.surfaces.filter((x) => x.kind === 'modal')));
  const dialog = useFrontendsStore((s) => s.dialogs[0] ?? null);
  const extensions = useAppStore(selectExtensions);
  const name = (id: string) => extensions.find((e) => e.id === id)?.name ?? id;
  return (
    <>
      {modals.map((surface) => (
        <Modal key={surface.key} surface={surface} />
      ))}
      {dialog && <Ask key={dialog.id} dialog={dialog} extensionName={name(dialog.extensionId)} />}
    </>
  );
}
