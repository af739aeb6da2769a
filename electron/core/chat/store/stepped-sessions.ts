// The store's long writes and drops, taken in steps (staged-write.ts) with the host's thread free between them, one
// at a time per session id: a long session written (an import, a branch, a restore) over whatever the id held, and
// a deleted one hidden at once and dropped after.
import { HostFailure } from '../../../../shared/errors';
import type { ChatSession } from '../../../../shared/types/chat';
import { KeyedQueue } from '../../util/keyed-queue';
import { nextTurn } from '../../util/next-turn';
import type { LoadedSession, SessionRows } from './session-rows';
import { dropInSteps, PENDING_LEASE_MS, shutDown, STEP, writeInSteps, writtenInSteps, type StepHooks } from './staged-write';

/** What the steps need of the store that owns the rows. */
export interface SteppedStore {
  rows: SessionRows;
  now(): number;
  closed(): boolean;
  /** One of the store's write transactions (its guard turns SQLite's failures into its own). */
  transaction<T>(work: () => T): T;
  /** The store forgets what it holds of the id, and counts a write to it. */
  forget(id: string): void;
  /** The store's write at once, for a session short enough. */
  writeAtOnce(session: ChatSession): ChatSession;
  /**
   * Resolves once the search index has merged what the writes so far added and no checkpoint runs: a step waits on
   * it, so the merges keep up and the log is reused from its start.
   */
  caughtUp(): Promise<void>;
  /** The store keeps what was written, as it keeps what it reads. */
  keep(loaded: LoadedSession): ChatSession;
  warn(line: string): void;
}

export class SteppedSessions {
  private readonly queues = new KeyedQueue();
  /** A step is its own transaction; the host's thread turns between steps. */
  private readonly steps: StepHooks;

  constructor(private readonly store: SteppedStore) {
    this.steps = {
      transaction: (work) => {
        if (store.closed()) shutDown();
        return store.transaction(work);
      },
      pause: () => nextTurn().then(() => store.caughtUp()).then(() => !store.closed()),
      now: () => store.now(),
    };
  }

  /**
   * Writes a whole, checked session over whatever was saved under its id: a long one in steps (nothing sees it until
   * the last), after a long one it replaces is dropped in steps.
   */
  write(session: ChatSession): Promise<ChatSession> {
    const { id } = session;
    const { rows } = this.store;
    return this.queues.run(id, async () => {
      if (this.store.closed()) shutDown(session.title);
      // A pending row claimed lately is another store's write or drop under way (the command line): not ours to take.
      const claimed = rows.claimedAt(id);
      if (claimed !== null && claimed > this.store.now() - PENDING_LEASE_MS) {
        throw new HostFailure({ code: 'CONFLICT', message: `The session ${id} is being written or deleted elsewhere.`, hint: 'Try again once that is done.', path: '/sessionId' });
      }
      // What the id holds goes first, in steps, when it is long or is a pending row a crash left.
      if (rows.taken(id) && (claimed !== null || writtenInSteps(session) || (rows.count(id) ?? 0) > STEP.messages)) {
        this.hide(id);
        await this.dropInSteps(id);
      }
      if (!writtenInSteps(session)) return this.store.writeAtOnce(session);
      this.store.forget(id);
      const loaded = await writeInSteps(rows, session, this.steps);
      if (!loaded) shutDown(session.title);
      return this.store.keep(loaded);
    });
  }

  /** Gone for every reader at once; its messages are dropped in steps after. */
  drop(id: string): void {
    this.hide(id);
    void this.queues.run(id, () => (this.store.closed() ? Promise.resolve() : this.dropInSteps(id))).catch((err: unknown) => this.store.warn(`sessions: dropping ${id} failed (${(err as Error).message}); a later start drops it`));
  }

  /** Resolves once no session is being written or dropped in steps. */
  idle(): Promise<void> {
    return this.queues.idle();
  }

  /** A pending row: no reader sees it. */
  private hide(id: string): void {
    this.store.forget(id);
    this.store.transaction(() => this.store.rows.hide(id, this.store.now()));
  }

  private async dropInSteps(id: string): Promise<void> {
    if (!(await dropInSteps(this.store.rows, id, this.steps))) shutDown();
  }
}
