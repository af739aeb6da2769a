// Dialogs extensions' backends open (spindle.modal, prompt, textEditor), queued with their frontends' (the same
// dialog drawing, FrontendDialogs.tsx): the person's answer goes back through the host, and a dialog answered in
// another window, closed by its extension or timed out goes without one. A window that opens (or reconnects) after
// they were announced asks the host for those still waiting.
import { useEffect } from 'react';
import type { HostConnection } from '../../api/connection';
import type { BackendDialog } from '../../../../shared/spindle/backend-dialog';
import type { FrontendsStore, PendingDialog } from './frontends-store';

let seq = 0;

export function useBackendDialogs(host: HostConnection, store: FrontendsStore): void {
  useEffect(() => {
    const show = ({ dialogId, extensionId, kind, params }: BackendDialog) => {
      if (store.getState().dialogs.some((d) => d.hostId === dialogId)) return;
      const say = (answer: unknown) => void Promise.resolve(host.invoke('extensions.dialogAnswer', { dialogId, answer })).catch(() => undefined);
      // Negative ids: never one of a frame's (those count up from 1).
      const dialog: PendingDialog = { id: -++seq, hostId: dialogId, extensionId, kind, params, resolve: say, reject: () => say(null) };
      store.setState((s) => ({ dialogs: [...s.dialogs, dialog] }));
    };
    // The host's list is the truth: what it no longer holds (answered elsewhere, timed out while this window was
    // away) goes, what it holds that this window lacks comes.
    const catchUp = () =>
      void Promise.resolve(host.invoke('extensions.dialogs', {}))
        .then((listed) => {
          if (!listed.ok) return;
          const held = new Set(listed.value.dialogs.map((d) => d.dialogId));
          store.setState((s) => ({ dialogs: s.dialogs.filter((d) => d.hostId === undefined || held.has(d.hostId)) }));
          listed.value.dialogs.forEach(show);
        })
        .catch(() => undefined);
    if (host.getInfo().state === 'connected') catchUp();
    const offInfo = host.onInfo((info) => info.state === 'connected' && catchUp());
    const offEvents = host.onEvent((event) => {
      if (event.type === 'extension.dialog') show(event.dialog);
      else if (event.type === 'extension.dialog-closed') store.setState((s) => ({ dialogs: s.dialogs.filter((d) => d.hostId !== event.dialogId) }));
    });
    return () => {
      offInfo();
      offEvents();
    };
  }, [host, store]);
}
