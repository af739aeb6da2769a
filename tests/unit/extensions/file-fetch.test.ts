// A backend's fetch of a file: URL (Bun's fetch reads them; Lumiverse's backends load what they ship so): answered by
// the reader of the extension's folder, GET or HEAD only; every other URL goes on to the host's fetch unchanged.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { withFileUrls } from '../../../electron/worker/file-fetch';
import { bunFile } from '../../../electron/worker/bun/bun-file';
import type { SpindleStorage } from '../../../electron/worker/spindle/storage';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';

afterEach(cleanupTempDirs);

function setup() {
  const networkCalls: unknown[] = [];
  const network = (async (input: unknown) => {
    networkCalls.push(input);
    return new Response('from the network');
  }) as typeof fetch;
  const read = async (url: URL) => {
    if (url.pathname === '/ext/data/index.json') return new TextEncoder().encode('{"campaigns":2}');
    if (url.pathname.startsWith('/ext/')) throw Object.assign(new Error(`ENOENT: no such file, open '${url.pathname}'`), { code: 'ENOENT' });
    throw Object.assign(new Error('Bun.file: only the extension folder'), { code: 'PATH_NOT_ALLOWED' });
  };
  return { fetch: withFileUrls(network, read), networkCalls };
}

describe("a backend's fetch of file: URLs", () => {
  it('answers its own file as a Response with its type and length, without the network', async () => {
    const { fetch, networkCalls } = setup();
    const response = await fetch(new URL('file:///ext/data/index.json'));
    expect(response.status).toBe(200);
    expect(response.url).toBe('file:///ext/data/index.json');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).toBe('15');
    expect(await response.json()).toEqual({ campaigns: 2 });
    const head = await fetch(new Request('file:///ext/data/index.json', { method: 'HEAD' }));
    expect(head.body).toBeNull();
    expect(networkCalls).toEqual([]);
  });

  it('refuses writes, a path outside the folder (PATH_NOT_ALLOWED) and a missing file (a TypeError, as a failed fetch)', async () => {
    const { fetch, networkCalls } = setup();
    await expect(fetch('file:///ext/data/index.json', { method: 'POST', body: 'x' })).rejects.toThrow(/only read \(GET\), not POST/);
    await expect(fetch('file:///etc/hostname')).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    const missing = fetch('FILE:///ext/none.json');
    await expect(missing).rejects.toBeInstanceOf(TypeError);
    await expect(missing).rejects.toMatchObject({ message: expect.stringContaining('no such file'), cause: { code: 'ENOENT' } });
    expect(networkCalls).toEqual([]);
  });

  it('hands every other URL to the host fetch as it was given', async () => {
    const { fetch, networkCalls } = setup();
    const request = new Request('https://example.com/a');
    expect(await (await fetch(request)).text()).toBe('from the network');
    await fetch('http://127.0.0.1:9/x');
    expect(networkCalls).toEqual([request, 'http://127.0.0.1:9/x']);
  });
});

describe("a file: URL read from a real extension folder, as the worker wires it (Bun.file's rules)", () => {
  function folderFetch() {
    const root = tempDir('cw-file-fetch-');
    const folder = path.join(root, 'ext');
    fs.mkdirSync(path.join(folder, 'campaigns'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'campaigns', 'index.json'), '{"campaigns":["Harbour"]}');
    fs.writeFileSync(path.join(root, 'secret.txt'), 'not the extension\'s');
    // A link out of the folder, as a folder placed by hand may hold.
    fs.symlinkSync(path.join(root, 'secret.txt'), path.join(folder, 'campaigns', 'linked.txt'));
    const files = bunFile({ folder, storage: {} as SpindleStorage });
    const network = (async () => new Response('network')) as typeof fetch;
    const url = (relative: string) => pathToFileURL(path.join(folder, relative)).href;
    return { fetch: withFileUrls(network, (u) => files.file(u).bytes()), folder, url };
  }

  it('reads its own file; a link out, an encoded way out, another host and the folder itself are PATH_NOT_ALLOWED; a missing file is a failed fetch', async () => {
    const { fetch, folder, url } = folderFetch();
    expect(await (await fetch(url('campaigns/index.json'))).json()).toEqual({ campaigns: ['Harbour'] });
    const refused = { code: 'PATH_NOT_ALLOWED' };
    await expect(fetch(url('campaigns/linked.txt'))).rejects.toMatchObject(refused);
    await expect(fetch(`${url('campaigns')}/..%2f..%2fsecret.txt`)).rejects.toMatchObject(refused);
    await expect(fetch(`${url('campaigns')}/%2e%2e/%2e%2e/secret.txt`)).rejects.toMatchObject(refused);
    await expect(fetch(`file://elsewhere${pathToFileURL(path.join(folder, 'campaigns', 'index.json')).pathname}`)).rejects.toMatchObject(refused);
    await expect(fetch(pathToFileURL(folder).href)).rejects.toMatchObject(refused);
    await expect(fetch(url('campaigns/none.json'))).rejects.toMatchObject({ name: 'TypeError', cause: { code: 'ENOENT' } });
  });
});
