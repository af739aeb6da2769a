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
  // Most changes keep the same objects at both ends (a message added, one edited): those are matched by position,
  // so a change to a long chat costs pointer comparisons, and only the middle is matched through a map.
  const shorter = Math.min(old.length, next.length);
  let head = 0;
  while (head < shorter && old[head] === next[head]) head++;
  let tail = 0;
  while (tail < shorter - head && old[old.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
  const kept: Array<number | undefined> = new Array(next.length);
  const used = new Uint8Array(old.length);
  const keep = (i: number, j: number) => {
    kept[i] = j;
    used[j] = 1;
  };
  for (let i = 0; i < head; i++) keep(i, i);
  for (let k = 1; k <= tail; k++) keep(next.length - k, old.length - k);
  // The middle: the same object, in the same relative order (a greedy increasing run of old positions).
  const at = new Map<ChatMessage, number>();
  for (let j = head; j < old.length - tail; j++) at.set(old[j]!, j);
  let last = head - 1;
  for (let i = head; i < next.length - tail; i++) {
    const j = at.get(next[i]!);
    if (j !== undefined && j > last && !used[j]) {
      keep(i, j);
      last = j;
    }
  }
  // A new object for a message id saved before rewrites that row (an edit), the rest are inserted.
  const reusable = new Map<string, number>();
  for (let j = head; j < old.length - tail; j++) if (!used[j] && !reusable.has(old[j]!.id)) reusable.set(old[j]!.id, j);
  const seqs = orderKeys(Array.from(kept, (j) => (j === undefined ? undefined : oldRefs[j]!.seq)));
  const writes: RowPlan['writes'] = [];
  const moves: RowPlan['moves'] = [];
  const refs: RowRef[] = new Array(next.length);
  for (let i = 0; i < next.length; i++) {
    const j = kept[i];
    if (j !== undefined) {
      const ref = oldRefs[j]!;
      if (seqs[i] !== ref.seq) moves.push({ index: i, rowid: ref.rowid, seq: seqs[i]! });
      refs[i] = seqs[i] === ref.seq ? ref : { rowid: ref.rowid, seq: seqs[i]! };
      continue;
    }
    const reuse = reusable.get(next[i]!.id);
    if (reuse !== undefined) {
      reusable.delete(next[i]!.id);
      used[reuse] = 1;
    }
    const rowid = reuse === undefined ? null : oldRefs[reuse]!.rowid;
    writes.push({ index: i, rowid, seq: seqs[i]! });
    refs[i] = { rowid: rowid ?? -1, seq: seqs[i]! };
  }
  const deletes: number[] = [];
  for (let j = head; j < old.length - tail; j++) if (!used[j]) deletes.push(oldRefs[j]!.rowid);
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
