// A stored file too large for one request (spindle.storage.write/writeBinary of more than a request carries): the
// worker sends it in parts, in order (one such write at a time), and each is appended to a staging file beside the
// area (never in it, so a half written file is neither listed nor counted). The last part hands the staged file over
// to be put in place, whole. A few writes may be under way at once; a new one past that drops the one left longest
// (a worker that died midway), and a part of a dropped write says so. What a stopped host left is cleared at once.
import fs from 'node:fs';
import path from 'node:path';
import { fail } from './handlers';

/** Writes in parts one area has under way at once. */
export const MAX_STAGED_WRITES = 4;
/** Writes dropped for a newer one, remembered to say so to their next part. */
const DROPPED_KEPT = 64;

interface Staged {
  file: string;
  /** The index the next part must have. */
  next: number;
  bytes: number;
}

export class StagedWrites {
  private readonly open = new Map<string, Staged>();
  private readonly dropped = new Set<string>();

  constructor(
    /** Where staging files go: beside the area, not in it. */
    private readonly dir: string,
    private readonly maxFileBytes: number,
  ) {
    // Staging files a run before this one left (the host was stopped midway) go when the area opens.
    fs.rmSync(dir, { recursive: true, force: true });
  }

  /**
   * Appends part `index` of write `upload`; the last one hands the staged file to `place` (which moves it where it
   * goes). A part out of order, or one that would make the file too large, ends that write.
   */
  async append(upload: string, index: number, bytes: Buffer, last: boolean, place: (staged: string, size: number) => Promise<true>): Promise<true> {
    let staged = this.open.get(upload);
    if (index === 0) {
      if (staged) await this.drop(upload);
      staged = await this.start(upload);
    }
    if (!staged && this.dropped.has(upload)) {
      return fail('CONFLICT', `This write in parts was ended: more than ${MAX_STAGED_WRITES} were under way at once. Write the file again.`, '/upload');
    }
    if (!staged || staged.next !== index) {
      if (staged) await this.drop(upload);
      return fail('INVALID_INPUT', `Part ${index} of a write came out of order (a write in parts starts at 0, one part after another).`, '/index');
    }
    if (staged.bytes + bytes.byteLength > this.maxFileBytes) {
      await this.drop(upload);
      return fail('INPUT_TOO_LARGE', `A stored file is at most ${this.maxFileBytes} bytes.`, '/data');
    }
    await fs.promises.appendFile(staged.file, bytes);
    staged.bytes += bytes.byteLength;
    staged.next++;
    // Most recently written last: the one left longest is first.
    this.open.delete(upload);
    this.open.set(upload, staged);
    if (!last) return true;
    this.open.delete(upload);
    try {
      return await place(staged.file, staged.bytes);
    } finally {
      await fs.promises.rm(staged.file, { force: true });
    }
  }

  private async start(upload: string): Promise<Staged> {
    while (this.open.size >= MAX_STAGED_WRITES) {
      const oldest = this.open.keys().next().value!;
      await this.drop(oldest);
      this.dropped.add(oldest);
      if (this.dropped.size > DROPPED_KEPT) this.dropped.delete(this.dropped.values().next().value!);
    }
    this.dropped.delete(upload);
    await fs.promises.mkdir(this.dir, { recursive: true });
    const staged = { file: path.join(this.dir, `${Buffer.from(upload).toString('hex')}.part`), next: 0, bytes: 0 };
    await fs.promises.writeFile(staged.file, new Uint8Array(0));
    this.open.set(upload, staged);
    return staged;
  }

  private async drop(upload: string): Promise<void> {
    const staged = this.open.get(upload);
    this.open.delete(upload);
    if (staged) await fs.promises.rm(staged.file, { force: true });
  }
}
