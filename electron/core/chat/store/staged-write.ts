// A long session written or dropped in steps, so neither holds the host's thread: inserting 10,000 messages at
// once held it 0.5–1 s, deleting them 140 ms (the search index is most of it). A written one gets its row first,
// pending (nothing lists or reads it), then its messages a step at a time, each step a short transaction of its
// own with the thread free between, then the mark is lifted in one last transaction. A dropped one is made pending
// at once (gone for every reader), then its messages go a step at a time, then its row. A kill midway leaves a
// pending row, which the next start drops; a failed write drops it at once.
import { HostFailure } from '../../../../shared/errors';
import type { ChatSession } from '../../../../shared/types/chat';
import { deepFreeze } from './session-drafts';
import type { LoadedSession, SessionRows } from './session-rows';

/**
 * A step ends after this many messages or milliseconds, whichever comes first (the time is the transport's: a
 * message of a megabyte is a step of its own, a short one shares it with 49 more).
 */
export const STEP = { messages: 50, ms: 1 } as const;
/** A session is long when its messages are more than a step's, or their text more than this. */
const LONG_CHARS = 16 * 1024;
/** Messages deleted per statement within a step (a message's trigrams leave the index at about 1 ms a message). */
const DELETE_BATCH = 1;

/**
 * A pending row not renewed for this long is a kill's leftover, which a start drops. A writer renews it at every
 * step, so a second store opened meanwhile (the command line beside the app) leaves a write under way alone.
 */
export const PENDING_LEASE_MS = 60_000;

/** A write or drop in steps met a closing store. */
export function shutDown(title?: string): never {
  throw new HostFailure({ code: 'HOST_SHUTDOWN', message: title === undefined ? 'The app is closing.' : `The app closed before the session "${title}" was written; it was not kept.` });
}

export interface StepHooks {
  /** Runs one step as a transaction (the store's guard turns SQLite's failures into its own). */
  transaction<T>(work: () => T): T;
  /** Between steps: false when the write is to stop (the store closed). */
  pause(): Promise<boolean>;
  now(): number;
}

/** Whether a session is long enough to be written in steps. */
export function writtenInSteps(session: ChatSession): boolean {
  return session.messages.length > STEP.messages || session.messages.reduce((n, m) => n + m.content.length, 0) > LONG_CHARS;
}

/** Writes the new session in steps; null when it stopped (the store closed) and the pending row is left for the next start. */
export async function writeInSteps(rows: SessionRows, session: ChatSession, hooks: StepHooks): Promise<LoadedSession | null> {
  const loaded = hooks.transaction(() => rows.stage(session, hooks.now()));
  const { messages } = session;
  try {
    for (let next = 0; next < messages.length; ) {
      next = hooks.transaction(() => {
        const ends = stepEnds(next);
        let at = next;
        // Frozen as they are written: the store keeps what it hands out frozen, and 10,000 at the end held 3–5 ms.
        do rows.append(loaded, [deepFreeze(messages[at++]!)]);
        while (at < messages.length && !ends(at));
        rows.renew(session.id, hooks.now());
        return at;
      });
      if (!(await hooks.pause())) return null;
    }
    // Gone meanwhile (dropped by hand, or by a start that took it for a leftover): nothing was written.
    if (!hooks.transaction(() => rows.publish(session.id))) throw new HostFailure({ code: 'CONFLICT', message: `The session "${session.title}" was removed while it was being written.`, path: '/sessionId' });
    return loaded;
  } catch (err) {
    // Whatever holds the id now is not this write's to drop.
    if (err instanceof HostFailure && err.error.code === 'CONFLICT') throw err;
    try {
      hooks.transaction(() => rows.drop(session.id));
    } catch {
      // Left pending: the next start drops it.
    }
    throw err;
  }
}

/** Drops the session in steps; false when it stopped (the store closed) and the pending row is left for the next start. */
export async function dropInSteps(rows: SessionRows, id: string, hooks: StepHooks): Promise<boolean> {
  for (let more = true; more; ) {
    more = hooks.transaction(() => {
      const ends = stepEnds(0);
      rows.renew(id, hooks.now());
      for (let removed = 0; ; ) {
        const now = rows.removeSome(id, DELETE_BATCH);
        removed += now;
        if (now < DELETE_BATCH) return false;
        if (ends(removed)) return true;
      }
    });
    if (more && !(await hooks.pause())) return false;
  }
  hooks.transaction(() => rows.drop(id));
  return true;
}

/** Whether a step that began at message `first` ends before message `at`: STEP's count reached, or its time. */
function stepEnds(first: number): (at: number) => boolean {
  const started = performance.now();
  return (at) => at - first >= STEP.messages || performance.now() - started >= STEP.ms;
}
