// JSON.parse that refuses an object with the same key twice (JSON.parse silently keeps the last one).
//
// A manifest that says `"permissions"` twice is ambiguous: which one did its author mean, and which one
// will the person installing it read? The scan walks the text once, tracking the keys of each open
// object; JSON.parse still does the parsing (and reports syntax errors).

export class DuplicateKeyError extends Error {
  constructor(
    readonly key: string,
    /** JSON-pointer-like path of the object holding it, e.g. `` (the root) or `/storage_seed_files/0`. */
    readonly at: string,
  ) {
    super(`The key "${key}" appears twice${at ? ` in ${at}` : ''}.`);
  }
}

export function parseStrictJson(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  findDuplicateKey(text);
  return value;
}

interface Frame {
  kind: 'object' | 'array';
  keys: Set<string>;
  /** The key (object) or index (array) of the child being read, for the path. */
  current: string;
  index: number;
  expectKey: boolean;
}

/** Throws DuplicateKeyError for the first repeated key. Assumes `text` is valid JSON. */
function findDuplicateKey(text: string): void {
  const stack: Frame[] = [];
  const pathOf = () =>
    stack
      .slice(0, -1)
      .map((frame) => `/${frame.kind === 'array' ? frame.index : frame.current}`)
      .join('');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      let raw = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') {
          raw += text.slice(j, j + 2);
          j += 2;
          continue;
        }
        raw += text[j];
        j++;
      }
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectKey) {
        const key = JSON.parse(`"${raw}"`) as string;
        if (top.keys.has(key)) throw new DuplicateKeyError(key, pathOf());
        top.keys.add(key);
        top.current = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === '{' || c === '[') {
      stack.push({ kind: c === '{' ? 'object' : 'array', keys: new Set(), current: '', index: 0, expectKey: c === '{' });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectKey = true;
      else if (top) top.index++;
    }
  }
}
