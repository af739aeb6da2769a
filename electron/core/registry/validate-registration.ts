// Validates an untrusted registerTool DTO from a worker (or an MCP server) into a normalized registration.
//
// Rejects rather than repairs: an extension author sees exactly which field is wrong (code + path),
// and the definition hash covers what was sent. Unknown fields are ignored (newer SDKs may send
// more), `extension_id` included — the host sets identity, never the DTO.
import type { HostError, Result } from '../../../shared/errors';
import type { JsonSchema, ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { CompiledSchema, SchemaCompiler } from './compile-schema';
import { utf8ByteLength } from '../../../shared/protocol/limits';
import { DEFAULT_REGISTRY_LIMITS, type RegistryLimits } from './limits';
import { checkToolName, type NameRule } from './names';
import { err, ok } from './result';
import { STRIPPED_EVERYWHERE_KEYS, STRIPPED_TOP_LEVEL_KEYS } from './sanitize-args';

export interface ValidatedTool {
  /** Defaults applied: display_name, the booleans, mode ('write' when absent); path params as arrays. */
  registration: ToolRegistrationDTO;
  parameters: CompiledSchema;
  outputSchema: CompiledSchema | null;
  /** The tool said `mode` itself; without it, mode 'write' is a default (approval by trust, not by declaration). */
  modeDeclared: boolean;
}

export interface ValidateOptions {
  nameRule: NameRule;
  compiler: SchemaCompiler;
  limits?: RegistryLimits;
}

const BOOLEAN_FIELDS = ['council_eligible', 'inline_available', 'requires_approval', 'has_simulate'] as const;
const PATH_PARAM_FIELDS = ['read_path_param', 'write_path_param'] as const;
const MAX_PATH_PARAMS = 16;

/** On failure nothing stays compiled; on success the caller owns (and must release) both schemas. */
export function validateRegistration(dto: unknown, options: ValidateOptions): Result<ValidatedTool> {
  const limits = options.limits ?? DEFAULT_REGISTRY_LIMITS;
  if (typeof dto !== 'object' || dto === null || Array.isArray(dto)) {
    return err('INVALID_INPUT', 'Tool registration must be an object', { path: '/' });
  }
  const input = dto as Record<string, unknown>;

  const nameError = checkToolName(input.name, options.nameRule);
  if (nameError) return { ok: false, error: nameError };
  const name = input.name as string;

  const description = input.description;
  if (typeof description !== 'string') {
    return err('INVALID_INPUT', 'description must be a string', { path: '/description' });
  }
  const descriptionError = checkText(description, '/description', {
    maxBytes: limits.maxDescriptionBytes,
    allowNewlines: true,
  });
  if (descriptionError) return { ok: false, error: descriptionError };

  let displayName = name;
  if (input.display_name !== undefined) {
    if (typeof input.display_name !== 'string' || input.display_name.trim() === '') {
      return err('INVALID_INPUT', 'display_name must be a non-empty string', { path: '/display_name' });
    }
    if (input.display_name.length > limits.maxDisplayNameChars) {
      return err('INVALID_INPUT', `display_name is longer than ${limits.maxDisplayNameChars} characters`, {
        path: '/display_name',
      });
    }
    const displayError = checkText(input.display_name, '/display_name', { maxBytes: Infinity, allowNewlines: false });
    if (displayError) return { ok: false, error: displayError };
    displayName = input.display_name;
  }

  const flags: Partial<Record<(typeof BOOLEAN_FIELDS)[number], boolean>> = {};
  for (const field of BOOLEAN_FIELDS) {
    const value = input[field];
    if (value !== undefined && typeof value !== 'boolean') {
      return err('INVALID_INPUT', `${field} must be true or false`, { path: `/${field}` });
    }
    flags[field] = value === true;
  }

  const mode = input.mode ?? 'write';
  if (mode !== 'read' && mode !== 'write') {
    return err('INVALID_INPUT', 'mode must be "read" or "write"', { path: '/mode' });
  }

  const pathParams: Partial<Record<(typeof PATH_PARAM_FIELDS)[number], string[]>> = {};
  for (const field of PATH_PARAM_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    const list = typeof value === 'string' ? [value] : value;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      list.length > MAX_PATH_PARAMS ||
      !list.every((item): item is string => typeof item === 'string' && item.length > 0 && item.length <= 128)
    ) {
      return err('INVALID_INPUT', `${field} must be a parameter name or a list of 1–${MAX_PATH_PARAMS} names`, {
        path: `/${field}`,
      });
    }
    pathParams[field] = [...list];
  }

  let cache: ToolRegistrationDTO['cache'];
  if (input.cache !== undefined) {
    const checked = checkCache(input.cache, limits);
    if (!checked.ok) return checked;
    cache = checked.value;
  }

  const parameters = options.compiler.compile(input.parameters, { where: '/parameters', requireObjectRoot: true });
  if (!parameters.ok) return parameters;
  const release = () => options.compiler.release(parameters.value);

  const reserved = reservedParameter(parameters.value.schema);
  if (reserved) {
    release();
    return { ok: false, error: reserved };
  }

  // The approval policy canonicalizes the arguments named here; a name the schema does not declare
  // would silently never be checked.
  const properties = parameters.value.schema.properties;
  for (const field of PATH_PARAM_FIELDS) {
    for (const param of pathParams[field] ?? []) {
      const declared =
        typeof properties === 'object' && properties !== null && Object.prototype.hasOwnProperty.call(properties, param);
      if (!declared) {
        release();
        return err('INVALID_INPUT', `${field} names a parameter that parameters.properties does not declare`, {
          path: `/${field}`,
        });
      }
    }
  }

  let outputSchema: CompiledSchema | null = null;
  if (input.output_schema !== undefined) {
    const compiled = options.compiler.compile(input.output_schema, { where: '/output_schema', requireObjectRoot: false });
    if (!compiled.ok) {
      release();
      return compiled;
    }
    outputSchema = compiled.value;
  }

  const registration: ToolRegistrationDTO = {
    name,
    display_name: displayName,
    description,
    parameters: cloneSchema(parameters.value.schema),
    council_eligible: flags.council_eligible ?? false,
    inline_available: flags.inline_available ?? false,
    mode,
    requires_approval: flags.requires_approval ?? false,
    has_simulate: flags.has_simulate ?? false,
  };
  if (pathParams.read_path_param) registration.read_path_param = pathParams.read_path_param;
  if (pathParams.write_path_param) registration.write_path_param = pathParams.write_path_param;
  if (outputSchema) registration.output_schema = cloneSchema(outputSchema.schema);
  if (cache) registration.cache = cache;
  return ok({ registration, parameters: parameters.value, outputSchema, modeDeclared: input.mode !== undefined });
}

/**
 * A top-level parameter the host always strips from arguments could never arrive, so a tool that
 * declares one is broken from the start; say so at registration instead of at every call.
 * `context` is the exception: the host supplies it (seed 000), and declaring it documents that.
 */
function reservedParameter(schema: JsonSchema): HostError | null {
  const properties = schema.properties;
  const declared = new Set<string>(
    typeof properties === 'object' && properties !== null ? Object.keys(properties) : [],
  );
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) if (typeof name === 'string') declared.add(name);
  }
  for (const name of [...STRIPPED_TOP_LEVEL_KEYS, ...STRIPPED_EVERYWHERE_KEYS]) {
    if (name === 'context' || !declared.has(name)) continue;
    const path = `/parameters/properties/${name}`;
    return {
      code: 'INVALID_SCHEMA',
      message: `${path} is reserved: the host removes "${name}" from arguments, so the tool would never receive it`,
      path,
      hint:
        name === 'councilMember' || name === 'contextMessages'
          ? 'The host delivers it as a separate field of the invocation; read it from there.'
          : 'Rename the parameter.',
    };
  }
  return null;
}

/**
 * Text shown to people on approval and to models. Newlines and tabs are fine in a description;
 * other C0/C1 controls, DEL and bidi embedding/override/isolate controls (Trojan Source: they make
 * an approval dialog display something other than what the model reads) are rejected, not stripped,
 * so what was registered is exactly what is hashed and shown.
 */
function checkText(text: string, path: string, options: { maxBytes: number; allowNewlines: boolean }): HostError | null {
  if (text.length > options.maxBytes || utf8ByteLength(text) > options.maxBytes) {
    return {
      code: 'INVALID_INPUT',
      message: `${path.slice(1)} is ${utf8ByteLength(text)} bytes; the limit is ${options.maxBytes}`,
      path,
      hint: 'Keep the description short; put details in parameter descriptions.',
    };
  }
  const forbidden = options.allowNewlines
    ? // eslint-disable-next-line no-control-regex -- matching control characters is the point
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/
    : // eslint-disable-next-line no-control-regex -- matching control characters is the point
      /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
  const match = forbidden.exec(text);
  if (match) {
    const cp = (match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return {
      code: 'INVALID_INPUT',
      message: `${path.slice(1)} contains control character U+${cp} at index ${match.index}`,
      path,
    };
  }
  return null;
}

function checkCache(value: unknown, limits: RegistryLimits): Result<{ ttl_ms: number; max_entries: number }> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return err('INVALID_INPUT', 'cache must be an object { ttl_ms, max_entries }', { path: '/cache' });
  }
  const { ttl_ms: ttl, max_entries: entries } = value as Record<string, unknown>;
  if (!isPositiveInt(ttl) || ttl > limits.maxCacheTtlMs) {
    return err('INVALID_INPUT', `cache.ttl_ms must be a whole number from 1 to ${limits.maxCacheTtlMs}`, {
      path: '/cache/ttl_ms',
    });
  }
  if (!isPositiveInt(entries) || entries > limits.maxCacheEntries) {
    return err('INVALID_INPUT', `cache.max_entries must be a whole number from 1 to ${limits.maxCacheEntries}`, {
      path: '/cache/max_entries',
    });
  }
  return ok({ ttl_ms: ttl, max_entries: entries });
}

function isPositiveInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** The registration's own copy, deep-frozen so ToolInfo consumers cannot mutate it (Ajv keeps its own). */
function cloneSchema(schema: JsonSchema): JsonSchema {
  return deepFreeze(JSON.parse(JSON.stringify(schema)) as JsonSchema);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
