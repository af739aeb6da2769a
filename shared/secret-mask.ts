// Secret values in MCP server configs: the renderer sees a mask, and sending the mask back keeps the stored value.

/** Names of environment variables and headers that carry credentials. */
export const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|COOKIE|SESSION/i;

/** What a hidden value reads as outside the host; as a value in an update it means "keep what is stored". */
export const KEPT_SECRET = '••••••••';

/** What settings.json holds in place of a value kept in the host's secret store. */
export const STORED_SECRET = '[in the secret store]';

interface WithSecrets {
  headers?: Record<string, string>;
  env?: Record<string, string>;
}

/**
 * Every header value (headers carry credentials more often than not) and the env values whose names
 * look secret: masked for the renderer, kept in the host's secret store.
 */
export function isSecretValue(field: 'headers' | 'env', name: string): boolean {
  return field === 'headers' || SECRET_NAME.test(name);
}

/** A copy fit for the renderer, secret values masked. Names stay visible, so the form can list them. */
export function maskSecrets<T extends WithSecrets>(config: T): T {
  const out = { ...config };
  for (const field of ['headers', 'env'] as const) {
    const values = config[field];
    if (values) out[field] = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, isSecretValue(field, name) ? KEPT_SECRET : value]));
  }
  return out;
}
