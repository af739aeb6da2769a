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
  // Each chat read once: its head names the next step's parent.
  let head = headOf(id);
  for (let step = 0; step < MAX_BRANCH_DEPTH; step++) {
    const parent = head?.metadata?.branched_from;
    if (typeof parent !== 'string') break;
    // Every chat of a loop names the same one (the least id), so they list as one character's.
    if (seen.has(parent)) return path.slice(path.indexOf(parent)).sort()[0]!;
    head = headOf(parent);
    if (!head) break;
    seen.add(parent);
    path.push(parent);
  }
  return path[path.length - 1]!;
}

/** A saved session's head by id, or null: what branchRoot reads. */
export const sessionHeads = (sessions: { has(id: string): boolean; head(id: string): { metadata?: Record<string, unknown> } }) => (id: string) => (sessions.has(id) ? sessions.head(id) : null);

/** The metadata fields that say where a branch came from, which only the host writes. */
const LINE_FIELDS = ['branched_from', 'branch_at_message'] as const;

/** Those fields of a chat's metadata, as they are. */
export const lineOf = (metadata: Record<string, unknown> | undefined): Record<string, unknown> =>
  Object.fromEntries(LINE_FIELDS.filter((key) => metadata && Object.hasOwn(metadata, key)).map((key) => [key, metadata![key]]));

/** The metadata without them (an extension's write, which cannot move a chat to another line or out of its own). */
export const withoutLine = (metadata: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(metadata).filter(([key]) => !(LINE_FIELDS as readonly string[]).includes(key)));
