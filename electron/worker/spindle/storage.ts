// spindle.storage and spindle.userStorage: the extension's files, kept by the host (a contained worker cannot write to disk).
import type { StorageStat } from '../../../shared/types/spindle';
import type { HostRequests } from '../host-requests';
import type { SpindleMethod } from '../../../shared/spindle/requests';
import { STORAGE_PART_BYTES } from '../../../shared/protocol/limits';


export interface SpindleStorage {
  read(path: string): Promise<string>;
  write(path: string, data: string): Promise<void>;
  readBinary(path: string): Promise<Uint8Array>;
  writeBinary(path: string, data: Uint8Array): Promise<void>;
  delete(path: string): Promise<void>;
  list(prefix?: string): Promise<string[]>;
  exists(path: string): Promise<boolean>;
  mkdir(path: string): Promise<void>;
  move(from: string, to: string): Promise<void>;
  stat(path: string): Promise<StorageStat>;
  getJson<T>(path: string, options?: { fallback?: T }): Promise<T>;
  setJson(path: string, value: unknown, options?: { indent?: number }): Promise<void>;
}

export const toBase64 = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
export const fromBase64 = (text: unknown) => new Uint8Array(Buffer.from(text as string, 'base64'));

const hasCode = (error: unknown, code: string) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
const notFound = (error: unknown) => hasCode(error, 'NOT_FOUND');

/** A text this long may be sent as it is (JSON's escapes can grow it several times, within a request). */
const DIRECT_TEXT_CHARS = 1024 * 1024;

/** Reads of a file that changed while it was read in parts, tried again before giving up. */
const READ_TRIES = 3;

/**
 * One storage area (`storage`: the extension's own; `userStorage`: the local user's). Binary data
 * crosses the channel as base64. A trailing `userId` argument (Lumiverse's multi-user form) is
 * accepted and ignored: the Workbench has one local user.
 */
export function createStorage(area: 'storage' | 'userStorage', requests: HostRequests): SpindleStorage {
  const call = (name: string, params: Record<string, unknown>) => requests.call(`${area}.${name}` as SpindleMethod, params as never);
  // A file larger than one request or answer carries crosses in parts (the host's storage-parts.ts, readPart), one
  // such write at a time (the host takes writes one by one anyway; many at once would only wait there, staged).
  let inParts: Promise<unknown> = Promise.resolve();
  const writeInParts = (path: string, bytes: Uint8Array) => {
    const upload = crypto.randomUUID();
    const write = inParts.then(async () => {
      for (let index = 0, at = 0; at < bytes.byteLength; index++, at += STORAGE_PART_BYTES) {
        const part = bytes.subarray(at, at + STORAGE_PART_BYTES);
        await call('writePart', { path, upload, index, base64: toBase64(part), last: at + STORAGE_PART_BYTES >= bytes.byteLength });
      }
    });
    inParts = write.catch(() => undefined);
    return write;
  };
  const writeBytes = async (path: string, bytes: Uint8Array) => {
    if (bytes.byteLength <= STORAGE_PART_BYTES) await call('writeBinary', { path, base64: toBase64(bytes) });
    else await writeInParts(path, bytes);
  };
  const writeText = (path: string, data: string) => (data.length <= DIRECT_TEXT_CHARS ? call('write', { path, data }) : writeBytes(path, new TextEncoder().encode(data)));
  const statOf = async (path: string) => {
    const stat = (await call('stat', { path })) as StorageStat;
    if (!stat.exists || !stat.isFile) throw Object.assign(new Error('File not found in storage.'), { code: 'NOT_FOUND', path: '/path' });
    return stat;
  };
  /** The file's bytes, read in parts; read again when it was replaced meanwhile (its size or time moved), never mixed. */
  const readBytes = async (path: string): Promise<Uint8Array> => {
    for (let attempt = 1; ; attempt++) {
      const before = await statOf(path);
      const whole = new Uint8Array(before.sizeBytes);
      let at = 0;
      while (at < whole.byteLength) {
        const part = fromBase64(await call('readPart', { path, offset: at, length: Math.min(STORAGE_PART_BYTES, whole.byteLength - at) }));
        if (part.byteLength === 0) break;
        whole.set(part.subarray(0, whole.byteLength - at), at);
        at += part.byteLength;
      }
      const after = await statOf(path);
      if (at === whole.byteLength && after.sizeBytes === before.sizeBytes && after.modifiedAt === before.modifiedAt) return whole;
      if (attempt === READ_TRIES) throw Object.assign(new Error('The file kept changing while it was read.'), { code: 'CONFLICT', path: '/path' });
    }
  };
  /** One answer, or the file in parts when it is larger than one carries. */
  const readWhole = async <T>(path: string, op: 'read' | 'readBinary', inParts: (bytes: Uint8Array) => T, direct: (answer: unknown) => T): Promise<T> => {
    try {
      return direct(await call(op, { path }));
    } catch (err) {
      if (!hasCode(err, 'RESULT_TOO_LARGE')) throw err;
      return inParts(await readBytes(path));
    }
  };
  // A byte-order mark stays, as a whole read keeps it.
  const readText = (path: string) => readWhole(path, 'read', (bytes) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), (answer) => answer as string);
  return {
    read: (path) => readText(path),
    write: async (path, data) => {
      if (typeof data !== 'string') throw new TypeError(`spindle.${area}.write expects a string; use writeBinary for bytes.`);
      await writeText(path, data);
    },
    readBinary: (path) => readWhole(path, 'readBinary', (bytes) => bytes, fromBase64),
    writeBinary: async (path, data) => {
      if (!(data instanceof Uint8Array)) throw new TypeError(`spindle.${area}.writeBinary expects a Uint8Array.`);
      await writeBytes(path, data);
    },
    delete: async (path) => {
      await call('delete', { path });
    },
    list: async (prefix) => (await call('list', prefix === undefined || typeof prefix !== 'string' ? {} : { prefix })) as string[],
    exists: async (path) => (await call('exists', { path })) as boolean,
    mkdir: async (path) => {
      await call('mkdir', { path });
    },
    move: async (from, to) => {
      await call('move', { from, to });
    },
    stat: async (path) => (await call('stat', { path })) as StorageStat,
    async getJson<T>(path: string, options?: { fallback?: T }): Promise<T> {
      let text: string;
      try {
        text = await readText(path);
      } catch (err) {
        if (notFound(err) && options && 'fallback' in options) return options.fallback as T;
        throw err;
      }
      return JSON.parse(text) as T;
    },
    setJson: async (path, value, options) => {
      const indent = typeof options?.indent === 'number' ? Math.max(0, Math.min(10, options.indent)) : 2;
      await writeText(path, JSON.stringify(value, null, indent));
    },
  };
}

/**
 * spindle.ephemeral: its other methods forwarded as they are; its bytes cross as base64 both ways, since
 * Lumiverse hands and takes Uint8Arrays (which would not survive the channel's JSON).
 */
export function createEphemeral(forwarded: Record<string, unknown>, requests: HostRequests): Record<string, unknown> {
  return {
    ...forwarded,
    readBinary: async (path: unknown) => fromBase64(await requests.call('ephemeral.readBinary', { args: [path] })),
    writeBinary: async (path: unknown, data: unknown, options?: unknown) => {
      if (!(data instanceof Uint8Array)) throw new TypeError('spindle.ephemeral.writeBinary expects a Uint8Array.');
      await requests.call('ephemeral.writeBinary', { args: [path, toBase64(data), options ?? null] });
    },
  };
}

