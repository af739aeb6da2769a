// Which message rows a change writes. Saved messages are frozen values, so a message object the change kept is
// unchanged: only new objects are written, only dropped ones deleted, and the kept rows keep their order keys.
import type { ChatMessage } from '../../../../shared/types/chat';

/** A message's row and its order key in the session. */
export interface RowRef {
  rowid: number;
  seq: number;
}

/** Gap between order keys, so messages inserted between two rarely renumber the rest. */
export const SEQ_STEP = 1024;

export interface RowPlan {
  /** Rows whose message is gone. */
  deletes: number[];
  /** New message objects: a row to rewrite (the same message id was saved before) or null for a new row. */
  writes: Array<{ index: number; rowid: number | null; seq: number }>;
  /** Kept rows whose order key moves (only when a renumbering was needed). */
  moves: Array<{ index: number; rowid: number; seq: number }>;
  /** The row behind each message of `next`, new rows as -1 until they are inserted. */
  refs: RowRef[];
}

/** Plans writing `next` over the saved `old` (whose rows are `oldRefs`, in the same order). */
export function planRows(old: readonly ChatMessage[], oldRefs: readonly RowRef[], next: readonly ChatMessage[]): RowPlan {
  // Most changes keep the same objects at both ends (a message added, one edited): those keep their rows as they
  // are, found by pointer comparisons, and only the middle between them is planned (a long chat costs its change).
  const shorter = Math.min(old.length, next.length);
  let head = 0;
  while (head < shorter && old[head] === next[head]) head++;
  let tail = 0;
  while (tail < shorter - head && old[old.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
  const oldEnd = old.length - tail;
  const nextEnd = next.length - tail;
  // The middle: the same object, in the same relative order (a greedy increasing run of old positions).
  const kept: Array<number | undefined> = [];
  const used = new Set<number>();
  const at = new Map<ChatMessage, number>();
  for (let j = head; j < oldEnd; j++) at.set(old[j]!, j);
  let last = head - 1;
  for (let i = head; i < nextEnd; i++) {
    const j = at.get(next[i]!);
    const keep = j !== undefined && j > last && !used.has(j);
    kept.push(keep ? j : undefined);
    if (keep) {
      used.add(j);
      last = j;
    }
  }
  // A new object for a message id saved before rewrites that row (an edit), the rest are inserted.
  const reusable = new Map<string, number>();
  for (let j = head; j < oldEnd; j++) if (!used.has(j) && !reusable.has(old[j]!.id)) reusable.set(old[j]!.id, j);
  const keptSeqs = kept.map((j) => (j === undefined ? undefined : oldRefs[j]!.seq));
  const lower = head > 0 ? oldRefs[head - 1]!.seq : 0;
  const upper = tail > 0 ? oldRefs[oldEnd]!.seq : undefined;
  const middle = orderKeys(keptSeqs, lower, upper);
  // No room between two kept neighbours: every message takes a fresh key (rare: keys leave gaps of SEQ_STEP).
  const seqOf = middle ? (i: number) => (i < head ? oldRefs[i]!.seq : i < nextEnd ? middle[i - head]! : oldRefs[oldEnd + i - nextEnd]!.seq) : (i: number) => (i + 1) * SEQ_STEP;
  const writes: RowPlan['writes'] = [];
  const moves: RowPlan['moves'] = [];
  const refs: RowRef[] = middle ? oldRefs.slice(0, head) : [];
  const keepRow = (i: number, ref: RowRef) => {
    const seq = seqOf(i);
    if (seq !== ref.seq) moves.push({ index: i, rowid: ref.rowid, seq });
    refs.push(seq === ref.seq ? ref : { rowid: ref.rowid, seq });
  };
  if (!middle) for (let i = 0; i < head; i++) keepRow(i, oldRefs[i]!);
  for (let i = head; i < nextEnd; i++) {
    const j = kept[i - head];
    if (j !== undefined) {
      keepRow(i, oldRefs[j]!);
      continue;
    }
    const reuse = reusable.get(next[i]!.id);
    if (reuse !== undefined) {
      reusable.delete(next[i]!.id);
      used.add(reuse);
    }
    const rowid = reuse === undefined ? null : oldRefs[reuse]!.rowid;
    writes.push({ index: i, rowid, seq: seqOf(i) });
    refs.push({ rowid: rowid ?? -1, seq: seqOf(i) });
  }
  if (middle) refs.push(...oldRefs.slice(oldEnd));
  else for (let i = nextEnd; i < next.length; i++) keepRow(i, oldRefs[oldEnd + i - nextEnd]!);
  const deletes: number[] = [];
  for (let j = head; j < oldEnd; j++) if (!used.has(j)) deletes.push(oldRefs[j]!.rowid);
  return { deletes, writes, moves, refs };
}

/**
 * Order keys for a run where some keep theirs (increasing) and the rest need one between their neighbours, all
 * above `lower` and below `upper` (none: no bound); null when two neighbours leave no room.
 */
function orderKeys(keptSeqs: ReadonlyArray<number | undefined>, lower: number, upper: number | undefined): number[] | null {
  const out: number[] = [];
  let prev = lower;
  let i = 0;
  while (i < keptSeqs.length) {
    const seq = keptSeqs[i];
    if (seq !== undefined) {
      out.push(seq);
      prev = seq;
      i++;
      continue;
    }
    let end = i;
    while (end < keptSeqs.length && keptSeqs[end] === undefined) end++;
    const run = end - i;
    const bound = end < keptSeqs.length ? keptSeqs[end]! : (upper ?? prev + SEQ_STEP * (run + 1));
    if (bound - prev <= run) return null;
    for (let k = 1; k <= run; k++) out.push(prev + Math.floor(((bound - prev) * k) / (run + 1)));
    prev = out[out.length - 1]!;
    i = end;
  }
  return out;
}
