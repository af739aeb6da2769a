// A newcomer's path on the CLI with no key and no server: pull a model (from a local server that answers as Hugging
// Face does, named by HF_ENDPOINT), add a local connection, chat on it. Downloads through the contract: events, pause,
// resume, cancel.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../shared/contract/events';
import type { ModelDownload } from '../../../shared/types/local-models';
import { tinyGguf } from '../../fixtures/local-model/tiny-gguf';
import { cli } from '../../helpers/cli-run';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';

// A 512-token context: the CLI's chat sets no limit, and a reply is at most one context long (random weights never end one).
const BODY = tinyGguf({ contextLength: 512 });
const SHA = createHash('sha256').update(BODY).digest('hex');
let server: http.Server;
let origin: string;
/** Holds the body after its first bytes until released (to pause a download that is running). */
let gate: Promise<void> | null = null;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (!req.url?.endsWith('/resolve/main/tiny.gguf')) return void res.writeHead(404).end();
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
    const headers = { 'x-linked-etag': `"${SHA}"`, 'content-length': String(BODY.length - from) };
    res.writeHead(from ? 206 : 200, from ? { ...headers, 'content-range': `bytes ${from}-${BODY.length - 1}/${BODY.length}` } : headers);
    res.write(BODY.subarray(from, from + 4096));
    const rest = () => res.end(BODY.subarray(from + 4096));
    if (gate) void gate.then(rest);
    else rest();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(cleanupTempDirs);


describe('local models on the CLI', () => {
  it('models pull (hf: against HF_ENDPOINT) with progress, connections add --type local, then a chat with no key and no server', async () => {
    const dir = tempDir('cw-cli-models-');
    const before = process.env.HF_ENDPOINT;
    process.env.HF_ENDPOINT = origin;
    try {
      const pulled = await cli(['models', 'pull', 'hf:someone/tiny-repo/tiny.gguf', '--data-dir', dir]);
      expect(pulled.code, pulled.err).toBe(0);
      expect(pulled.err).toMatch(/0\.5 MB of 0\.5 MB \(100%\) at [\d.]+ MB\/s/);
      expect(pulled.out).toContain('Downloaded tiny  tiny-random-llama [llama] 0.5 MB  context 512');
      expect(pulled.out).toContain('connections add --type local --model tiny');
    } finally {
      if (before === undefined) delete process.env.HF_ENDPOINT;
      else process.env.HF_ENDPOINT = before;
    }
    const listed = JSON.parse((await cli(['models', 'list', '--data-dir', dir, '--json'])).out) as Array<Record<string, unknown>>;
    expect(listed).toEqual([expect.objectContaining({ id: 'tiny', source: { kind: 'download', url: `${origin}/someone/tiny-repo/resolve/main/tiny.gguf`, sha256: SHA }, file: path.join(dir, 'models', 'tiny.gguf') })]);
    const added = await cli(['connections', 'add', '--type', 'local', '--model', 'tiny', '--data-dir', dir, '--json']);
    expect(JSON.parse(added.out)).toMatchObject({ provider: 'local', baseUrl: 'local:models', defaultModel: 'tiny', name: 'Local tiny' });
    const chat = await cli(['chat', '--connection', 'local-tiny', '--message', 'Hello there', '--data-dir', dir, '--json']);
    expect(chat.code, chat.out).toBe(0);
    const reply = JSON.parse(chat.out) as { text: string; usage: { outputTokens: number } };
    expect(reply.text.length).toBeGreaterThan(0);
    expect(reply.usage.outputTokens).toBeGreaterThan(0);
    // A local connection needs a model; an unknown --type is named.
    expect(JSON.parse((await cli(['connections', 'add', '--type', 'local', '--data-dir', dir, '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT', path: '--model' } });
    expect(JSON.parse((await cli(['models', 'pull', 'ftp://x/y.gguf', '--data-dir', dir, '--json'])).out)).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  }, 180_000);

  describe('through the contract', () => {
    let rig: ChatRig;
    afterEach(async () => {
      gate = null;
      await rig?.close();
    });

    it('a download reports as events; pause keeps its part, resume finishes it, and the file joins the library', async () => {
      rig = await chatRig();
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      const source = `${origin}/someone/tiny-repo/resolve/main/tiny.gguf`;
      const started = (await rig.call('models.pull', { source })).value as ModelDownload;
      expect(started).toMatchObject({ state: 'running', source });
      const downloads = () => rig.events.filter((e): e is Extract<HostEvent, { type: 'models.download' }> => e.type === 'models.download').map((e) => e.download);
      for (let i = 0; i < 500 && !downloads().some((d) => d.bytesDone > 0); i++) await new Promise((r) => setTimeout(r, 10));
      const paused = (await rig.call('models.pause', { id: started.id })).value as ModelDownload;
      expect(paused.id).toBe(started.id);
      for (let i = 0; i < 500 && downloads().at(-1)?.state !== 'paused'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(downloads().at(-1)).toMatchObject({ state: 'paused' });
      expect(fs.statSync(path.join(rig.dataDir, 'models', 'tiny.gguf.part')).size).toBe(4096);
      gate = null;
      release();
      await rig.call('models.resume', { id: started.id });
      for (let i = 0; i < 500 && downloads().at(-1)?.state !== 'done'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(downloads().at(-1)).toMatchObject({ state: 'done', modelId: 'tiny', bytesDone: BODY.length, totalBytes: BODY.length });
      expect((await rig.call('models.list', {})).value).toMatchObject([{ id: 'tiny', source: { kind: 'download', sha256: SHA } }]);
      // Removing a downloaded model deletes its file.
      expect(await rig.call('models.remove', { id: 'tiny' })).toMatchObject({ ok: true, value: { deletedFile: true } });
      expect(fs.readdirSync(path.join(rig.dataDir, 'models')).filter((f) => f.endsWith('.gguf'))).toEqual([]);
    });

    it('cancel deletes what arrived; an unknown download is NOT_FOUND', async () => {
      rig = await chatRig();
      gate = new Promise<void>(() => undefined);
      const started = (await rig.call('models.pull', { source: `${origin}/someone/tiny-repo/resolve/main/tiny.gguf` })).value as ModelDownload;
      for (let i = 0; i < 500 && !fs.existsSync(path.join(rig.dataDir, 'models', 'tiny.gguf.part')); i++) await new Promise((r) => setTimeout(r, 10));
      expect(await rig.call('models.cancel', { id: started.id })).toMatchObject({ ok: true, value: { cancelled: true } });
      expect(fs.readdirSync(path.join(rig.dataDir, 'models')).filter((f) => f.includes('tiny'))).toEqual([]);
      expect((await rig.call('models.downloads', {})).value).toEqual([]);
      expect(await rig.call('models.pause', { id: started.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    });
  });
});
