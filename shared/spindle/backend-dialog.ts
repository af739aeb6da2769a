// A dialog a backend opened for the person, as the host announces it to the windows (spindle-host/backend-dialogs.ts).
export type BackendDialogKind = 'confirm' | 'input' | 'textEditor' | 'modal';

export interface BackendDialog {
  dialogId: string;
  extensionId: string;
  kind: BackendDialogKind;
  /** The extension's options, as checked by the request contract (dialog-requests.ts). */
  params: Record<string, unknown>;
}
