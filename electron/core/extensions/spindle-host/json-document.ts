// A small JSON document an extension owns on the host (its variables, its enclave index): read once,
// changed one write at a time, written atomically, capped in size.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write';
import { fail } from './handlers';

export class JsonDocument<T extends object> {
  private value: T | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly empty: () => T,
    private readonly maxBytes: number,
  ) {}

  read(): T {
    if (this.value) return this.value;
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown;
      this.value = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as T) : this.empty();
    } catch {
      this.value = this.empty();
    }
    return this.value;
  }

  /** Applies `change` to a copy and writes it; over the cap, nothing changes (QUOTA_EXCEEDED). */
  update<R>(change: (draft: T) => R): Promise<R> {
    const run = this.queue.then(async () => {
      const draft = structuredClone(this.read());
      const result = change(draft);
      const json = JSON.stringify(draft);
      if (Buffer.byteLength(json) > this.maxBytes) fail('QUOTA_EXCEEDED', `This would grow ${path.basename(this.file)} past ${this.maxBytes} bytes.`);
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      await writeFileAtomic(this.file, json);
      this.value = draft;
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
