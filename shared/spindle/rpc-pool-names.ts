// Lumiverse's shared RPC pool endpoint names: `<extension_id>.<channel>`, its channel segments lowercase letters,
// digits, `_` and `-`. The worker names an endpoint at once (sync and handle answer the full name synchronously);
// the host checks every name again.

const CHANNEL_SEGMENT = /^[a-z0-9][a-z0-9_-]*$/;
/** Long enough for any real name, short enough that a name is never a payload. */
export const MAX_ENDPOINT_CHARS = 256;

export function isValidEndpoint(endpoint: string): boolean {
  const parts = endpoint.trim().split('.').filter(Boolean);
  if (endpoint.length > MAX_ENDPOINT_CHARS || parts.length < 2) return false;
  return /^[a-z0-9][a-z0-9_-]{0,63}$/.test(parts[0]!) && parts.slice(1).every((part) => CHANNEL_SEGMENT.test(part));
}

/** The fully qualified name of an endpoint; null when it is not a valid one. */
export function qualifiedEndpoint(endpoint: unknown): string | null {
  const trimmed = String(endpoint ?? '').trim();
  return isValidEndpoint(trimmed) ? trimmed : null;
}

/** An owner's endpoint under its own prefix: a bare channel (`status.current`) or its own full name. */
export function ownedEndpoint(owner: string, endpoint: unknown): string | null {
  const trimmed = String(endpoint ?? '').trim();
  if (!trimmed) return null;
  if (trimmed.startsWith(`${owner}.`) && isValidEndpoint(trimmed)) return trimmed;
  return qualifiedEndpoint(`${owner}.${trimmed}`);
}

export const invalidEndpointMessage = (endpoint: unknown) =>
  `Invalid shared RPC endpoint "${String(endpoint ?? '').trim().slice(0, 120)}". Expected "<extension_id>.<channel>" using lowercase letters, numbers, "_", and "-".`;
