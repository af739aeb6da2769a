// Dialogs extensions' backends open (spindle.modal, prompt, textEditor), queued with their frontends' (the same
// dialog drawing, FrontendDialogs.tsx): the person's answer goes back through the host, and a dialog answered in
// another window, closed by its extension or timed out goes without one.
import { useEffect } from 'react';
import type { HostConnection } from '../../api/connection';
import type { FrontendsStore, PendingDialog } from './frontends-store';

let seq = 0;

export function useBackendDialogs(host: HostConnection, store: FrontendsStore): void {
  useEffect(
    () =>
      host.onEvent((event) => {
        if (event.type === 'extension.dialog') {
          const { dialogId, extensionId, kind, params } = event.dialog;
          const say = (answer: unknown) => void Promise.resolve(host.invoke('extensions.dialogAnswer', { dialogId, answer })).catch(() => undefined);
          // Negative ids: never one of a frame's (those count up from 1).
          const dialog: PendingDialog = { id: -++seq, hostId: dialogId, extensionId, kind, params, resolve: say, reject: () => say(null) };
          store.setState((s) => ({ dialogs: [...s.dialogs, dialog] }));
        } else if (event.type === 'extension.dialog-closed') {
          store.setState((s) => ({ dialogs: s.dialogs.filter((d) => d.hostId !== event.dialogId) }));
        }
      }),
    [host, store],
  );
}
