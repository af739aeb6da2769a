// spindle.ephemeral (permission `ephemeral_storage`): files that expire. Each has a TTL (default one
// hour, at most seven days); expired files are removed when the area is next used. An extension holds
// at most 50 MB and 250 files, reservations (requestBlock) included.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Clock } from '../../ports';
import { ExtensionStorage, STORAGE_LIMITS } from './extension-storage';
import { JsonDocument } from './json-document';
import { fail, type Caller, type HandlersOf } from './handlers';

/** Its files cross whole, in one request and one answer (spindle.ephemeral has no parts). */
const EPHEMERAL_FILE_LIMITS = { maxFileBytes: 8 * 1024 * 1024, oneReadBytes: 8 * 1024 * 1024 };
export const EPHEMERAL_LIMITS = { maxBytes: 50 * 1024 * 1024, maxFiles: 250, defaultTtlMs: 60 * 60_000, maxTtlMs: 7 * 24 * 60 * 60_000 };

interface Entry {
  size: number;
  createdAt: number;
  expiresAt: number;
}
interface Reservation {
  sizeBytes: number;
  expiresAt: number;
}

class Area {
  readonly files: ExtensionStorage;
  readonly index: JsonDocument<{ files: Record<string, Entry> }>;
  readonly reservations = new Map<string, Reservation>();

  constructor(folder: string) {
    this.files = new ExtensionStorage(path.join(folder, 'ephemeral'), { ...STORAGE_LIMITS, ...EPHEMERAL_FILE_LIMITS, quotaBytes: EPHEMERAL_LIMITS.maxBytes });
    this.index = new JsonDocument(path.join(folder, 'ephemeral.json'), () => ({ files: Object.create(null) as Record<string, Entry> }), 1024 * 1024);
  }
}

/** A path (1–512 characters: requests.ts), never a name that reaches the index object's prototype. */
function fileOf(file: string): string {
  if (file === '__proto__' || file === 'constructor' || file === 'prototype') fail('INVALID_INPUT', `"${file}" cannot be an ephemeral file name.`, '/path');
  return file;
}

const ttlOf = (options: { ttlMs?: number } | undefined) => Math.min(options?.ttlMs ?? EPHEMERAL_LIMITS.defaultTtlMs, EPHEMERAL_LIMITS.maxTtlMs);

export class ExtensionEphemeral {
  private readonly areas = new Map<string, Area>();

  constructor(
    private readonly dataRoot: string,
    private readonly clock: Clock,
  ) {}

  handlers(): HandlersOf<'ephemeral'> {
    const write =
      (binary: boolean) =>
      async ({ path: requested, data, options }: { path: string; data: string; options?: { ttlMs?: number; reservationId?: string } }, caller: Caller) => {
        const area = await this.open(caller);
        const now = this.clock.now();
        const file = fileOf(requested);
        const size = binary ? Math.floor((data.length * 3) / 4) : Buffer.byteLength(data);
        const files = area.index.read().files;
        const replacing = Object.hasOwn(files, file);
        if (!replacing && Object.keys(files).length >= EPHEMERAL_LIMITS.maxFiles) fail('QUOTA_EXCEEDED', `An extension keeps at most ${EPHEMERAL_LIMITS.maxFiles} ephemeral files.`, '/path');
        const reservationId = options?.reservationId;
        const reserved = reservationId !== undefined ? area.reservations.get(reservationId) : undefined;
        if (reservationId !== undefined && !reserved) fail('NOT_FOUND', 'No such reservation (it expired or was released).', '/reservationId');
        const used = this.used(area) - (replacing ? files[file]!.size : 0) - (reserved?.sizeBytes ?? 0);
        if (used + size > EPHEMERAL_LIMITS.maxBytes) fail('QUOTA_EXCEEDED', `The extension's ephemeral storage would pass ${EPHEMERAL_LIMITS.maxBytes} bytes.`, '/data');
        await (binary ? area.files.ops.writeBinary({ path: file, base64: data }) : area.files.ops.write({ path: file, data }));
        if (reserved) reserved.sizeBytes = Math.max(0, reserved.sizeBytes - size);
        await area.index.update((doc) => {
          doc.files[file] = { size, createdAt: now, expiresAt: now + ttlOf(options) };
        });
        return null;
      };
    return {
      'ephemeral.read': async ({ path: file }, caller) => (await this.open(caller)).files.ops.read({ path: fileOf(file) }),
      'ephemeral.readBinary': async ({ path: file }, caller) => (await this.open(caller)).files.ops.readBinary({ path: fileOf(file) }),
      'ephemeral.write': write(false),
      'ephemeral.writeBinary': write(true),
      'ephemeral.delete': async ({ path: requested }, caller) => {
        const area = await this.open(caller);
        const file = fileOf(requested);
        await area.files.ops.delete({ path: file });
        await area.index.update((doc) => {
          delete doc.files[file];
        });
        return null;
      },
      'ephemeral.list': async ({ prefix = '' }, caller) =>
        Object.keys((await this.open(caller)).index.read().files)
          .filter((file) => file.startsWith(prefix))
          .sort(),
      'ephemeral.stat': async ({ path: requested }, caller) => {
        const files = (await this.open(caller)).index.read().files;
        const file = fileOf(requested);
        const entry = Object.hasOwn(files, file) ? files[file] : undefined;
        if (!entry) fail('NOT_FOUND', 'File not found in ephemeral storage.', '/path');
        return { sizeBytes: entry.size, createdAt: new Date(entry.createdAt).toISOString(), expiresAt: new Date(entry.expiresAt).toISOString() };
      },
      'ephemeral.clearExpired': (_params, caller) => this.clearExpired(this.area(caller.extensionId)),
      'ephemeral.getPoolStatus': async (_params, caller) => {
        const area = await this.open(caller);
        const used = Object.values(area.index.read().files).reduce((sum, e) => sum + e.size, 0);
        const reserved = [...area.reservations.values()].reduce((sum, r) => sum + r.sizeBytes, 0);
        const available = Math.max(0, EPHEMERAL_LIMITS.maxBytes - used - reserved);
        return {
          globalMaxBytes: EPHEMERAL_LIMITS.maxBytes,
          globalUsedBytes: used,
          globalReservedBytes: reserved,
          globalAvailableBytes: available,
          extensionMaxBytes: EPHEMERAL_LIMITS.maxBytes,
          extensionUsedBytes: used,
          extensionReservedBytes: reserved,
          extensionAvailableBytes: available,
          fileCount: Object.keys(area.index.read().files).length,
          fileCountMax: EPHEMERAL_LIMITS.maxFiles,
        };
      },
      'ephemeral.requestBlock': async ({ sizeBytes, options }, caller) => {
        const area = await this.open(caller);
        if (this.used(area) + sizeBytes > EPHEMERAL_LIMITS.maxBytes) fail('QUOTA_EXCEEDED', 'Not enough ephemeral space left for that block.', '/sizeBytes');
        const reservationId = randomUUID();
        const expiresAt = this.clock.now() + ttlOf(options);
        area.reservations.set(reservationId, { sizeBytes, expiresAt });
        return { reservationId, sizeBytes, expiresAt: new Date(expiresAt).toISOString() };
      },
      'ephemeral.releaseBlock': async ({ reservationId }, caller) => {
        (await this.open(caller)).reservations.delete(reservationId);
        return null;
      },
    };
  }

  /** The extension's area, what expired already gone (every request starts so). */
  private async open(caller: Caller): Promise<Area> {
    const area = this.area(caller.extensionId);
    await this.clearExpired(area);
    return area;
  }

  private used(area: Area): number {
    const files = Object.values(area.index.read().files).reduce((sum, e) => sum + e.size, 0);
    return files + [...area.reservations.values()].reduce((sum, r) => sum + r.sizeBytes, 0);
  }

  /** Removes what expired; returns how many files went. */
  private async clearExpired(area: Area): Promise<number> {
    const now = this.clock.now();
    for (const [id, reservation] of area.reservations) if (reservation.expiresAt <= now) area.reservations.delete(id);
    const expired = Object.entries(area.index.read().files).filter(([, entry]) => entry.expiresAt <= now).map(([file]) => file);
    if (expired.length === 0) return 0;
    for (const file of expired) await area.files.ops.delete({ path: file });
    await area.index.update((doc) => {
      for (const file of expired) delete doc.files[file];
    });
    return expired.length;
  }

  private area(extensionId: string): Area {
    let area = this.areas.get(extensionId);
    if (!area) {
      area = new Area(path.join(this.dataRoot, extensionId));
      this.areas.set(extensionId, area);
    }
    return area;
  }
}
