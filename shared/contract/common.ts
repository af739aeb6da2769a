// Schemas several contract domains share.
import { Type } from '@sinclair/typebox';

/** shared/errors.ts HostError on the wire: a stable code (ERROR_CODES), a message, and where known a hint and the field. */
export const HostErrorSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  hint: Type.Optional(Type.String()),
  /** JSON-pointer-like path of the offending field, e.g. `/members/0/chance`. */
  path: Type.Optional(Type.String()),
});
