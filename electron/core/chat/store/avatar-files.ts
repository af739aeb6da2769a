// The characters' pictures, one PNG file per session beside the database (large images stay out of the rows
// every turn touches), read and written off the host's thread.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../util/atomic-write';

export class AvatarFiles {
  constructor(private readonly dir: string) {}

  write(id: string, png: Buffer): Promise<void> {
    return writeFileAtomic(this.file(id), png);
  }

  /** The picture's bytes, or null when its file is gone. */
  read(id: string): Promise<Buffer | null> {
    return fs.promises.readFile(this.file(id)).catch(() => null);
  }

  remove(id: string): void {
    fs.rmSync(this.file(id), { force: true });
  }

  /** Where the picture's file is (whether or not it is there). */
  file(id: string): string {
    return path.join(this.dir, `${id}.avatar.png`);
  }
}
