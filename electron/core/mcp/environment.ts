// The environment a stdio MCP server starts with: what the user configured, plus PATH — never the host's secrets.
//
// The SDK's default set (HOME, LOGNAME, SHELL, TERM, USER) is marked `undefined` so it stays out even
// if a transport merges it in; child_process skips undefined values. PATH is
// inherited (unless configured) so "npx" or "uvx" resolve; on Windows SYSTEMROOT too, without which
// most programs cannot start. Anything else a server needs (HOME for npx caches, API keys) the user
// adds to the server's env.
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/sdk/client/stdio.js';

const INHERITED = process.platform === 'win32' ? ['PATH', 'SYSTEMROOT'] : ['PATH'];

export function serverEnvironment(configured: Record<string, string> | undefined, parent: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const key of DEFAULT_INHERITED_ENV_VARS) env[key] = undefined;
  for (const key of INHERITED) {
    const value = parent[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...configured };
}
