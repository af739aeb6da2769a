// Bun's fetch reads `file:` URLs, and backends written for Lumiverse load what they ship that way
// (`fetch(new URL('./campaigns/index.json', import.meta.url))`). Here such a URL is answered from the extension's own
// folder as Bun.file reads it (read only; any other path refused as Bun.file refuses it), and every other URL goes on
// to the host's fetch, under its grant.
import { contentTypeFor } from '../../shared/content-types';

/** Reads a file as Bun.file does: the extension's folder only, a refusal (PATH_NOT_ALLOWED) otherwise. */
export type ReadFile = (url: URL) => Promise<Uint8Array>;

export function withFileUrls(network: typeof globalThis.fetch, read: ReadFile): typeof globalThis.fetch {
  return async function fetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
    const href = input instanceof Request ? input.url : String(input);
    if (!/^file:/i.test(href)) return network(input, init);
    const url = new URL(href);
    const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') throw new TypeError(`fetch: a file: URL is only read (GET), not ${method}.`);
    let bytes: Uint8Array;
    try {
      bytes = await read(url);
    } catch (err) {
      if ((err as { code?: string })?.code === 'PATH_NOT_ALLOWED') throw err;
      // As a failed fetch: a TypeError, the reason (no such file) in its message and cause.
      throw new TypeError(`fetch failed: ${(err as Error)?.message ?? String(err)}`, { cause: err });
    }
    const response = new Response(method === 'HEAD' ? null : (bytes as Uint8Array<ArrayBuffer>), { status: 200, headers: { 'content-type': contentTypeFor(url.pathname), 'content-length': String(bytes.byteLength) } });
    Object.defineProperty(response, 'url', { value: url.href });
    return response;
  };
}
