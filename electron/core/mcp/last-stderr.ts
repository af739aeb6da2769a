// The last thing an MCP server wrote to stderr, for the message that says why it stopped.
import type { ExtensionLog } from '../extensions/extension-log';

/** ` (stderr: …)` with the server's last stderr line, or nothing. */
export function lastStderr(log: ExtensionLog): string {
  const last = log
    .read()
    .filter((entry) => entry.source === 'stderr' && entry.text.trim() !== '')
    .pop();
  return last ? ` (stderr: ${last.text.slice(0, 300)})` : '';
}
