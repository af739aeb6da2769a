// spindle.images as Lumiverse's published extensions use it (LumiStage keeps its sprites so): images kept in the
// extension's own data, in Lumiverse's ImageDTO shape, with the images permission, capped, and shown to its frames from
// their own origin at the DTO's url.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PIXEL as PNG } from '../../helpers/png';
import { withPngTextChunks } from '../../../electron/core/imports/png-text';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';
import { waitFor } from './harness';
import { frameFile } from '../../../electron/core/extensions/frontend-files';
import { frameLabel } from '../../../shared/frames/frame-origin';
import { MAX_IMAGE_BYTES } from '../../../electron/core/extensions/spindle-host/extension-images';

let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

/** An extension whose `run` tool runs one spindle.images call it is given and answers its outcome. */
async function withImages(granted: string[]): Promise<ChatRig> {
  rig = await chatRig();
  const dir = path.join(tempDir('cw-images-'), 'sprite_keeper');
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier: 'sprite_keeper', name: 'Sprite Keeper', version: '1.0.0', author: 'A', permissions: ['tools', 'images', 'characters'], entry_backend: 'dist/backend.js', entry_frontend: 'dist/frontend.js' }));
  fs.writeFileSync(path.join(dir, 'dist', 'frontend.js'), 'export function setup() {}\n');
  fs.writeFileSync(
    path.join(dir, 'dist', 'backend.js'),
    `spindle.registerTool({ name: 'run', display_name: 'run', description: 'run', parameters: { type: 'object', properties: {} } });
const png = Uint8Array.from(atob('${PNG.toString('base64')}'), (c) => c.charCodeAt(0));
const steps = {
  upload: () => spindle.images.upload({ data: png, filename: 'a.png', owner_chat_id: 'chat-1' }),
  fromDataUrl: () => spindle.images.uploadFromDataUrl('data:image/png;base64,${PNG.toString('base64')}', { originalFilename: 'b.png' }),
  many: () => spindle.images.uploadMany([{ data: png }, { data: new TextEncoder().encode('<svg onload="x()"/>'), mime_type: 'image/svg+xml' }]),
  huge: () => spindle.images.upload({ data: new Uint8Array(${MAX_IMAGE_BYTES + 1}) }),
  // A video variant as LumiStage uploads one (an MP4's first box; strip_audio is Lumiverse's media pipeline's to honour).
  // An AVIF image shares the MP4's first box: its brand says it is no video (and no image kept here).
  avif: () => spindle.images.upload({ data: new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112, 97, 118, 105, 102, 0, 0, 0, 0, 109, 105, 102, 49, 97, 118, 105, 102]), filename: 'a.avif' }),
  video: () => spindle.images.upload({ data: new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112, 105, 115, 111, 109, 0, 0, 2, 0, 105, 115, 111, 109, 109, 112, 52, 49]), filename: 'idle.mp4', mime_type: 'video/mp4', strip_audio: true }),
  list: () => spindle.images.list({ chatId: 'chat-1' }),
  all: () => spindle.images.list(),
};
spindle.on('TOOL_INVOCATION', async ({ args }) => {
  try {
    if (args.step === 'get') return { ok: true, value: await spindle.images.get(args.id) };
    if (args.step === 'delete') return { ok: true, value: [await spindle.images.delete(args.id), await spindle.images.delete(args.id)] };
    return { ok: true, value: await steps[args.step]() };
  } catch (err) {
    return { ok: false, code: err.code, message: err.message };
  }
});
`,
  );
  await rig.host.extensions.installFromFolder(dir, { grant: granted as never, trust: true }, () => undefined);
  await waitFor(() => rig!.host.registry.list().some((t) => t.qualifiedName === 'sprite_keeper:run'), 'sprite_keeper to run');
  return rig;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- what the extension answered: checked by each assertion
type Outcome = { ok: boolean; value?: any; code?: string; message?: string };
async function run(r: ChatRig, args: Record<string, unknown>): Promise<Outcome> {
  const outcome = await r.host.registry.invoke('sprite_keeper:run', args, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return JSON.parse(outcome.content) as Outcome;
}

describe('spindle.images', () => {
  it('keeps an image in its own data and answers Lumiverse ImageDTOs; lists by chat; gets; deletes once; the frame origin serves it at its url', async () => {
    const r = await withImages(['tools', 'images']);
    const uploaded = await run(r, { step: 'upload' });
    expect(uploaded.value).toMatchObject({ original_filename: 'a.png', mime_type: 'image/png', width: 1, height: 1, has_thumbnail: false, specificity: 'full', owner_extension_identifier: 'sprite_keeper', owner_chat_id: 'chat-1', owner_character_id: null });
    const id = uploaded.value.id as string;
    expect(uploaded.value.url).toBe(`/api/v1/images/${id}`);
    expect((await run(r, { step: 'fromDataUrl' })).value).toMatchObject({ original_filename: 'b.png', mime_type: 'image/png' });
    // One of many is refused (an SVG is never kept: it would run script on the frame's origin); the rest are kept.
    const many = await run(r, { step: 'many' });
    expect(many.value).toEqual([{ id: expect.any(String) }, { error: expect.stringContaining('not a PNG, JPEG, GIF or WebP image') }]);
    expect(await run(r, { step: 'huge' })).toMatchObject({ ok: false, code: 'INPUT_TOO_LARGE' });
    // A video is kept as Lumiverse's image/video assets are, and its frames get it with its type.
    const video = await run(r, { step: 'video' });
    expect(video.value).toMatchObject({ original_filename: 'idle.mp4', mime_type: 'video/mp4', width: null, height: null });
    const clip = await r.call('extensions.pageRequest', { id: 'sprite_keeper', method: 'GET', path: `/api/v1/images/${video.value.id}`, headers: {} });
    expect(clip).toMatchObject({ ok: true, value: { status: 200, headers: { 'content-type': 'video/mp4' } } });
    expect(frameFile(frameLabel('sprite_keeper'), `/api/v1/images/${video.value.id}`, r.dataDir, () => null, (l) => r.host.extensions.frames.imagesFolder(l))).toMatch(/\.mp4$/);
    expect(await run(r, { step: 'avif' })).toMatchObject({ ok: false, code: 'INVALID_INPUT', message: expect.stringContaining('not a PNG, JPEG, GIF or WebP image, or an MP4 or WebM video') });
    expect((await run(r, { step: 'list' })).value).toMatchObject({ total: 1, data: [{ id }] });
    expect((await run(r, { step: 'all' })).value.total).toBe(4);
    expect((await run(r, { step: 'get', id })).value).toMatchObject({ id });
    // Its frames get the bytes at the url, from the extension's own origin only.
    const label = frameLabel('sprite_keeper');
    const served = frameFile(label, `/api/v1/images/${id}`, r.dataDir, (l) => r.host.extensions.frames.frontendFolder(l), (l) => r.host.extensions.frames.imagesFolder(l));
    expect(fs.readFileSync(served!)).toEqual(PNG);
    expect(frameFile(frameLabel('another_one'), `/api/v1/images/${id}`, r.dataDir, () => null, (l) => r.host.extensions.frames.imagesFolder(l))).toBeNull();
    expect(frameFile(label, '/api/v1/images/../index.json', r.dataDir, () => null, (l) => r.host.extensions.frames.imagesFolder(l))).toBeNull();
    // A fetch of the url from its frame (for a blob or a canvas) answers the bytes and their type.
    const fetched = await r.call('extensions.pageRequest', { id: 'sprite_keeper', method: 'GET', path: `/api/v1/images/${id}`, headers: {} });
    expect(fetched).toMatchObject({ ok: true, value: { status: 200, headers: { 'content-type': 'image/png' }, bodyEncoding: 'base64' } });
    expect(Buffer.from((fetched.value as { body: string }).body, 'base64')).toEqual(PNG);
    expect((await run(r, { step: 'delete', id })).value).toEqual([true, false]);
    expect((await run(r, { step: 'get', id })).value).toBeNull();
    expect(frameFile(label, `/api/v1/images/${id}`, r.dataDir, () => null, (l) => r.host.extensions.frames.imagesFolder(l))).toBeNull();
  }, 60_000);

  it('needs the images permission, as in Lumiverse; revoked, its frames are served its images no more', async () => {
    const r = await withImages(['tools', 'images']);
    const id = (await run(r, { step: 'upload' })).value.id as string;
    const label = frameLabel('sprite_keeper');
    const serve = () => frameFile(label, `/api/v1/images/${id}`, r.dataDir, (l) => r.host.extensions.frames.frontendFolder(l), (l) => r.host.extensions.frames.imagesFolder(l));
    expect(serve()).not.toBeNull();
    await r.host.extensions.revoke('sprite_keeper', ['images']);
    expect(serve()).toBeNull();
    expect(await r.call('extensions.pageRequest', { id: 'sprite_keeper', method: 'GET', path: `/api/v1/images/${id}`, headers: {} })).toMatchObject({ value: { status: 404 } });
    expect(await run(r, { step: 'upload' })).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
    expect(await run(r, { step: 'all' })).toMatchObject({ ok: false, code: 'PERMISSION_DENIED' });
  }, 60_000);
});

describe('images a message shows by their Lumiverse address', () => {
  it("an extension's kept image (a generator wrote ![..](/api/v1/images/<id>) into a reply) as a data URL; nothing for an unknown id or once images is revoked", async () => {
    const r = await withImages(['tools', 'images']);
    const id = (await run(r, { step: 'upload' })).value.id as string;
    expect(await r.call('extensions.image', { imageId: id })).toEqual({ ok: true, value: { dataUrl: `data:image/png;base64,${PNG.toString('base64')}` } });
    for (const imageId of ['00000000-0000-4000-8000-000000000000', '../index', 'avatar-no-such-session']) {
      expect(await r.call('extensions.image', { imageId })).toEqual({ ok: true, value: { dataUrl: null } });
    }
    expect(await r.call('extensions.image', { imageId: '' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    await r.host.extensions.revoke('sprite_keeper', ['images']);
    expect(await r.call('extensions.image', { imageId: id })).toEqual({ ok: true, value: { dataUrl: null } });
  }, 60_000);
});

describe('the image index', () => {
  it('survives a restart; a record not in the shape this host writes (a planted "../" id, an unknown kind) is left out, and nothing outside the folder is touched', async () => {
    const { ExtensionImages } = await import('../../../electron/core/extensions/spindle-host/extension-images');
    const root = tempDir('cw-image-index-');
    const clock = { now: () => 1_000 };
    const first = new ExtensionImages(root, clock).handlers();
    const caller = { extensionId: 'ext_a', allowed: () => true };
    const call = { signal: new AbortController().signal, emit: () => undefined };
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const kept = first['images.upload']({ data: gif.toString('base64'), filename: 'dot.gif' }, caller, call) as { id: string; mime_type: string; width: number };
    expect(kept).toMatchObject({ mime_type: 'image/gif', width: 1 });
    // Plant records beside it, as a hand or an older layout might.
    const index = path.join(root, 'ext_a', 'images', 'index.json');
    const outside = path.join(root, 'ext_a', 'precious.png');
    fs.writeFileSync(outside, 'keep me');
    const records = JSON.parse(fs.readFileSync(index, 'utf8')) as object[];
    fs.writeFileSync(index, JSON.stringify([...records, { id: '../precious', original_filename: 'x', mime_type: 'image/png', bytes: 1 }, { id: '00000000-0000-0000-0000-000000000000', original_filename: 'y', mime_type: 'text/html', bytes: 1 }]));
    const second = new ExtensionImages(root, clock);
    expect((second.handlers()['images.list']({}, caller, call) as { total: number }).total).toBe(1);
    expect(second.handlers()['images.delete']({ imageId: '../precious' }, caller, call)).toBe(false);
    expect(fs.readFileSync(outside, 'utf8')).toBe('keep me');
    expect(second.read('ext_a', kept.id)).toMatchObject({ mime: 'image/gif' });
    expect(second.read('ext_b', kept.id)).toBeNull();
  });

  it('an extension that cannot delete its images keeps only its newest generated ones; its own uploads and, with images, every one stay', async () => {
    const { ExtensionImages } = await import('../../../electron/core/extensions/spindle-host/extension-images');
    const images = new ExtensionImages(tempDir('cw-generated-'), { now: () => 1_000 });
    const made = [1, 2, 3].map(() => images.add('ext_a', PNG, { generated: true, keepGenerated: 2 }).id);
    expect(images.read('ext_a', made[0]!)).toBeNull();
    expect(images.read('ext_a', made[1]!, { generated: true })).toMatchObject({ mime: 'image/png' });
    expect(images.read('ext_a', made[2]!)).toMatchObject({ mime: 'image/png' });
    const uploaded = images.add('ext_a', PNG).id;
    images.add('ext_a', PNG, { generated: true, keepGenerated: 2 });
    expect(images.read('ext_a', uploaded)).toMatchObject({ mime: 'image/png' });
    expect(images.read('ext_a', uploaded, { generated: true })).toBeNull();
    expect(images.read('ext_a', made[1]!)).toBeNull();
  });

  it("answers a character's image_id as Lumiverse's images do, to an extension that may read characters (SuperDeduper's avatars); no picture, no permission or a made-up id is null", async () => {
    const r = await withImages(['tools', 'images', 'characters']);
    const card = withPngTextChunks(PNG, { chara: Buffer.from(JSON.stringify({ spec: 'chara_card_v2', data: { name: 'Mara', description: 'Keeper.' } })).toString('base64') });
    const id = ((await r.call('chat.sessions.importData', { data: card.toString('base64') })).value as { id: string }).id;
    const plain = ((await r.call('chat.sessions.create', {})).value as { id: string }).id;
    const got = await run(r, { step: 'get', id: `avatar-${id}` });
    expect(got.value).toMatchObject({ id: `avatar-${id}`, mime_type: 'image/png', width: 1, height: 1, url: `/api/v1/images/avatar-${id}`, owner_character_id: id, has_thumbnail: false });
    expect((await run(r, { step: 'get', id: `avatar-${plain}` })).value).toBeNull();
    expect((await run(r, { step: 'get', id: 'avatar-..%2Fchats.db' })).value).toBeNull();
    // Its own images are listed as before: a character's picture is not one of them.
    expect((await run(r, { step: 'all' })).value.total).toBe(0);
    await r.host.extensions.revoke('sprite_keeper', ['characters']);
    expect((await run(r, { step: 'get', id: `avatar-${id}` })).value).toBeNull();
  }, 60_000);
});
