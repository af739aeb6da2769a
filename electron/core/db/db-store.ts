// A store beside the sessions in the chats' database (presets, the memory graph, vaults): each write a transaction of
// its own whose commit is announced (the checkpoints follow what is written), and time as Lumiverse's DTOs give it.
import type { Clock } from '../ports';
import { write, type Db } from './chat-db';

export abstract class DbStore {
  constructor(
    protected readonly db: Db,
    protected readonly clock: Clock,
    private readonly committed: () => void = () => undefined,
  ) {}

  /** `work` in one transaction (inside another, it joins it), its commit announced once. */
  protected write<T>(work: () => T): T {
    return write(this.db, this.committed, work);
  }

  /** Now, in unix seconds (Lumiverse's timestamps). */
  protected seconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }
}
