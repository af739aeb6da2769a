// A small line diff (approval previews, the prompt breakdown): common prefix/suffix trimmed, LCS on the middle, unified output.

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Above this many cells the middle is shown as a whole replacement instead of an LCS diff. */
const MAX_LCS_CELLS = 4_000_000;
const CONTEXT = 3;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function diffOps(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((line) => ({ kind: ' ', line }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_LCS_CELLS) {
    for (const line of midA) ops.push({ kind: '-', line });
    for (const line of midB) ops.push({ kind: '+', line });
  } else {
    ops.push(...lcsOps(midA, midB));
  }
  for (const line of a.slice(endA)) ops.push({ kind: ' ', line });
  return ops;
}

function lcsOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  // lengths[i][j] = LCS of a[i..] and b[j..], in one flat array.
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      ops.push({ kind: '-', line: a[i++]! });
    } else {
      ops.push({ kind: '+', line: b[j++]! });
    }
  }
  while (i < n) ops.push({ kind: '-', line: a[i++]! });
  while (j < m) ops.push({ kind: '+', line: b[j++]! });
  return ops;
}

/** Unified diff of two texts (`--- a/<path>`, `+++ b/<path>`, hunks with 3 lines of context); "" when equal. */
export function unifiedDiff(path: string, before: string, after: string, options: { created?: boolean } = {}): string {
  if (before === after) return '';
  const ops = diffOps(splitLines(before), splitLines(after));
  const changed = ops.map((op, index) => (op.kind === ' ' ? -1 : index)).filter((index) => index >= 0);
  const out = [options.created ? '--- /dev/null' : `--- a/${path}`, `+++ b/${path}`];
  if (changed.length === 0) {
    // Only a trailing newline differs.
    out.push('@@ end of file @@', '\\ trailing newline changed');
    return `${out.join('\n')}\n`;
  }
  let k = 0;
  while (k < changed.length) {
    const from = Math.max(0, changed[k]! - CONTEXT);
    let to = changed[k]! + CONTEXT;
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= to + 1) to = changed[++k]! + CONTEXT;
    k++;
    to = Math.min(ops.length - 1, to);
    // Line numbers: count old/new lines before `from`.
    let oldLine = 1;
    let newLine = 1;
    for (let x = 0; x < from; x++) {
      if (ops[x]!.kind !== '+') oldLine++;
      if (ops[x]!.kind !== '-') newLine++;
    }
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    for (let x = from; x <= to; x++) {
      const op = ops[x]!;
      body.push(`${op.kind}${op.line}`);
      if (op.kind !== '+') oldCount++;
      if (op.kind !== '-') newCount++;
    }
    out.push(`@@ -${oldCount === 0 ? oldLine - 1 : oldLine},${oldCount} +${newCount === 0 ? newLine - 1 : newLine},${newCount} @@`, ...body);
  }
  return `${out.join('\n')}\n`;
}
