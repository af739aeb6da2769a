// The fit verdict before a download: from a GGUF's header alone — a file, or a URL read with Range requests (the
// file itself is never fetched) — this machine says whether the model runs on the GPU, the CPU, or not at all.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSource } from '../../../electron/core/local-model/model-download';
import { cli } from '../../helpers/cli-run';
import type { ModelFit } from '../../../shared/local-model/engine-contract';
import { tinyGguf } from '../../fixtures/local-model/tiny-gguf';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';

const BODY = tinyGguf();
/** The file as served: the GGUF and 8 MB after it, so a reader that fetched the whole file would show. */
const SERVED = Buffer.concat([BODY, Buffer.alloc(8 * 1024 * 1024)]);
let server: http.Server;
let origin: string;
let bytesServed = 0;
let rig: ChatRig;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/not-a-model.gguf') return void res.writeHead(200, { 'content-length': '9' }).end('not gguf!');
    if (req.url !== '/m/tiny.gguf') return void res.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    const from = range ? Number(range[1]) : 0;
    const to = range && range[2] ? Math.min(Number(range[2]), SERVED.length - 1) : SERVED.length - 1;
    const part = SERVED.subarray(from, to + 1);
    bytesServed += req.method === 'HEAD' ? 0 : part.length;
    res.writeHead(range ? 206 : 200, { 'content-length': String(part.length), 'accept-ranges': 'bytes', ...(range ? { 'content-range': `bytes ${from}-${to}/${SERVED.length}` } : {}) });
    res.end(req.method === 'HEAD' ? undefined : part);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  rig = await chatRig();
});
afterAll(async () => {
  await rig?.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  cleanupTempDirs();
});

describe('the fit verdict', () => {
  it('a URL: its header is read, and this machine (no GPU here) runs it on the CPU, with the memory it needs', async () => {
    const fit = (await rig.call('models.fit', { source: `${origin}/m/tiny.gguf` })).value as ModelFit;
    expect(fit).toMatchObject({ verdict: 'cpu', name: 'tiny-random-llama', architecture: 'llama', trainContextSize: 2048, contextSize: 2048, gpu: false, gpuLayers: 0, totalLayers: 3 });
    expect(fit.sizeBytes).toBeGreaterThan(400_000);
    expect(fit.ramBytes).toBeGreaterThan(fit.sizeBytes);
    expect(fit.freeRamBytes).toBeGreaterThan(0);
    // Only its beginning came over the network, not the file.
    expect(bytesServed).toBeLessThan(SERVED.length / 2);
  });

  it('a file on disk gives the same verdict; a file that is no GGUF is named', async () => {
    const file = path.join(tempDir('cw-fit-'), 'tiny.gguf');
    fs.writeFileSync(file, BODY);
    expect((await rig.call('models.fit', { source: file })).value).toMatchObject({ verdict: 'cpu', name: 'tiny-random-llama' });
    expect(await rig.call('models.fit', { source: `${origin}/not-a-model.gguf` })).toMatchObject({ ok: false, error: { code: 'LLM_MODEL_LOAD_FAILED' } });
    expect(await rig.call('models.fit', { source: 'ftp://example.org/m.gguf' })).toMatchObject({ ok: false, error: { code: 'LLM_MODEL_LOAD_FAILED' } });
  });

  it('the CLI says it in words', async () => {
    const { code, out } = await cli(['models', 'fit', `${origin}/m/tiny.gguf`, '--data-dir', tempDir('cw-fit-cli-')]);
    expect(code).toBe(0);
    expect(out).toMatch(/^tiny-random-llama \[llama\], [\d.]+ MB: runs on the CPU — needs [\d.]+ MB of RAM with a 2048-token context \([\d.]+ (MB|GB) free now\)\.$/);
  });

  it('the suggested models each name a source a download takes, with size, licence and context', async () => {
    const list = (await rig.call('models.suggested', {})).value as Array<{ name: string; source: string; sizeBytes: number; licence: string; contextLength: number }>;
    expect(list.length).toBeGreaterThanOrEqual(4);
    for (const m of list) {
      expect(resolveSource(m.source, {}).url).toMatch(/^https:\/\/huggingface\.co\/.+\/resolve\/main\/.+\.gguf$/);
      expect(m.sizeBytes).toBeGreaterThan(100_000_000);
      expect(m.licence.length).toBeGreaterThan(0);
      expect(m.contextLength).toBeGreaterThanOrEqual(8192);
    }
  });
});
