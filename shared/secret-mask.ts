// Secret values in MCP server configs: the renderer sees a mask, and sending the mask back keeps the stored value.

/** Names of environment variables and headers that carry credentials. */
export const SECRET_NAME = /KEY|TOKEN|SECRET|PASS|CREDENTIAL|AUTH|COOKIE|SESSION/i;

/** What a hidden value reads as outside the host; as a value in an update it means "keep what is stored". */
export const KEPT_SECRET = '••••••••';

interface WithSecrets {
  headers?: Record<string, string>;
  env?: Record<string, string>;
}

/**
 * A copy fit for the renderer: every header value hidden (headers carry credentials more often than
 * not) and the env values whose names look secret. Names stay visible, so the form can list them.
 */
export function maskSecrets<T extends WithSecrets>(config: T): T {
  const out = { ...config };
  if (config.headers) out.headers = Object.fromEntries(Object.keys(config.headers).map((name) => [name, KEPT_SECRET]));
  if (config.env) out.env = Object.fromEntries(Object.entries(config.env).map(([name, value]) => [name, SECRET_NAME.test(name) ? KEPT_SECRET : value]));
  return out;
}
