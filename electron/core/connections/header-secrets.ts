// Credentials typed into a connection's extra headers (`Helicone-Auth: Bearer sk-…`) live in the secret store:
// settings.json holds STORED_SECRET in their place, clients see the mask, and requests get the value back.
import { HostFailure } from '../../../shared/errors';
import { KEPT_SECRET, SECRET_NAME, STORED_SECRET } from '../../../shared/secret-mask';
import type { ConnectionProfile } from '../../../shared/types/llm';
import type { Redactor } from './redact';
import type { SecretStore } from './secret-store';

/** Values shaped like keys or tokens: `Bearer …`, `sk-…`, Google's `AIza…`, long opaque tokens. */
const CREDENTIAL_SHAPES = [/\b(Bearer|Basic|Token)\s+\S{8,}/i, /\bsk-[A-Za-z0-9_-]{8,}/, /\bAIza[0-9A-Za-z_-]{20,}/, /^[A-Za-z0-9_\-.=+/]{32,}$/];

/** A header is a secret when its name says so (`…-Auth`, `…-Token`) or its value looks like a credential. */
export function isSecretHeader(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || CREDENTIAL_SHAPES.some((shape) => shape.test(value));
}

const secretId = (profileId: string, name: string) => `connection:${profileId}:header:${name.toLowerCase()}`;

/**
 * The profile as settings.json keeps it: secret header values moved into `secrets`. A header sent back as
 * the mask keeps what `previous` stored; secrets of headers no longer there are forgotten.
 */
export function stashHeaderSecrets(profile: ConnectionProfile, previous: ConnectionProfile | undefined, secrets: SecretStore): ConnectionProfile {
  const headers: Record<string, string> = {};
  const kept = new Set<string>();
  for (const [name, value] of Object.entries(profile.headers)) {
    const id = secretId(profile.id, name);
    if (value === KEPT_SECRET || value === STORED_SECRET) {
      if (previous?.headers[name] !== STORED_SECRET || secrets.get(id) === undefined) {
        throw new HostFailure({ code: 'INVALID_INPUT', message: `No value is stored for the ${name} header; type it again.`, path: `/headers/${name}` });
      }
    } else if (isSecretHeader(name, value)) secrets.set(id, value);
    else {
      headers[name] = value;
      continue;
    }
    headers[name] = STORED_SECRET;
    kept.add(id);
  }
  if (previous) forgetHeaderSecrets(previous, secrets, kept);
  return { ...profile, headers };
}

/** Deletes the stored header values of `profile` (all of them, or those not in `keep`). */
export function forgetHeaderSecrets(profile: ConnectionProfile, secrets: SecretStore, keep: ReadonlySet<string> = new Set()): void {
  for (const [name, value] of Object.entries(profile.headers)) {
    const id = secretId(profile.id, name);
    if (value === STORED_SECRET && !keep.has(id)) secrets.delete(id);
  }
}

/** Headers for clients: stored values masked. */
export function maskHeaderSecrets(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === STORED_SECRET ? KEPT_SECRET : value]));
}

/**
 * The headers a request sends: stored values filled in (the mask too, for an unsaved copy of a saved
 * profile under test), each registered with the redactor; a value the store lost is left out.
 */
export function requestHeaders(profile: ConnectionProfile, secrets: SecretStore, redactor?: Redactor): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(profile.headers)) {
    const resolved = value === STORED_SECRET || value === KEPT_SECRET ? secrets.get(secretId(profile.id, name)) : value;
    if (resolved === undefined) continue;
    if (isSecretHeader(name, resolved)) redactor?.add(resolved);
    out[name] = resolved;
  }
  return out;
}
