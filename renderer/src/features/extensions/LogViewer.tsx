// One extension's log: extensions.log when opened, then followed live from extension.log events.
import { useCallback, useMemo } from 'react';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { LiveLog } from '../../components/LiveLog';
import { loadExtensionLog } from '../../stores/extensions/extension-commands';
import { LOG_LINES_CAP } from '../../stores/extensions/extensions-slice';
import { selectExtensionLog } from '../../stores/app/selectors';

export function LogViewer(props: { id: string; name: string; domId: string }) {
  const store = useAppStoreApi();
  const host = useHost();
  const selectLog = useMemo(() => selectExtensionLog(props.id), [props.id]);
  const lines = useAppStore(selectLog);
  const load = useCallback(() => loadExtensionLog(store, host, props.id), [store, host, props.id]);
  const onClose = useCallback(() => store.getState().extensionLogClosed(props.id), [store, props.id]);
  return <LiveLog name={props.name} domId={props.domId} lines={lines} cap={LOG_LINES_CAP} load={load} onClose={onClose} testId="extension-log" />;
}
