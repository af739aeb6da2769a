// Validates contract calls and the app's own files (settings, sessions, packs…) against their schemas and reports the
// first problem as a HostError. Nothing is compiled at start (compiling all ~150 cost the CLI a second a command).
import { Value } from '@sinclair/typebox/value';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { contract, type MethodName } from '../../../shared/contract';
import type { HostError } from '../../../shared/errors';

// The contract's schemas are the app's own (no meta-schema check, so none is loaded), and compiled without the
// optimisation pass, which doubled the compile time each start waits for. Made at the first compile: a command whose
// values the interpreter accepts never needs it (~10 ms of a CLI command's start).
let ajv: Ajv | undefined;
const contractAjv = (): Ajv => (ajv ??= new Ajv({ allErrors: false, strict: false, unicodeRegExp: false, validateSchema: false, meta: false, code: { optimize: false } }));

export type Validator<T = unknown> = ((value: unknown) => value is T) & { readonly errors: ErrorObject[] | null | undefined };

/**
 * A link's validator: Ajv alone, the schema compiled at its first call (one engine per link, so a value is judged
 * the same on its first call and its thousandth). The contract's doors and the local model engine's link use it; the
 * worker and frame links use TypeBox's Value (shared/schema-problem.ts), which needs no code generation.
 */
export function compiledValidator<T = unknown>(schema: object): Validator<T> {
  let compiled: ValidateFunction<T> | undefined;
  const validate = (value: unknown): value is T => (compiled ??= contractAjv().compile<T>(schema))(value);
  return Object.defineProperty(validate, 'errors', { get: () => compiled?.errors }) as Validator<T>;
}

/** Calls a file validator answers by interpreting its schema before it is compiled. */
const COMPILE_AFTER_CALLS = 16;

/**
 * A validator for the app's own files (settings, sessions, packs, backups), in two tiers. Compiling a schema costs
 * 5–90 ms (the settings schema the most), which a command that loads a file once would spend for nothing: the first
 * calls are answered by TypeBox interpreting the schema (our schemas are TypeBox's), and a schema still in use is then
 * compiled with Ajv. A value the interpreter refuses goes to Ajv, which has the last word and words the error. Links
 * use compiledValidator.
 */
export function lazyValidator<T = unknown>(schema: object): Validator<T> {
  let compiled: ValidateFunction<T> | undefined;
  let calls = 0;
  const validate = (value: unknown): value is T => {
    if (!compiled && ++calls <= COMPILE_AFTER_CALLS && interpretedValid(schema, value)) return true;
    compiled ??= contractAjv().compile<T>(schema);
    return compiled(value);
  };
  return Object.defineProperty(validate, 'errors', { get: () => compiled?.errors }) as Validator<T>;
}

function interpretedValid(schema: object, value: unknown): boolean {
  try {
    return Value.Check(schema as Parameters<typeof Value.Check>[0], value);
  } catch {
    // A schema the interpreter cannot read on its own (a reference it was not given): Ajv decides.
    return false;
  }
}

const inputValidators = new Map<MethodName, Validator>();

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
    validate = compiledValidator(contract[method].params);
    inputValidators.set(method, validate);
  }
  if (validate(input)) return null;
  const { message, path } = describeAjvError(validate.errors?.[0], 'input is invalid');
  return { code: 'INVALID_INPUT', message: `Invalid input for ${method}: ${message}`, path };
}

const outputValidators = new Map<MethodName, Validator>();

/** Null when the handler's answer matches the method's output schema, else an INTERNAL error naming the field. */
export function validateOutput(method: MethodName, value: unknown): HostError | null {
  let validate = outputValidators.get(method);
  if (!validate) {
    validate = compiledValidator(contract[method].result);
    outputValidators.set(method, validate);
  }
  if (validate(value)) return null;
  const { message, path } = describeAjvError(validate.errors?.[0], 'output is invalid');
  return { code: 'INTERNAL', message: `The answer of ${method} does not match its contract: ${message}`, path };
}
