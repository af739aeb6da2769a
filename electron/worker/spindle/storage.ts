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

/** Writes in parts this worker has sent, for their ids. */
let writesInParts = 0;

/**
 * One storage area (`storage`: the extension's own; `userStorage`: the local user's). Binary data
 * crosses the channel as base64. A trailing `userId` argument (Lumiverse's multi-user form) is
 * accepted and ignored: the Workbench has one local user.
 */
export function createStorage(area: 'storage' | 'userStorage', requests: HostRequests): SpindleStorage {
  const call = (name: string, params: Record<string, unknown>) => requests.call(`${area}.${name}` as SpindleMethod, params as never);
  // A file larger than one request or answer carries crosses in parts (the host's storage-parts.ts, readPart).
  const writeBytes = async (path: string, bytes: Uint8Array) => {
    if (bytes.byteLength <= STORAGE_PART_BYTES) return void (await call('writeBinary', { path, base64: toBase64(bytes) }));
    const upload = `w${++writesInParts}`;
    for (let index = 0, at = 0; at < bytes.byteLength; index++, at += STORAGE_PART_BYTES) {
      const part = bytes.subarray(at, at + STORAGE_PART_BYTES);
      await call('writePart', { path, upload, index, base64: toBase64(part), last: at + STORAGE_PART_BYTES >= bytes.byteLength });
    }
  };
  const writeText = (path: string, data: string) => (data.length <= DIRECT_TEXT_CHARS ? call('write', { path, data }) : writeBytes(path, new TextEncoder().encode(data)));
  const readBytes = async (path: string): Promise<Uint8Array> => {
    const { sizeBytes } = (await call('stat', { path })) as StorageStat;
    const whole = new Uint8Array(sizeBytes);
    let at = 0;
    while (at < sizeBytes) {
      const part = fromBase64(await call('readPart', { path, offset: at, length: Math.min(STORAGE_PART_BYTES, sizeBytes - at) }));
      if (part.byteLength === 0) break; // it shrank meanwhile
      whole.set(part.subarray(0, sizeBytes - at), at);
      at += part.byteLength;
    }
    return whole.subarray(0, at);
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
  const readText = (path: string) => readWhole(path, 'read', (bytes) => new TextDecoder().decode(bytes), (answer) => answer as string);
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

