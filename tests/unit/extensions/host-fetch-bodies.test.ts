// The worker's fetch hands the host a request body as fetch would send it: text as text, anything else (bytes, a
// Blob, a form, a stream) as base64 with the content type the platform gives it; past one request frame, refused.
import { describe, expect, it } from 'vitest';
import { hostFetch, MAX_BINARY_BODY_BYTES } from '../../../electron/worker/host-fetch';

function setup() {
  const sent: Array<{ url: string; init: { method: string; headers: Record<string, string>; body?: string; bodyEncoding?: string } }> = [];
  const fetch = hostFetch({
    cors: async (url, init) => (sent.push({ url, init }), { status: 200, statusText: 'OK', headers: {}, body: '' }),
    granted: () => true,
    refused: () => undefined,
  });
  return { fetch, sent };
}

describe("a backend fetch's request body", () => {
  it('goes as text when it is text, as base64 with its type when it is not', async () => {
    const { fetch, sent } = setup();
    await fetch('https://example.com/a', { method: 'POST', body: 'plain' });
    await fetch('https://example.com/b', { method: 'POST', body: new Uint8Array([0, 255]) });
    await fetch('https://example.com/c', { method: 'POST', body: new Blob(['{}'], { type: 'application/json' }) });
    await fetch(new Request('https://example.com/d', { method: 'PUT', body: new Uint8Array([7]), headers: { 'content-type': 'application/octet-stream' } }));
    expect(sent.map((s) => [s.init.body, s.init.bodyEncoding, s.init.headers['content-type']])).toEqual([
      ['plain', undefined, undefined],
      ['AP8=', 'base64', undefined],
      ['e30=', 'base64', 'application/json'],
      ['Bw==', 'base64', 'application/octet-stream'],
    ]);
    // A type the caller gave wins over the platform's.
    await fetch('https://example.com/e', { method: 'POST', body: new Blob(['x'], { type: 'text/plain' }), headers: { 'content-type': 'application/x-custom' } });
    expect(sent.at(-1)!.init.headers['content-type']).toBe('application/x-custom');
  });

  it('refuses a body past one request frame before anything is sent', async () => {
    const { fetch, sent } = setup();
    await expect(fetch('https://example.com/big', { method: 'POST', body: new Uint8Array(MAX_BINARY_BODY_BYTES + 1) })).rejects.toThrow(/at most 8388608 bytes/);
    expect(sent).toEqual([]);
  });
});
