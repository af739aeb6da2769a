// The identity of a tool's definition: sha256 over canonical JSON (sorted keys) of its normalized registration.
//
// Approvals are bound to this hash (security ref. R7): any change to the name, description, schema
// or flags yields a new hash, while key order and absent-vs-default fields do not.
import { createHash } from 'node:crypto';
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';

/** JSON with object keys sorted by UTF-16 code unit; undefined members dropped as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members: string[] = [];
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    members.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  }
  return `{${members.join(',')}}`;
}

/** Hex sha256 of the registration after validation has applied defaults. */
export function definitionHash(registration: ToolRegistrationDTO): string {
  return createHash('sha256').update(canonicalJson(registration), 'utf8').digest('hex');
}
