// MCP credentials out of settings.json: header values and secret-looking env values go to the SecretStore
// (encrypted with safeStorage on the desktop, a 0600 file in Node), settings.json keeps a reference.
import { isSecretValue } from '../../../shared/secret-mask';
import type { McpServerConfig } from '../../../shared/types/mcp';
import { checkKey, type SecretStore } from '../connections/secret-store';
import type { Logger } from '../ports';
import type { McpConfigStore } from './mcp-manager';

/** What settings.json holds in place of a value kept in the secret store. */
export const STORED_SECRET = '[in the secret store]';

const FIELDS = ['headers', 'env'] as const;
type Field = (typeof FIELDS)[number];

export function mcpSecretId(serverId: string, field: Field, name: string): string {
  return `mcp:${serverId}:${field}:${name}`;
}

/** The secret store keeps keys trimmed and free of control characters; other values stay in settings. */
function storable(value: string): boolean {
  try {
    return checkKey(value) === value;
  } catch {
    return false;
  }
}

/** A copy of `config` with each header and env value replaced by `fn` (undefined drops it). */
function mapValues(config: McpServerConfig, fn: (field: Field, name: string, value: string) => string | undefined): McpServerConfig {
  let out = config;
  for (const field of FIELDS) {
    const values = config[field];
    if (!values) continue;
    const next: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      const mapped = fn(field, name, value);
      if (mapped !== undefined) next[name] = mapped;
    }
    out = { ...out, [field]: next };
  }
  return out;
}

function* values(config: McpServerConfig): Generator<[Field, string, string]> {
  for (const field of FIELDS) for (const [name, value] of Object.entries(config[field] ?? {})) yield [field, name, value];
}

function referencedIds(configs: McpServerConfig[]): Set<string> {
  const ids = new Set<string>();
  for (const config of configs) for (const [field, name, value] of values(config)) if (value === STORED_SECRET) ids.add(mcpSecretId(config.id, field, name));
  return ids;
}

export interface SecretBackedMcpStore extends McpConfigStore {
  /** Moves values still written in settings.json (configs from before this store) into the secret store. */
  migrate(): Promise<void>;
}

/** Told when a value stays in settings.json because the secret store refused it, once per server and name. */
export type KeptInSettings = (serverId: string, name: string, reason: string) => void;

export function secretBackedMcpStore(inner: McpConfigStore, secrets: SecretStore, log: Logger, onKeptInSettings?: KeptInSettings): SecretBackedMcpStore {
  const reported = new Set<string>();
  const resolve = (config: McpServerConfig) =>
    mapValues(config, (field, name, value) => {
      if (value !== STORED_SECRET) return value;
      const secret = secrets.get(mcpSecretId(config.id, field, name));
      // The store could not give it back (another machine's encrypted file, a deleted secrets file).
      if (secret === undefined) log.warn(`MCP server "${config.id}": the stored value of ${field === 'headers' ? 'header' : 'variable'} ${name} is missing; enter it again.`);
      return secret;
    });
  // Secrets are saved before settings refer to them; a crash in between leaves an unused secret, never a dangling reference.
  const stash = (config: McpServerConfig) =>
    mapValues(config, (field, name, value) => {
      // A stored entry another change left alone still holds its reference: it stays as it is.
      if (value === STORED_SECRET || !isSecretValue(field, name) || !storable(value)) return value;
      const id = mcpSecretId(config.id, field, name);
      try {
        secrets.set(id, value);
      } catch (error) {
        // No encryption on this desktop (safeStorage refuses): the value stays where it was before.
        const reason = (error as Error).message;
        log.warn(`MCP server "${config.id}": ${name} stays in settings.json: ${reason}`);
        if (!reported.has(id)) {
          reported.add(id);
          onKeptInSettings?.(config.id, name, reason);
        }
        return value;
      }
      return STORED_SECRET;
    });
  const changeNow = async (edit: (stored: McpServerConfig[]) => McpServerConfig[]) => {
    let before = new Set<string>();
    let after = new Set<string>();
    await inner.change((stored) => {
      before = referencedIds(stored);
      const next = edit(stored).map(stash);
      after = referencedIds(next);
      return next;
    });
    for (const id of before) if (!after.has(id)) secrets.delete(id);
  };
  // One change at a time: a change that removes a server must not delete the secret a later one (the
  // same id added again) has just stored.
  let queue: Promise<void> = Promise.resolve();
  const store: SecretBackedMcpStore = {
    read: () => inner.read().map(resolve),
    change(edit) {
      const run = queue.then(() => changeNow(edit));
      queue = run.catch(() => {});
      return run;
    },
    async migrate() {
      const configs = inner.read();
      const inline = configs.some((config) => [...values(config)].some(([field, name, value]) => value !== STORED_SECRET && isSecretValue(field, name) && storable(value)));
      if (inline) await store.change((stored) => stored.map(resolve));
    },
  };
  return store;
}
