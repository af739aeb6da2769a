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
  const at = new Map<ChatMessage, number>();
  old.forEach((m, i) => at.set(m, i));
  // Kept: the same object, in the same relative order (a greedy increasing run of old positions).
  const kept: Array<number | undefined> = new Array(next.length);
  const used = new Set<number>();
  let last = -1;
  next.forEach((m, i) => {
    const j = at.get(m);
    if (j !== undefined && j > last && !used.has(j)) {
      kept[i] = j;
      used.add(j);
      last = j;
    }
  });
  // A new object for a message id saved before rewrites that row (an edit), the rest are inserted.
  const reusable = new Map<string, number>();
  old.forEach((m, j) => {
    if (!used.has(j) && !reusable.has(m.id)) reusable.set(m.id, j);
  });
  const seqs = orderKeys(
    next.map((_, i) => (kept[i] === undefined ? undefined : oldRefs[kept[i]!]!.seq)),
  );
  const writes: RowPlan['writes'] = [];
  const moves: RowPlan['moves'] = [];
  const refs: RowRef[] = [];
  next.forEach((m, i) => {
    const j = kept[i];
    if (j !== undefined) {
      const ref = oldRefs[j]!;
      if (seqs[i] !== ref.seq) moves.push({ index: i, rowid: ref.rowid, seq: seqs[i]! });
      refs.push({ rowid: ref.rowid, seq: seqs[i]! });
      return;
    }
    const reuse = reusable.get(m.id);
    if (reuse !== undefined) reusable.delete(m.id);
    const rowid = reuse === undefined ? null : oldRefs[reuse]!.rowid;
    if (reuse !== undefined) used.add(reuse);
    writes.push({ index: i, rowid, seq: seqs[i]! });
    refs.push({ rowid: rowid ?? -1, seq: seqs[i]! });
  });
  const deletes = oldRefs.filter((_, j) => !used.has(j)).map((r) => r.rowid);
  return { deletes, writes, moves, refs };
}

/** Order keys for a list where some keep theirs (increasing) and the rest need one between their neighbours. */
function orderKeys(keptSeqs: ReadonlyArray<number | undefined>): number[] {
  const out: number[] = [];
  let i = 0;
  let prev = 0;
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
    const bound = end < keptSeqs.length ? keptSeqs[end]! : prev + SEQ_STEP * (run + 1);
    // No room between two kept neighbours: every message takes a fresh key.
    if (bound - prev <= run) return keptSeqs.map((_, k) => (k + 1) * SEQ_STEP);
    for (let k = 1; k <= run; k++) out.push(prev + Math.floor(((bound - prev) * k) / (run + 1)));
    prev = out[out.length - 1]!;
    i = end;
  }
  return out;
}
