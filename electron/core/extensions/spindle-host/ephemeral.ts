// spindle.ephemeral (permission `ephemeral_storage`): files that expire. Each has a TTL (default one
// hour, at most seven days); expired files are removed when the area is next used. An extension holds
// at most 50 MB and 250 files, reservations (requestBlock) included.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ExtensionPermission } from '../../../../shared/types/spindle';
import type { Clock } from '../../ports';
import { ExtensionStorage, STORAGE_LIMITS } from './extension-storage';
import { JsonDocument } from './json-document';
import { fail, text, unknownMethod, type Caller, type NamespaceHandler } from './namespace';

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
    this.files = new ExtensionStorage(path.join(folder, 'ephemeral'), { ...STORAGE_LIMITS, quotaBytes: EPHEMERAL_LIMITS.maxBytes });
    this.index = new JsonDocument(path.join(folder, 'ephemeral.json'), () => ({ files: Object.create(null) as Record<string, Entry> }), 1024 * 1024);
  }
}

/** A path, never a name that reaches the index object's prototype. */
function fileOf(value: unknown): string {
  const file = text(value, 'path', 512);
  if (file === '__proto__' || file === 'constructor' || file === 'prototype') fail('INVALID_INPUT', `"${file}" cannot be an ephemeral file name.`, '/path');
  return file;
}

function ttlOf(options: unknown): number {
  const ttl = (options as { ttlMs?: unknown } | null)?.ttlMs;
  if (ttl === undefined) return EPHEMERAL_LIMITS.defaultTtlMs;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) fail('INVALID_INPUT', 'ttlMs is a positive number of milliseconds.', '/ttlMs');
  return Math.min(ttl, EPHEMERAL_LIMITS.maxTtlMs);
}

export class ExtensionEphemeral implements NamespaceHandler {
  private readonly areas = new Map<string, Area>();

  constructor(
    private readonly dataRoot: string,
    private readonly clock: Clock,
  ) {}

  permission(): ExtensionPermission {
    return 'ephemeral_storage';
  }

  async handle(caller: Caller, method: string, args: unknown[]): Promise<unknown> {
    const area = this.area(caller.extensionId);
    await this.clearExpired(area);
    const now = this.clock.now();
    switch (method) {
      case 'read':
      case 'readBinary':
        return area.files.handle(method, { path: fileOf(args[0]) });
      case 'write':
      case 'writeBinary': {
        const file = fileOf(args[0]);
        const data = method === 'write' ? { data: args[1] } : { base64: args[1] };
        const size = method === 'write' ? Buffer.byteLength(String(args[1] ?? '')) : Math.floor((String(args[1] ?? '').length * 3) / 4);
        const files = area.index.read().files;
        const replacing = Object.prototype.hasOwnProperty.call(files, file);
        if (!replacing && Object.keys(files).length >= EPHEMERAL_LIMITS.maxFiles) fail('QUOTA_EXCEEDED', `An extension keeps at most ${EPHEMERAL_LIMITS.maxFiles} ephemeral files.`, '/path');
        const reservationId = (args[2] as { reservationId?: unknown } | null)?.reservationId;
        const reserved = typeof reservationId === 'string' ? area.reservations.get(reservationId) : undefined;
        if (typeof reservationId === 'string' && !reserved) fail('NOT_FOUND', 'No such reservation (it expired or was released).', '/reservationId');
        const used = this.used(area) - (replacing ? files[file]!.size : 0) - (reserved?.sizeBytes ?? 0);
        if (used + size > EPHEMERAL_LIMITS.maxBytes) fail('QUOTA_EXCEEDED', `The extension's ephemeral storage would pass ${EPHEMERAL_LIMITS.maxBytes} bytes.`, '/data');
        await area.files.handle(method, { path: file, ...data });
        if (reserved) reserved.sizeBytes = Math.max(0, reserved.sizeBytes - size);
        await area.index.update((doc) => {
          doc.files[file] = { size, createdAt: now, expiresAt: now + ttlOf(args[2]) };
        });
        return null;
      }
      case 'delete': {
        const file = fileOf(args[0]);
        await area.files.handle('delete', { path: file });
        await area.index.update((doc) => {
          delete doc.files[file];
        });
        return null;
      }
      case 'list': {
        const prefix = typeof args[0] === 'string' ? args[0] : '';
        return Object.keys(area.index.read().files).filter((file) => file.startsWith(prefix)).sort();
      }
      case 'stat': {
        const file = fileOf(args[0]);
        const entry = Object.prototype.hasOwnProperty.call(area.index.read().files, file) ? area.index.read().files[file] : undefined;
        if (!entry) fail('NOT_FOUND', 'File not found in ephemeral storage.', '/path');
        return { sizeBytes: entry.size, createdAt: new Date(entry.createdAt).toISOString(), expiresAt: new Date(entry.expiresAt).toISOString() };
      }
      case 'clearExpired':
        return this.clearExpired(area);
      case 'getPoolStatus': {
        const used = Object.values(area.index.read().files).reduce((sum, e) => sum + e.size, 0);
        const reserved = [...area.reservations.values()].reduce((sum, r) => sum + r.sizeBytes, 0);
        return {
          globalMaxBytes: EPHEMERAL_LIMITS.maxBytes,
          globalUsedBytes: used,
          globalReservedBytes: reserved,
          globalAvailableBytes: Math.max(0, EPHEMERAL_LIMITS.maxBytes - used - reserved),
          extensionMaxBytes: EPHEMERAL_LIMITS.maxBytes,
          extensionUsedBytes: used,
          extensionReservedBytes: reserved,
          extensionAvailableBytes: Math.max(0, EPHEMERAL_LIMITS.maxBytes - used - reserved),
          fileCount: Object.keys(area.index.read().files).length,
          fileCountMax: EPHEMERAL_LIMITS.maxFiles,
        };
      }
      case 'requestBlock': {
        const sizeBytes = args[0];
        if (typeof sizeBytes !== 'number' || !Number.isInteger(sizeBytes) || sizeBytes <= 0) fail('INVALID_INPUT', 'requestBlock needs a positive whole number of bytes.', '/sizeBytes');
        if (this.used(area) + sizeBytes > EPHEMERAL_LIMITS.maxBytes) fail('QUOTA_EXCEEDED', 'Not enough ephemeral space left for that block.', '/sizeBytes');
        const reservationId = randomUUID();
        const expiresAt = now + ttlOf(args[1]);
        area.reservations.set(reservationId, { sizeBytes, expiresAt });
        return { reservationId, sizeBytes, expiresAt: new Date(expiresAt).toISOString() };
      }
      case 'releaseBlock':
        area.reservations.delete(text(args[0], 'reservationId', 64));
        return null;
      default:
        return unknownMethod('ephemeral', method);
    }
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
    for (const file of expired) await area.files.handle('delete', { path: file });
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
