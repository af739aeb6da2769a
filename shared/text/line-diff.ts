// Unified diffs of two texts (approval previews, the prompt breakdown), made by jsdiff.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch } from 'diff';

const CONTEXT = 3;
/** Past this many changed lines jsdiff gives up, and the changed middle is shown replaced as a whole. */
const MAX_EDIT_LENGTH = 1_000;
const NO_NEWLINE = '\\ No newline at end of file';

function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

/**
 * One hunk: the lines both texts start and end with stay as context (three each side), the middle between them
 * is removed and added whole. jsdiff's convention: a side with no lines starts at the line before it.
 */
function middleReplaced(oldFileName: string, newFileName: string, before: string, after: string): StructuredPatch {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const from = Math.max(0, start - CONTEXT);
  const tail = Math.min(CONTEXT, a.length - endA);
  const body = [...a.slice(from, start).map((l) => ` ${l}`)];
  const removed = a.slice(start, endA).map((l) => `-${l}`);
  const added = b.slice(start, endB).map((l) => `+${l}`);
  // A side whose last line is in the middle and has no newline says so, as diff does.
  if (removed.length && endA === a.length && !before.endsWith('\n')) removed.push(NO_NEWLINE);
  if (added.length && endB === b.length && !after.endsWith('\n')) added.push(NO_NEWLINE);
  body.push(...removed, ...added, ...a.slice(endA, endA + tail).map((l) => ` ${l}`));
  const oldLines = endA - from + tail;
  const newLines = endB - from + tail;
  return {
    oldFileName,
    newFileName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [{ oldStart: from + 1, oldLines, newStart: from + 1, newLines, lines: body }],
  };
}

/** Unified diff (`--- a/<path>`, `+++ b/<path>`, hunks with 3 lines of context); "" when equal. */
export function unifiedDiff(path: string, before: string, after: string, options: { created?: boolean } = {}): string {
  if (before === after) return '';
  const oldFileName = options.created ? '/dev/null' : `a/${path}`;
  const newFileName = `b/${path}`;
  const patch =
    structuredPatch(oldFileName, newFileName, before, after, undefined, undefined, { context: CONTEXT, maxEditLength: MAX_EDIT_LENGTH }) ??
    middleReplaced(oldFileName, newFileName, before, after);
  return formatPatch(patch, FILE_HEADERS_ONLY);
}
