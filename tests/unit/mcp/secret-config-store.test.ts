// The MCP config store that keeps credentials in the SecretStore: what settings hold, what comes back, what is lost.
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/core/connections/secret-store';
import type { McpConfigStore } from '../../../electron/core/mcp/mcp-manager';
import { mcpSecretId, secretBackedMcpStore, STORED_SECRET } from '../../../electron/core/mcp/secret-config-store';
import type { McpServerConfig } from '../../../shared/types/mcp';
import { RecordingLogger } from '../registry/fakes';
import { refusingSecretStore } from './harness';

function memoryStore(initial: McpServerConfig[] = []): McpConfigStore & { configs: McpServerConfig[] } {
  const store = {
    configs: structuredClone(initial),
    read: () => structuredClone(store.configs),
    change: async (edit: (stored: McpServerConfig[]) => McpServerConfig[]) => {
      store.configs = structuredClone(edit(structuredClone(store.configs)));
    },
  };
  return store;
}

const web: McpServerConfig = { id: 'web', name: 'web', transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer s3cret', 'X-Padded': ' spaced ' }, trusted: false, enabled: true };
const cli: McpServerConfig = { id: 'cli', name: 'cli', transport: 'stdio', command: 'node', env: { API_KEY: 'k3y', LOG_LEVEL: 'debug' }, trusted: false, enabled: true };

describe('secret-backed MCP config store', () => {
  it('writes references for secrets, keeps plain values, and reads the real values back', async () => {
    const inner = memoryStore();
    const secrets = new MemorySecretStore();
    const store = secretBackedMcpStore(inner, secrets, new RecordingLogger());
    await store.change(() => [web, cli]);
    expect(inner.configs[0]!.headers).toEqual({ Authorization: STORED_SECRET, 'X-Padded': ' spaced ' });
    expect(inner.configs[1]!.env).toEqual({ API_KEY: STORED_SECRET, LOG_LEVEL: 'debug' });
    expect(secrets.get(mcpSecretId('web', 'headers', 'Authorization'))).toBe('Bearer s3cret');
    expect(store.read()).toEqual([web, cli]);
  });

  it('deletes the secrets that settings no longer refer to', async () => {
    const secrets = new MemorySecretStore();
    const store = secretBackedMcpStore(memoryStore(), secrets, new RecordingLogger());
    await store.change(() => [web, cli]);
    await store.change(() => [{ ...web, headers: {} }]);
    expect(secrets.get(mcpSecretId('web', 'headers', 'Authorization'))).toBeUndefined();
    expect(secrets.get(mcpSecretId('cli', 'env', 'API_KEY'))).toBeUndefined();
  });

  it('runs changes one at a time, so removing a server and adding it again keeps the new secret', async () => {
    let release: () => void = () => {};
    const inner = memoryStore();
    const slow: McpConfigStore = {
      read: inner.read,
      change: async (edit) => {
        // The first change (adding the server) lands at once; the removal waits until released.
        if (edit(inner.read()).length === 0) await new Promise<void>((resolve) => (release = resolve));
        await inner.change(edit);
      },
    };
    const secrets = new MemorySecretStore();
    const store = secretBackedMcpStore(slow, secrets, new RecordingLogger());
    await store.change(() => [web]);
    const removed = store.change(() => []);
    const readded = store.change(() => [{ ...web, headers: { Authorization: 'Bearer n3w' } }]);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([removed, readded]);
    expect(secrets.get(mcpSecretId('web', 'headers', 'Authorization'))).toBe('Bearer n3w');
    expect(store.read()[0]!.headers!.Authorization).toBe('Bearer n3w');
  });

  it('drops a value the secret store lost, with a warning, instead of sending the placeholder', async () => {
    const inner = memoryStore();
    await secretBackedMcpStore(inner, new MemorySecretStore(), new RecordingLogger()).change(() => [web]);
    const log = new RecordingLogger();
    const [read] = secretBackedMcpStore(inner, new MemorySecretStore(), log).read();
    expect(read!.headers).toEqual({ 'X-Padded': ' spaced ' });
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes('Authorization is missing'))).toBe(true);
  });

  it('keeps a value in settings when the secret store refuses it (no encryption on this desktop)', async () => {
    const refusing = refusingSecretStore();
    const inner = memoryStore();
    const log = new RecordingLogger();
    const kept: string[] = [];
    const store = secretBackedMcpStore(inner, refusing, log, (serverId, name) => kept.push(`${serverId} ${name}`));
    await store.change(() => [web]);
    await store.change(() => [web]);
    expect(inner.configs[0]!.headers!.Authorization).toBe('Bearer s3cret');
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes('stays in settings.json'))).toBe(true);
    // The person is told once per value, not on every save.
    expect(kept).toEqual(['web Authorization']);
  });

  it('migrates inline values once, and leaves settings alone when there is nothing to move', async () => {
    const inner = memoryStore([web]);
    const secrets = new MemorySecretStore();
    const store = secretBackedMcpStore(inner, secrets, new RecordingLogger());
    await store.migrate();
    expect(inner.configs[0]!.headers!.Authorization).toBe(STORED_SECRET);
    let writes = 0;
    const counting: McpConfigStore = { read: inner.read, change: async (edit) => void (writes++, await inner.change(edit)) };
    await secretBackedMcpStore(counting, secrets, new RecordingLogger()).migrate();
    expect(writes).toBe(0);
  });
});
