// Unified diffs of two texts (approval previews, the prompt breakdown), made by jsdiff.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch, type StructuredPatch } from 'diff';

const CONTEXT = 3;
/** Past this many changed lines jsdiff gives up and the change is shown as the whole text replaced. */
const MAX_EDIT_LENGTH = 1_000;

function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

function wholeReplacement(oldFileName: string, newFileName: string, before: string, after: string): StructuredPatch {
  const removed = lines(before);
  const added = lines(after);
  return {
    oldFileName,
    newFileName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [
      {
        oldStart: removed.length ? 1 : 0,
        oldLines: removed.length,
        newStart: added.length ? 1 : 0,
        newLines: added.length,
        lines: [...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)],
      },
    ],
  };
}

/** Unified diff (`--- a/<path>`, `+++ b/<path>`, hunks with 3 lines of context); "" when equal. */
export function unifiedDiff(path: string, before: string, after: string, options: { created?: boolean } = {}): string {
  if (before === after) return '';
  const oldFileName = options.created ? '/dev/null' : `a/${path}`;
  const newFileName = `b/${path}`;
  const patch =
    structuredPatch(oldFileName, newFileName, before, after, undefined, undefined, { context: CONTEXT, maxEditLength: MAX_EDIT_LENGTH }) ??
    wholeReplacement(oldFileName, newFileName, before, after);
  return formatPatch(patch, FILE_HEADERS_ONLY);
}
