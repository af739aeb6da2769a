// Compiles every contract input schema once with ajv and reports the first problem as a HostError; output schemas
// are compiled when first asked for (tests check every answer against its method's output schema).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { contract, type MethodName } from '../../../shared/contract';
import type { HostError } from '../../../shared/errors';

const ajv = new Ajv({ allErrors: false, strict: false, unicodeRegExp: false });

const inputValidators = new Map<MethodName, ValidateFunction>();
for (const name of Object.keys(contract) as MethodName[]) {
  inputValidators.set(name, ajv.compile(contract[name].input));
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
  const validate = inputValidators.get(method);
  if (!validate) return { code: 'UNKNOWN_METHOD', message: `Unknown method "${method}"` };
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
