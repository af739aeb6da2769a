// Which line of branches a chat belongs to. A branch is a session of its own (a copy of its origin's character), but
// it stays its origin's character's chat, as a branch in Lumiverse does: extensions list them together, and the books
// attached to the origin's character are read in the branch too.
/** At most this many steps up a chain of branches (a chain longer than any person makes; a loop stops sooner). */
const MAX_BRANCH_DEPTH = 10_000;

/**
 * The session a branch was first made from: `branched_from` followed while the chat it names still exists. A chat
 * whose origin was deleted starts its own line.
 */
export function branchRoot(id: string, headOf: (id: string) => { metadata?: Record<string, unknown> } | null): string {
  const path = [id];
  const seen = new Set(path);
  for (let step = 0; step < MAX_BRANCH_DEPTH; step++) {
    const parent = headOf(path[path.length - 1]!)?.metadata?.branched_from;
    if (typeof parent !== 'string' || !headOf(parent)) break;
    // Every chat of a loop names the same one (the least id), so they list as one character's.
    if (seen.has(parent)) return path.slice(path.indexOf(parent)).sort()[0]!;
    seen.add(parent);
    path.push(parent);
  }
  return path[path.length - 1]!;
}

/** A saved session's head by id, or null: what branchRoot reads. */
export const sessionHeads = (sessions: { has(id: string): boolean; head(id: string): { metadata?: Record<string, unknown> } }) => (id: string) => (sessions.has(id) ? sessions.head(id) : null);
