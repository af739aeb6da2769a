// `uniqueItems` costs a hash pass when the items are scalars, but Ajv compares every pair of items when they can
// be objects or arrays: 50,000 objects are over a billion deep comparisons on the host thread. So uniqueItems
// over items that are not all scalars needs a small maxItems; MCP tools, whose schemas we do not control, lose
// the keyword (with a note) instead of the tool.

/** The most items a non-scalar uniqueItems array may hold (≈5,000 pair comparisons). */
export const MAX_UNIQUE_NONSCALAR_ITEMS = 100;

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function scalarItems(items: unknown): boolean {
  if (typeof items !== 'object' || items === null || Array.isArray(items)) return false;
  const { type, enum: choices, const: constant } = items as { type?: unknown; enum?: unknown; const?: unknown };
  if (typeof type === 'string') return SCALAR_TYPES.has(type);
  if (Array.isArray(type) && type.length > 0) return type.every((t) => typeof t === 'string' && SCALAR_TYPES.has(t));
  if (Array.isArray(choices)) return choices.every((c) => typeof c !== 'object' || c === null);
  return constant !== undefined && (typeof constant !== 'object' || constant === null);
}

/** True when this schema node's uniqueItems could compare unbounded non-scalar items pairwise. */
export function unboundedUniqueItems(node: Record<string, unknown>): boolean {
  if (node.uniqueItems !== true) return false;
  if (scalarItems(node.items)) return false;
  return !(typeof node.maxItems === 'number' && node.maxItems <= MAX_UNIQUE_NONSCALAR_ITEMS);
}

/** A copy of the schema without unbounded non-scalar uniqueItems, and the JSON pointers where it was removed. */
export function stripUnboundedUniqueItems(schema: unknown, where = ''): { schema: unknown; stripped: string[] } {
  const stripped: string[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((child, i) => walk(child, `${path}/${i}`));
    if (typeof node !== 'object' || node === null) return node;
    const record = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (key === 'uniqueItems' && unboundedUniqueItems(record)) {
        stripped.push(`${path}/uniqueItems`);
        continue;
      }
      out[key] = walk(value, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
    return out;
  };
  return { schema: walk(schema, where), stripped };
}
