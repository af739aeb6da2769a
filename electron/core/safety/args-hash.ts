// The identity of one call's arguments: canonical JSON (sorted keys) and its sha256, for approvals and cache keys.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../registry/definition-hash';

export { canonicalJson };

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Key order never matters: {"a":1,"b":2} and {"b":2,"a":1} hash the same. */
export function argsHash(args: unknown): { json: string; hash: string } {
  const json = canonicalJson(args);
  return { json, hash: sha256Hex(json) };
}
