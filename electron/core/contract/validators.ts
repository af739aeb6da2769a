// Validates contract calls with ajv and reports the first problem as a HostError. Each method's schemas are compiled
// the first time it is called (compiling all ~150 at start cost the CLI a second for one command).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { contract, type MethodName } from '../../../shared/contract';
import type { HostError } from '../../../shared/errors';

const ajv = new Ajv({ allErrors: false, strict: false, unicodeRegExp: false });

const inputValidators = new Map<MethodName, ValidateFunction>();

/** A schema's validator, compiled the first time it is used (compiling every schema at import slowed each start). */
export function lazyValidator<T = unknown>(schema: object): ((value: unknown) => value is T) & { readonly errors: ErrorObject[] | null | undefined } {
  let compiled: ValidateFunction<T> | undefined;
  const validate = (value: unknown): value is T => (compiled ??= ajv.compile<T>(schema))(value);
  return Object.defineProperty(validate, 'errors', { get: () => compiled?.errors }) as typeof validate & { readonly errors: ErrorObject[] | null | undefined };
}

export function describeAjvError(error: ErrorObject | undefined, fallback: string): { message: string; path: string } {
  if (!error) return { message: fallback, path: '' };
  let path = error.instancePath || '';
  if (error.keyword === 'required') path = `${path}/${(error.params as { missingProperty: string }).missingProperty}`;
  if (error.keyword === 'additionalProperties') {
    path = `${path}/${(error.params as { additionalProperty: string }).additionalProperty}`;
  }
  return { message: `${path || '(root)'} ${error.message ?? 'is invalid'} (${error.keyword})`, path: path || '/' };
}

/** Returns null when the input is valid for the method, else an INVALID_INPUT error naming the field. */
export function validateInput(method: MethodName, input: unknown): HostError | null {
  if (!Object.prototype.hasOwnProperty.call(contract, method)) return { code: 'UNKNOWN_METHOD', message: `Unknown method "${method}"` };
  let validate = inputValidators.get(method);
  if (!validate) {
    validate = ajv.compile(contract[method].input);
    inputValidators.set(method, validate);
  }
  if (validate(input)) return null;
  const { message, path } = describeAjvError(validate.errors?.[0], 'input is invalid');
  return { code: 'INVALID_INPUT', message: `Invalid input for ${method}: ${message}`, path };
}

const outputValidators = new Map<MethodName, ValidateFunction>();

/** Null when the handler's answer matches the method's output schema, else an INTERNAL error naming the field. */
export function validateOutput(method: MethodName, value: unknown): HostError | null {
  let validate = outputValidators.get(method);
  if (!validate) {
    validate = ajv.compile(contract[method].output);
    outputValidators.set(method, validate);
  }
  if (validate(value)) return null;
  const { message, path } = describeAjvError(validate.errors?.[0], 'output is invalid');
  return { code: 'INTERNAL', message: `The answer of ${method} does not match its contract: ${message}`, path };
}
