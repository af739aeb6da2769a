// Compiles a tool's JSON Schema once, with one Ajv instance per source so `$id`s never clash across sources.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Result } from '../../../shared/errors';
import type { JsonSchema } from '../../../shared/types/spindle';
import { DEFAULT_REGISTRY_LIMITS } from './limits';
import { err, ok } from './result';
import { linearRegExp } from './linear-regex';
import { guardSchema, type SchemaGuardLimits } from './schema-guards';

export interface CompiledSchema {
  /** Ajv's private copy; release() needs the same object to drop Ajv's cache entry. */
  readonly schema: JsonSchema;
  readonly validate: ValidateFunction;
}

export interface CompileOptions {
  /** DTO path used in messages, e.g. `/parameters`. */
  where: string;
  /** Tool inputs must be `type: 'object'` (MCP § Tools, provider function-calling APIs). */
  requireObjectRoot: boolean;
}

// Checking a schema against the JSON Schema meta-schema compiles that meta-schema first (tens of ms): one checker
// for every source does it once per process, not once per extension.
let metaChecker: Ajv | undefined;
const checker = (): Ajv => (metaChecker ??= new Ajv({ strict: false, allErrors: false, logger: false }));

export interface CompilerOptions {
  /**
   * The app's own (builtin) schemas: guarded, checked and compiled when first used. A command that never
   * calls them (the CLI's `status`) does not pay ~10 ms a schema; their tests put every one through it all.
   */
  deferCompile?: boolean;
}

export class SchemaCompiler {
  private ajvInstance: Ajv | undefined;
  private readonly limits: SchemaGuardLimits;
  private readonly deferCompile: boolean;

  constructor(limits: SchemaGuardLimits = DEFAULT_REGISTRY_LIMITS, options: CompilerOptions = {}) {
    this.limits = limits;
    this.deferCompile = options.deferCompile === true;
  }

  /** Made at the first compile: the builtin sources' compilers (deferred) make none in a command that calls no tool. */
  private get ajv(): Ajv {
    return (this.ajvInstance ??= new Ajv({
      strict: false,
      allErrors: false,
      // Every pattern runs on a linear-time engine (linear-regex.ts).
      // No optimisation pass: it doubles the compile time a start waits for, for validators that run once a call.
      code: { regExp: linearRegExp, optimize: false },
      // Compiled tool schemas are not added by $id, so re-registering a tool with the same $id works.
      addUsedSchema: false,
      // No loadSchema: a `$ref` Ajv cannot resolve locally is a compile error, never a fetch.
      logger: false,
      // Checked against the meta-schema by the shared checker before compiling; so this one needs no meta-schema
      // of its own (adding it costs a few ms for every source).
      validateSchema: false,
      meta: false,
    }));
  }

  compile(schema: unknown, options: CompileOptions): Result<CompiledSchema> {
    const { where } = options;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return err('INVALID_SCHEMA', `${where} must be a JSON Schema object, got ${describeKind(schema)}`, {
        path: where,
        hint: 'Pass an object like { "type": "object", "properties": { ... } }.',
      });
    }
    // A stranger's schema is guarded (size, depth, patterns) before anything walks it, the copy below included.
    if (!this.deferCompile) {
      const guarded = guardSchema(schema, where, this.limits);
      if (guarded) return { ok: false, error: guarded };
    }
    // A JSON round trip gives Ajv a private copy the source can no longer mutate; `__proto__` keys
    // survive as plain own properties (JSON.parse defines, it never assigns through the prototype).
    const copy = JSON.parse(JSON.stringify(schema)) as JsonSchema;
    if (this.deferCompile) return ok({ schema: copy, validate: this.compileOnFirstUse(copy, options) });
    const validate = this.checkAndCompile(copy, options);
    return validate.ok ? ok({ schema: copy, validate: validate.value }) : validate;
  }

  /** After the guards: the meta-schema, the object root, then Ajv. */
  private checkAndCompile(copy: JsonSchema, options: CompileOptions): Result<ValidateFunction> {
    const { where } = options;
    let metaValid: boolean;
    try {
      metaValid = checker().validateSchema(copy) as boolean;
    } catch (error) {
      return err('INVALID_SCHEMA', `${where} is not a usable JSON Schema: ${errorText(error)}`, {
        path: where,
        hint: 'Remove "$schema" or use draft-07 keywords.',
      });
    }
    if (!metaValid) {
      const first = checker().errors?.[0];
      const path = `${where}${first?.instancePath ?? ''}`;
      return err('INVALID_SCHEMA', `${path} ${describeMetaError(first)}`, { path });
    }
    if (options.requireObjectRoot && copy.type !== 'object') {
      return err('INVALID_SCHEMA', `${where}/type must be "object"`, {
        path: `${where}/type`,
        hint: 'Tool inputs are always an object of named arguments; use { "type": "object", "properties": {} } for none.',
      });
    }
    try {
      return ok(this.ajv.compile(copy));
    } catch (error) {
      this.ajv.removeSchema(copy);
      return err('INVALID_SCHEMA', `${where} does not compile: ${errorText(error)}`, { path: where });
    }
  }

  /** A validator that runs every check when first called; a builtin schema that fails one is the app's bug. */
  private compileOnFirstUse(copy: JsonSchema, options: CompileOptions): ValidateFunction {
    let compiled: ValidateFunction | undefined;
    const validate = (value: unknown) => {
      if (!compiled) {
        const guarded = guardSchema(copy, options.where, this.limits);
        if (guarded) throw new Error(`builtin schema: ${guarded.message}`);
        const checked = this.checkAndCompile(copy, options);
        if (!checked.ok) throw new Error(`builtin schema: ${checked.error.message}`);
        compiled = checked.value;
      }
      return compiled(value);
    };
    return Object.defineProperty(validate, 'errors', { get: () => compiled?.errors }) as unknown as ValidateFunction;
  }

  /** Drops Ajv's cached compilation; call when a tool is replaced or unregistered. */
  release(compiled: CompiledSchema): void {
    this.ajvInstance?.removeSchema(compiled.schema);
  }
}

function describeMetaError(error: ErrorObject | undefined): string {
  if (!error) return 'is not a valid JSON Schema';
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  const suffix = Array.isArray(allowed) ? `: ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return `${error.message ?? 'is invalid'}${suffix} (${error.keyword})`;
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
