// The characters' pictures, one PNG file per session beside the database (large images stay out of the rows
// every turn touches).
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic-write';

export class AvatarFiles {
  constructor(private readonly dir: string) {}

  write(id: string, png: Buffer): void {
    writeFileAtomicSync(this.file(id), png);
  }

  /** The picture's bytes, or null when its file is gone. */
  read(id: string): Buffer | null {
    try {
      return fs.readFileSync(this.file(id));
    } catch {
      return null;
    }
  }

  remove(id: string): void {
    fs.rmSync(this.file(id), { force: true });
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.avatar.png`);
  }
}
