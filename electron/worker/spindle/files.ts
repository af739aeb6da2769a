// spindle.uploads and spindle.images in the worker: Lumiverse hands and takes Uint8Arrays, which cross the channel as
// base64 (an upload's bytes a part at a time).
import type { HostRequests } from '../host-requests';
import { fromBase64, toBase64 } from './storage';

/** spindle.uploads: what its frontend streamed in (Lumiverse's SpindleUploadDTO, its bytes a Uint8Array). */
export function createUploads(requests: HostRequests): Record<string, unknown> {
  return {
    async get(uploadId: unknown) {
      const id = String(uploadId ?? '');
      const upload = await requests.call('uploads.get', { args: [id] });
      if (!upload) return null;
      // Read a part at a time (the pipe carries a few MB per answer), into one array.
      const data = new Uint8Array(upload.size);
      for (let offset = 0; offset < upload.size; ) {
        const part = fromBase64(await requests.call('uploads.read', { uploadId: id, offset }));
        if (part.length === 0) throw Object.assign(new Error(`spindle.uploads.get: the upload ${id} ended early.`), { code: 'NOT_FOUND' });
        data.set(part, offset);
        offset += part.length;
      }
      return { fileName: upload.fileName, size: upload.size, data };
    },
    delete: (uploadId: unknown) => requests.call('uploads.delete', { args: [String(uploadId ?? '')] }),
  };
}

/**
 * spindle.images: Lumiverse's image CRUD over the images the extension keeps (its bytes base64 across the pipe).
 * uploadMany and uploadFromDataUrl are upload, as Lumiverse defines them; a trailing `userId` is ignored.
 */
export function createImages(requests: HostRequests): Record<string, unknown> {
  const options = (value: unknown) => (typeof value === 'object' && value !== null ? value : null);
  const upload = async (input: unknown) => {
    const i = (input ?? {}) as Record<string, unknown>;
    if (!(i.data instanceof Uint8Array)) throw new TypeError('spindle.images.upload expects { data: Uint8Array }.');
    const text = (key: string) => (typeof i[key] === 'string' ? { [key]: i[key] } : {});
    return requests.call('images.upload', { data: toBase64(i.data), ...text('filename'), ...text('mime_type'), ...text('owner_character_id'), ...text('owner_chat_id') } as never);
  };
  return {
    list: (opts?: unknown) => requests.call('images.list', { args: [options(opts)] }),
    get: (imageId: unknown, opts?: unknown) => requests.call('images.get', { args: [String(imageId ?? ''), options(opts)] }),
    upload,
    async uploadMany(items: unknown) {
      const out: Array<{ id?: string; error?: string }> = [];
      for (const item of Array.isArray(items) ? items : []) {
        try {
          out.push({ id: ((await upload(item)) as { id: string }).id });
        } catch (err) {
          out.push({ error: (err as Error).message });
        }
      }
      return out;
    },
    async uploadFromDataUrl(dataUrl: unknown, name?: unknown) {
      const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(String(dataUrl ?? ''));
      if (!match) throw new TypeError('spindle.images.uploadFromDataUrl expects a data: URL.');
      const data = match[2] ? fromBase64(match[3]) : new TextEncoder().encode(decodeURIComponent(match[3]!));
      const o = (options(name) ?? {}) as Record<string, unknown>;
      const filename = typeof name === 'string' ? name : o.originalFilename;
      return upload({ data, ...(match[1] ? { mime_type: match[1] } : {}), ...(typeof filename === 'string' ? { filename } : {}), ...(typeof o.owner_character_id === 'string' ? { owner_character_id: o.owner_character_id } : {}), ...(typeof o.owner_chat_id === 'string' ? { owner_chat_id: o.owner_chat_id } : {}) });
    },
    delete: (imageId: unknown) => requests.call('images.delete', { args: [String(imageId ?? '')] }),
    deleteMany: (imageIds: unknown) => requests.call('images.deleteMany', { args: [Array.isArray(imageIds) ? imageIds.map(String) : []] }),
  };
}

/**
 * spindle.imageGen: each call asks the host (its connections that make images). No provider here sends previews
 * (SwarmUI's and ComfyUI's, in Lumiverse), so a stream is the finished image alone: its one `done` event, or the
 * generation's error; an abort before it ends the stream with the signal's reason.
 */
export function createImageGen(requests: HostRequests, refusal: () => Error | null): Record<string, unknown> {
  const ask = (method: 'generate' | 'getProviders' | 'listConnections' | 'getConnection' | 'getModels') => (...args: unknown[]) =>
    requests.call(`imageGen.${method}`, { args: args.filter(isData).map(plainInput) } as never);
  return {
    generate: ask('generate'),
    getProviders: ask('getProviders'),
    listConnections: ask('listConnections'),
    getConnection: ask('getConnection'),
    getModels: ask('getModels'),
    generateStream: async function* stream(input?: unknown): AsyncGenerator<{ type: 'done'; result: unknown }, void, void> {
      const refused = refusal();
      if (refused) throw refused;
      const signal = (input as { signal?: unknown } | undefined)?.signal;
      const aborted = signal instanceof AbortSignal ? signal : undefined;
      aborted?.throwIfAborted();
      // The signal stays here and ends the host's generation (the request's cancel), as Lumiverse's closes its stream.
      const result = await requests.call('imageGen.generate', { args: [input].filter(isData).map(plainInput) } as never, aborted);
      yield { type: 'done', result };
    },
  };
}

/** What crosses to the host: no function, and no AbortSignal (Lumiverse's generateStream takes one); they stay here. */
const isData = (value: unknown) => typeof value !== 'function' && !(value instanceof AbortSignal);

/** A request object as data (its own signal and functions left out). */
function plainInput(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, value]) => isData(value)));
}
