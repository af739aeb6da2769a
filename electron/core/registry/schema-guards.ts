// Checks a tool's JSON Schema for size, depth, remote references, unsafe regexes and quadratic uniqueItems BEFORE Ajv sees it.
//
// Ajv overflows the stack compiling a 1 000-level schema, and would resolve `$ref`s through a loader
// if one were configured. Nothing here fetches or compiles anything; it only walks plain data.
import type { HostError } from '../../../shared/errors';
import { utf8ByteLength } from '../../../shared/protocol/limits';
import { checkJsonBudget, escapePointer } from '../../../shared/json-budget';
import { checkPattern } from './linear-regex';
import { MAX_UNIQUE_NONSCALAR_ITEMS, unboundedUniqueItems } from './unique-items';

export interface SchemaGuardLimits {
  maxSchemaBytes: number;
  maxSchemaDepth: number;
}

/** Returns null when the schema may be handed to Ajv. `where` is the DTO path, e.g. `/parameters`. */
export function guardSchema(schema: unknown, where: string, limits: SchemaGuardLimits): HostError | null {
  const budget = checkJsonBudget(schema, { maxBytes: limits.maxSchemaBytes, maxDepth: limits.maxSchemaDepth });
  if (budget) {
    const path = `${where}${budget.path}`;
    switch (budget.reason) {
      case 'too-deep':
        return invalid(`${where} nests deeper than ${limits.maxSchemaDepth} levels`, path, 'Flatten the schema or use local $ref definitions.');
      case 'too-large':
        return invalid(`${where} is larger than ${formatKb(limits.maxSchemaBytes)}`, where, 'Shorten descriptions or split the tool.');
      case 'not-json':
        return invalid(`${path} is not plain JSON (${budget.detail})`, path);
    }
  }
  const bytes = utf8ByteLength(JSON.stringify(schema));
  if (bytes > limits.maxSchemaBytes) {
    return invalid(`${where} is ${bytes} bytes; the limit is ${formatKb(limits.maxSchemaBytes)}`, where);
  }
  return walkKeywords(schema, where);
}

/**
 * Visits every object in the schema. Keyword positions are not tracked: a data value that happens to
 * hold a `$ref` or `pattern` key (inside `default`, `enum`, …) is checked too. Skipping by key name
 * would let `properties: { enum: { $ref: 'https://…' } }` through, so we accept the false positive.
 */
function walkKeywords(schema: unknown, where: string): HostError | null {
  const stack: Array<{ node: unknown; path: string }> = [{ node: schema, path: where }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: unknown; path: string };
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push({ node: child, path: `${path}/${i}` }));
      continue;
    }
    const record = node as Record<string, unknown>;
    if (unboundedUniqueItems(record)) {
      return invalid(
        `${path}/uniqueItems over items that may be objects or arrays needs maxItems ≤ ${MAX_UNIQUE_NONSCALAR_ITEMS} (each pair would be compared on the host)`,
        `${path}/uniqueItems`,
        `Add "maxItems": ${MAX_UNIQUE_NONSCALAR_ITEMS} or less, give the items a scalar type, or drop uniqueItems and check duplicates in the tool.`,
      );
    }
    for (const key of Object.keys(record)) {
      const value = record[key];
      const childPath = `${path}/${escapePointer(key)}`;
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        return invalid(
          `${childPath} must be a local "#..." reference; remote and relative references are never fetched`,
          childPath,
          'Inline the referenced schema or move it under "definitions" and point at it with "#/definitions/...".',
        );
      }
      if (key === 'pattern' && typeof value === 'string') {
        const problem = patternProblem(value, childPath);
        if (problem) return problem;
      }
      if (key === 'patternProperties' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const regex of Object.keys(value)) {
          const problem = patternProblem(regex, `${childPath}/${escapePointer(regex)}`);
          if (problem) return problem;
        }
      }
      stack.push({ node: value, path: childPath });
    }
  }
  return null;
}

function patternProblem(pattern: string, path: string): HostError | null {
  const verdict = checkPattern(pattern);
  if (verdict.ok) return null;
  return invalid(`${path} ${verdict.reason ?? 'is not allowed'}`, path, verdict.hint);
}

function invalid(message: string, path: string, hint?: string): HostError {
  const error: HostError = { code: 'INVALID_SCHEMA', message, path };
  if (hint) error.hint = hint;
  return error;
}

function formatKb(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}
