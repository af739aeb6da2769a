// Building block of the contract: a host method is a description plus input and output JSON Schemas.
import type { TSchema } from '@sinclair/typebox';

export interface MethodSpec<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  description: string;
  input: I;
  output: O;
}

export function method<I extends TSchema, O extends TSchema>(description: string, input: I, output: O): MethodSpec<I, O> {
  return { description, input, output };
}
