// spindle.storage and spindle.userStorage: the extension's files, kept by the host (a contained worker cannot write to disk).
import type { StorageStat } from '../../../shared/types/spindle';
import type { HostRequests } from '../host-requests';
import type { SpindleMethod } from '../../../shared/spindle/requests';


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

function notFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'NOT_FOUND';
}

/**
 * One storage area (`storage`: the extension's own; `userStorage`: the local user's). Binary data
 * crosses the channel as base64. A trailing `userId` argument (Lumiverse's multi-user form) is
 * accepted and ignored: the Workbench has one local user.
 */
export function createStorage(area: 'storage' | 'userStorage', requests: HostRequests): SpindleStorage {
  const call = (name: string, params: Record<string, unknown>) => requests.call(`${area}.${name}` as SpindleMethod, params as never);
  return {
    read: async (path) => (await call('read', { path })) as string,
    write: async (path, data) => {
      if (typeof data !== 'string') throw new TypeError(`spindle.${area}.write expects a string; use writeBinary for bytes.`);
      await call('write', { path, data });
    },
    readBinary: async (path) => fromBase64(await call('readBinary', { path })),
    writeBinary: async (path, data) => {
      if (!(data instanceof Uint8Array)) throw new TypeError(`spindle.${area}.writeBinary expects a Uint8Array.`);
      await call('writeBinary', { path, base64: toBase64(data) });
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
        text = (await call('read', { path })) as string;
      } catch (err) {
        if (notFound(err) && options && 'fallback' in options) return options.fallback as T;
        throw err;
      }
      return JSON.parse(text) as T;
    },
    setJson: async (path, value, options) => {
      const indent = typeof options?.indent === 'number' ? Math.max(0, Math.min(10, options.indent)) : 2;
      await call('write', { path, data: JSON.stringify(value, null, indent) });
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

