// One MCP server's log: mcp.log when opened, then followed live from mcp.log events.
import { useCallback, useMemo } from 'react';
import { useAppStore, useAppStoreApi, useHost } from '../../app/context';
import { LiveLog } from '../../components/LiveLog';
import { loadMcpLog } from '../../stores/mcp/mcp-commands';
import { selectMcpLog } from '../../stores/mcp/mcp-selectors';
import { MCP_LOG_LINES_CAP } from '../../stores/mcp/mcp-slice';

export function LogView(props: { id: string; name: string; domId: string }) {
  const store = useAppStoreApi();
  const host = useHost();
  const selectLog = useMemo(() => selectMcpLog(props.id), [props.id]);
  const lines = useAppStore(selectLog);
  const load = useCallback(() => loadMcpLog(store, host, props.id), [store, host, props.id]);
  const onClose = useCallback(() => store.getState().mcpLogClosed(props.id), [store, props.id]);
  return (
    <LiveLog name={props.name} domId={props.domId} lines={lines} cap={MCP_LOG_LINES_CAP} load={load} onClose={onClose} testId="mcp-log" textTestId="mcp-log-text" />
  );
}
