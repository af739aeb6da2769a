// spindle.imageGen through a real host and worker, against the fake server's OpenAI Images API on 127.0.0.1: a
// published-style extension (TypeScript built at install) finds the person's image connection, makes a portrait kept
// with its images, and meets each refusal in the words Lumiverse uses; the key never leaves the host.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs } from '../../helpers/temp-dir';
import { PIXEL } from '../../helpers/png';
import { addMainConnection, chatRig, type ChatRig } from '../chat/helpers';
import { fixture, waitFor } from './harness';

const ID = 'lumiverse_imagegen';
const KEY = 'sk-image-canary-41';
let rig: ChatRig;

beforeEach(async () => {
  rig = await chatRig();
  // The chat's connection makes no images: it is not one of imageGen's.
  await addMainConnection(rig);
});
afterEach(async () => {
  await rig.close();
  cleanupTempDirs();
});

async function install(grant: string[] = ['tools', 'image_gen', 'images']): Promise<void> {
  await rig.host.extensions.installFromFolder(fixture(ID), { grant: grant as never }, () => undefined);
  await waitFor(() => rig.host.registry.get(`${ID}:portrait`), 'the fixture to register its tools');
}

async function imageConnection(id = 'pictures', imageModel = 'gpt-image-1'): Promise<void> {
  const saved = await rig.call('connections.save', {
    profile: { id, name: 'Pictures', provider: 'openai-compatible', baseUrl: `${rig.server.origin}/v1`, defaultModel: '', imageModel },
    key: KEY,
  });
  if (!saved.ok) throw new Error(JSON.stringify(saved.error));
}

type Attempt = { ok: boolean; value?: Record<string, unknown> & Array<Record<string, unknown>>; code?: string; message?: string };
async function portrait(args: Record<string, unknown> = {}): Promise<Record<string, Attempt | null>> {
  const outcome = await rig.host.registry.invoke(`${ID}:portrait`, args, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return JSON.parse(outcome.content) as Record<string, Attempt | null>;
}

describe('spindle.imageGen', () => {
  it('makes a portrait through the image connection, kept with its images and tagged with its chat; the key stays in the host', async () => {
    await imageConnection();
    await install();
    rig.server.enqueueImages({ kind: 'image', bytes: PIXEL });
    const got = await portrait({ prompt: 'Mara at the lamp' });
    expect(got.connections).toEqual({ ok: true, value: [expect.objectContaining({ id: 'pictures', provider: 'openai', api_url: `${rig.server.origin}/v1`, model: 'gpt-image-1', is_default: true, has_api_key: true })] });
    expect(got.models).toEqual({ ok: true, value: [{ id: 'gpt-image-1', label: 'gpt-image-1' }] });
    expect(got.providers).toMatchObject({ ok: true, value: [{ id: 'openai', capabilities: { parameters: { size: { type: 'select' } } } }] });
    const made = got.made!;
    expect(made).toMatchObject({ ok: true, value: { imageDataUrl: `data:image/png;base64,${PIXEL.toString('base64')}`, model: 'gpt-image-1', provider: 'openai', imageUrl: expect.stringMatching(/^\/api\/v1\/images\/[0-9a-f-]{36}$/) } });
    expect(got.kept).toMatchObject({ ok: true, value: { id: made.value!.imageId, mime_type: 'image/png', owner_chat_id: 'chat-7', width: 1, height: 1 } });
    expect(fs.readdirSync(path.join(rig.dataDir, 'extension-data', ID, 'images')).some((f) => f === `${made.value!.imageId as string}.png`)).toBe(true);
    // What the server was asked, as Lumiverse's OpenAI provider asks: a GPT image model always answers base64 (no
    // response_format) and gets the least restrictive moderation unless the extension says "auto".
    const [request] = rig.server.imageRequests;
    expect(request!.url).toBe('/v1/images/generations');
    expect(request!.body).toEqual({ model: 'gpt-image-1', prompt: 'Mara at the lamp', n: 1, size: '1024x1024', quality: 'low', moderation: 'low' });
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.stringify(got)).not.toContain(KEY);
    expect(rig.host.extensions.getLogLines(ID).join('\n')).not.toContain(KEY);
  }, 60_000);

  it('a DALL·E or compatible model is asked for base64; a link, a non-image, an error status and an unknown connection each fail with a clear code', async () => {
    await imageConnection('pictures', 'dall-e-3');
    await install();
    rig.server.enqueueImages({ kind: 'url', url: 'https://images.example/1.png' });
    expect((await portrait({ size: 'auto' })).made).toMatchObject({ ok: false, code: 'LLM_BAD_RESPONSE', message: expect.stringContaining('link') });
    // "auto" is left out (DALL·E refuses it), and base64 is asked for.
    expect(rig.server.imageRequests[0]!.body).toEqual({ model: 'dall-e-3', prompt: 'A lighthouse keeper at dusk', n: 1, quality: 'low', response_format: 'b64_json' });
    rig.server.enqueueImages({ kind: 'image', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    expect((await portrait()).made).toMatchObject({ ok: false, code: 'LLM_BAD_RESPONSE', message: expect.stringContaining('not a PNG, JPEG, GIF or WebP') });
    rig.server.enqueueImages({ kind: 'raw', body: '{"data":[{"b64_json":"not base64!"}]}' });
    expect((await portrait()).made).toMatchObject({ ok: false, code: 'LLM_BAD_RESPONSE' });
    // Larger than an image the extension could keep, or its worker take: refused as it comes, never held whole.
    rig.server.enqueueImages({ kind: 'raw', body: `{"data":[{"b64_json":"${'A'.repeat(13 * 1024 * 1024)}"}]}` });
    expect((await portrait()).made).toMatchObject({ ok: false, code: 'LLM_BAD_RESPONSE', message: expect.stringContaining('larger than') });
    rig.server.enqueueImages({ kind: 'error', status: 401 });
    expect((await portrait()).made).toMatchObject({ ok: false, code: 'LLM_AUTH_FAILED' });
    expect((await portrait({ connection: 'local' })).made).toEqual({ ok: false, code: 'UNSUPPORTED_HERE', message: 'Image gen connection not found' });
    // Nothing was kept of the failures.
    expect(fs.existsSync(path.join(rig.dataDir, 'extension-data', ID, 'images'))).toBe(false);
  }, 60_000);

  it("without an image connection it fails in Lumiverse's words, streamed or not; without image_gen, PERMISSION_DENIED", async () => {
    await install();
    const got = await portrait();
    expect(got.connections).toEqual({ ok: true, value: [] });
    expect(got.made).toEqual({ ok: false, code: 'UNSUPPORTED_HERE', message: 'No default image gen connection configured' });
    const stream = await rig.host.registry.invoke(`${ID}:stream`, {}, { timeoutMs: 20_000 });
    expect(JSON.parse((stream as { content: string }).content)).toEqual({ ok: false, code: 'UNSUPPORTED_HERE', message: 'No default image gen connection configured' });
    await rig.host.extensions.revoke(ID, ['image_gen']);
    await imageConnection();
    const denied = await portrait();
    expect(denied.connections).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect(denied.made).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    const deniedStream = await rig.host.registry.invoke(`${ID}:stream`, {}, { timeoutMs: 20_000 });
    expect(JSON.parse((deniedStream as { content: string }).content)).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect(rig.server.imageRequests).toEqual([]);
  }, 60_000);

  it("a stream (Reverie Relay's live preview) is the finished image alone, one done event, kept as generate keeps it", async () => {
    await imageConnection();
    await install();
    rig.server.enqueueImages({ kind: 'image', bytes: PIXEL });
    const stream = await rig.host.registry.invoke(`${ID}:stream`, {}, { timeoutMs: 20_000 });
    expect(JSON.parse((stream as { content: string }).content)).toEqual({ ok: true, value: [{ type: 'done', imageId: expect.stringMatching(/^[0-9a-f-]{36}$/), dataUrl: 'data:image/png;base64,' }] });
    expect(rig.server.imageRequests).toHaveLength(1);
  }, 60_000);

  it('without the images permission the image is still kept as generated (its newest 500): the chat shows it by its url, the extension cannot read it back', async () => {
    await imageConnection();
    await install(['tools', 'image_gen']);
    rig.server.enqueueImages({ kind: 'image', bytes: PIXEL });
    const got = await portrait();
    expect(got.made).toMatchObject({ ok: true, value: { imageDataUrl: `data:image/png;base64,${PIXEL.toString('base64')}`, model: 'gpt-image-1', provider: 'openai', imageId: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    const imageId = got.made!.value!.imageId as string;
    expect(got.kept).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    // The app draws it where a reply names /api/v1/images/<id> (a generated image is the person's own).
    expect(await rig.call('extensions.image', { imageId })).toEqual({ ok: true, value: { dataUrl: `data:image/png;base64,${PIXEL.toString('base64')}` } });
  }, 60_000);
});
