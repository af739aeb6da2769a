// Walks a value as JSON without serializing it and stops as soon as it is too big, too deep or not JSON.
//
// Serializing a 10 MB object only to learn it is too big costs the host the very time the cap is
// meant to protect, and JSON.stringify itself overflows the stack on deep or cyclic input. The walk
// counts a lower bound of the UTF-8 size (every UTF-16 unit is at least one byte), so stopping
// early is always right; callers that need the exact size serialize afterwards, when it is cheap.

export interface JsonBudget {
  maxBytes: number;
  /** Containers (objects/arrays) nested inside each other; the root container is depth 1. */
  maxDepth: number;
}

export type BudgetFailure =
  | { reason: 'too-large'; path: string }
  | { reason: 'too-deep'; path: string }
  | { reason: 'not-json'; path: string; detail: string };

interface Frame {
  /** The container holding this value (null for the root); values are read only when popped. */
  holder: Record<string, unknown> | null;
  key: string;
  depth: number;
  parent: Frame | null;
}

/**
 * Returns null when the value is plain JSON within the budget (and, given `measured`, its size there). Cycles surface
 * as too-deep. Members are read lazily, one at a time, so an oversized first member stops the walk before the rest is read.
 */
export function checkJsonBudget(root: unknown, budget: JsonBudget, measured?: { bytes: number }): BudgetFailure | null {
  let bytes = 0;
  const stack: Frame[] = [{ holder: null, key: '', depth: 0, parent: null }];
  try {
    while (stack.length > 0) {
      const frame = stack.pop() as Frame;
      const value = frame.holder === null ? root : frame.holder[frame.key];
      switch (typeof value) {
        case 'string':
          bytes += value.length + 2;
          break;
        case 'number':
          if (!Number.isFinite(value)) return notJson(frame, 'a non-finite number');
          bytes += 1;
          break;
        case 'boolean':
          bytes += 4;
          break;
        case 'undefined':
          // JSON drops undefined object members and writes null in arrays; neither is an error.
          break;
        case 'object': {
          if (value === null) {
            bytes += 4;
            break;
          }
          const depth = frame.depth + 1;
          if (depth > budget.maxDepth) return { reason: 'too-deep', path: pathOf(frame) };
          if (Array.isArray(value)) {
            bytes += 2 + Math.max(0, value.length - 1);
            if (bytes > budget.maxBytes) return { reason: 'too-large', path: pathOf(frame) };
            const holder = value as unknown as Record<string, unknown>;
            for (let i = value.length - 1; i >= 0; i--) stack.push({ holder, key: String(i), depth, parent: frame });
            break;
          }
          const proto = Object.getPrototypeOf(value);
          if (proto !== Object.prototype && proto !== null) return notJson(frame, 'an object that is not plain JSON');
          bytes += 2;
          const holder = value as Record<string, unknown>;
          for (const key of Object.keys(holder)) {
            bytes += key.length + 4;
            if (bytes > budget.maxBytes) return { reason: 'too-large', path: pathOf(frame) };
            stack.push({ holder, key, depth, parent: frame });
          }
          break;
        }
        default:
          return notJson(frame, `a ${typeof value}`);
      }
      if (bytes > budget.maxBytes) return { reason: 'too-large', path: pathOf(frame) };
    }
  } catch {
    // A throwing getter or proxy trap: whatever it is, it is not plain JSON.
    return { reason: 'not-json', path: '', detail: 'a value that could not be read' };
  }
  if (measured) measured.bytes = bytes;
  return null;
}

function notJson(frame: Frame, detail: string): BudgetFailure {
  return { reason: 'not-json', path: pathOf(frame), detail };
}

/** JSON Pointer of a frame; built only on failure so the happy path allocates no strings. */
function pathOf(frame: Frame): string {
  const parts: string[] = [];
  for (let f: Frame | null = frame; f && f.holder !== null; f = f.parent) parts.push(escapePointer(f.key));
  return parts.length === 0 ? '' : `/${parts.reverse().join('/')}`;
}

export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

