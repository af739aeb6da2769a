// Resumable uploads (Lumiverse's `/api/v1/spindle-uploads`, tus 1.0.0, and spindle.uploads): a file an extension's
// frontend streams in is written to that extension's data folder as it comes, and its backend reads it back by id.
// Each upload is the extension's own (another's id is not found), expires after 30 minutes, and is capped.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../ports';
import { fail, type HandlersOf } from './handlers';

/** As Lumiverse: an upload left this long untouched (no new part, no read) is dropped. */
export const UPLOAD_TTL_MS = 30 * 60 * 1000;
/** The largest upload (Lumiverse allows 1 GiB; its backend reads it whole into its worker's memory here). */
export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
/** A backend reads an upload in parts of this many bytes (base64 across the worker's pipe); its spindle.uploads.get puts them together. */
export const UPLOAD_READ_PART_BYTES = 4 * 1024 * 1024;
/** Uploads one extension keeps at a time, and the bytes they may come to in all (a frame cannot fill the disk). */
export const MAX_OPEN_UPLOADS = 8;
export const MAX_OPEN_BYTES = 1024 * 1024 * 1024;

interface UploadRecord {
  id: string;
  owner: string;
  fileName: string;
  declaredSize: number;
  offset: number;
  expiresAt: number;
}

export class ExtensionUploads {
  private readonly uploads = new Map<string, UploadRecord>();

  constructor(
    /** `<data-dir>/extension-data`: an upload lives in `<id>/uploads/`. */
    private readonly dataRoot: string,
    private readonly clock: Clock,
  ) {
    this.dropLeftovers();
  }

  /**
   * Uploads an earlier run left (their records were in its memory): dropped once idle past the TTL, going by their
   * files' times, so a command line opened beside the app leaves the app's uploads under way alone.
   */
  private dropLeftovers(): void {
    let extensions: string[];
    try {
      extensions = fs.readdirSync(this.dataRoot);
    } catch {
      return;
    }
    const before = Date.now() - UPLOAD_TTL_MS;
    for (const extension of extensions) {
      const folder = path.join(this.dataRoot, extension, 'uploads');
      let files: string[];
      try {
        files = fs.readdirSync(folder);
      } catch {
        continue;
      }
      for (const file of files) {
        try {
          if (fs.statSync(path.join(folder, file)).mtimeMs < before) fs.rmSync(path.join(folder, file), { force: true });
        } catch {
          // Gone meanwhile.
        }
      }
    }
  }

  private file(record: UploadRecord): string {
    return path.join(this.dataRoot, record.owner, 'uploads', record.id);
  }

  /** The extension's own, unexpired upload; undefined otherwise (an expired one is removed). */
  find(owner: string, id: string): UploadRecord | undefined {
    this.sweep();
    const record = this.uploads.get(id);
    return record?.owner === owner ? record : undefined;
  }

  create(owner: string, fileName: string, declaredSize: number): UploadRecord {
    this.sweep();
    const open = [...this.uploads.values()].filter((u) => u.owner === owner);
    if (open.length >= MAX_OPEN_UPLOADS) fail('QUOTA_EXCEEDED', `An extension keeps at most ${MAX_OPEN_UPLOADS} uploads at a time; delete the ones it has read.`);
    if (open.reduce((n, u) => n + u.declaredSize, declaredSize) > MAX_OPEN_BYTES) fail('QUOTA_EXCEEDED', `An extension's open uploads come to at most ${MAX_OPEN_BYTES} bytes; delete the ones it has read.`);
    const record: UploadRecord = { id: randomUUID(), owner, fileName: fileName.slice(0, 255) || 'upload.bin', declaredSize, offset: 0, expiresAt: this.clock.now() + UPLOAD_TTL_MS };
    fs.mkdirSync(path.dirname(this.file(record)), { recursive: true });
    fs.writeFileSync(this.file(record), '');
    this.uploads.set(record.id, record);
    return record;
  }

  /** Appends bytes at `offset` (which must be where it stands); the new offset. */
  append(record: UploadRecord, offset: number, bytes: Buffer): number {
    if (offset !== record.offset) fail('CONFLICT', `The upload stands at ${record.offset}, not ${offset}.`);
    if (record.offset + bytes.length > record.declaredSize) fail('INPUT_TOO_LARGE', `The upload was declared as ${record.declaredSize} bytes.`);
    fs.appendFileSync(this.file(record), bytes);
    record.offset += bytes.length;
    // The TTL counts from the last part, as Lumiverse's: a long upload that keeps coming stays.
    record.expiresAt = this.clock.now() + UPLOAD_TTL_MS;
    return record.offset;
  }

  remove(owner: string, id: string): boolean {
    const record = this.find(owner, id);
    if (!record) return false;
    this.drop(record);
    return true;
  }

  /** spindle.uploads: a completed upload (what it is, then its bytes a part at a time, base64 across the pipe), and its removal. */
  handlers(): HandlersOf<'uploads'> {
    const complete = (owner: string, id: string) => {
      const record = this.find(owner, id);
      if (!record || record.offset !== record.declaredSize) return undefined;
      // Being read keeps it: a long read does not run into the TTL.
      record.expiresAt = this.clock.now() + UPLOAD_TTL_MS;
      return record;
    };
    return {
      'uploads.get': ({ uploadId }, caller) => {
        const record = complete(caller.extensionId, uploadId);
        return record ? { fileName: record.fileName, size: record.declaredSize } : null;
      },
      'uploads.read': ({ uploadId, offset }, caller) => {
        const record = complete(caller.extensionId, uploadId) ?? fail('NOT_FOUND', `No completed upload ${uploadId} of this extension.`, '/uploadId');
        const length = Math.max(0, Math.min(UPLOAD_READ_PART_BYTES, record.declaredSize - offset));
        const bytes = Buffer.alloc(length);
        const fd = fs.openSync(this.file(record), 'r');
        let read = 0;
        try {
          read = fs.readSync(fd, bytes, 0, length, offset);
        } finally {
          fs.closeSync(fd);
        }
        // A file cut short (by hand, a full disk) reads short: the worker stops there instead of taking zeros.
        return bytes.subarray(0, read).toString('base64');
      },
      'uploads.delete': ({ uploadId }, caller) => this.remove(caller.extensionId, uploadId),
    };
  }

  /** Its extension was removed: its uploads go too. */
  forget(owner: string): void {
    for (const record of [...this.uploads.values()]) if (record.owner === owner) this.drop(record);
  }

  private drop(record: UploadRecord): void {
    this.uploads.delete(record.id);
    fs.rmSync(this.file(record), { force: true });
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const record of [...this.uploads.values()]) if (record.expiresAt < now) this.drop(record);
  }
}
