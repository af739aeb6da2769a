// Tiny constructors for the shared Result<T> shape, so registry modules return errors as data.
import type { ErrorCode, HostError, Result } from '../../../shared/errors';

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function err<T = never>(code: ErrorCode, message: string, extra: { hint?: string; path?: string } = {}): Result<T> {
  const error: HostError = { code, message };
  if (extra.hint !== undefined) error.hint = extra.hint;
  if (extra.path !== undefined) error.path = extra.path;
  return { ok: false, error };
}
