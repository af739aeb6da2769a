// Lumiverse's own image generation as a published frontend asks for it (autoimg: its frontend fetches the person's
// imageGeneration setting, POSTs /api/v1/image-gen/generate with a prompt and the chat, and writes the image's url into
// the reply): answered through the person's image connection on the fake server (127.0.0.1) with image_gen, which its
// manifest does not ask for and the person grants from its card; the image is kept as the extension's generated one.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { PIXEL } from '../../helpers/png';
import { addMainConnection, chatRig, newSession, send, type ChatRig } from '../chat/helpers';
import { waitFor } from './harness';

const ID = 'autoimg_like';
let rig: ChatRig | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  cleanupTempDirs();
});

/** A frontend-only extension with autoimg's manifest: it asks for interceptor, chat_mutation and chats, not image_gen. */
async function install(): Promise<ChatRig> {
  rig = await chatRig();
  const dir = path.join(tempDir('cw-page-image-'), ID);
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier: ID, name: 'Auto Image Tag Replacer', version: '1.0.0', author: 'A', permissions: ['interceptor', 'chat_mutation', 'chats'], entry_frontend: 'src/frontend.js' }));
  fs.writeFileSync(path.join(dir, 'src', 'frontend.js'), 'export function setup() {}\n');
  await rig.host.extensions.installFromFolder(dir, { grant: 'requested' }, () => undefined);
  await waitFor(() => rig!.host.extensions.get(ID).status === 'running', 'the extension to run');
  return rig;
}

async function page(r: ChatRig, method: string, where: string, body?: unknown) {
  const result = await r.call('extensions.pageRequest', { id: ID, method, path: where, headers: body ? { 'content-type': 'application/json' } : {}, ...(body ? { body: JSON.stringify(body), bodyEncoding: 'utf8' } : {}) });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  const answer = result.value as { status: number; headers: Record<string, string>; body: string; bodyEncoding: string };
  return { ...answer, json: answer.headers['content-type']?.includes('json') ? (JSON.parse(answer.body) as Record<string, unknown>) : undefined };
}

describe("Lumiverse's image-gen routes", () => {
  it('make a picture from the prompt through the image connection once the person grants image_gen, kept as its generated image the chat shows', async () => {
    const r = await install();
    const chatId = await newSession(r);
    // Not granted (and not asked for): Lumiverse's error shape, with the permission named.
    expect(await page(r, 'GET', '/api/v1/settings/imageGeneration')).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED' } });
    expect(await page(r, 'POST', '/api/v1/image-gen/generate', { chatId, prompt: 'a lighthouse' })).toMatchObject({ status: 403 });
    // A grant of what its manifest does not ask for needs saying so; then it holds, and says so on its card.
    expect(await r.call('extensions.grant', { id: ID, permission: 'image_gen' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', hint: expect.stringContaining('Other permissions') } });
    expect(await r.call('extensions.grant', { id: ID, permission: 'image_gen', unrequested: true })).toMatchObject({ ok: true, value: { granted: expect.arrayContaining(['image_gen']), requested: ['interceptor', 'chat_mutation', 'chats'] } });
    expect(r.host.extensions.getLogLines(ID).join('\n')).toContain('not requested by its manifest: image_gen');
    // What the Workbench does not have is not granted beyond what a manifest asks.
    expect(await r.call('extensions.grant', { id: ID, permission: 'oauth', unrequested: true })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('not available here') } });

    // No image connection yet: no setting, and Lumiverse's words for the generation.
    expect(await page(r, 'GET', '/api/v1/settings/imageGeneration')).toMatchObject({ status: 404, json: { error: 'Setting not found' } });
    expect(await page(r, 'POST', '/api/v1/image-gen/generate', { chatId, prompt: 'a lighthouse' })).toMatchObject({ status: 400, json: { error: 'No default image gen connection configured' } });

    const saved = await r.call('connections.save', { profile: { id: 'pictures', name: 'Pictures', provider: 'openai-compatible', baseUrl: `${r.server.origin}/v1`, defaultModel: '', imageModel: 'gpt-image-1' }, key: 'sk-x' });
    expect(saved.ok).toBe(true);
    const setting = await page(r, 'GET', '/api/v1/settings/imageGeneration');
    expect(setting.json).toMatchObject({ key: 'imageGeneration', value: { enabled: true, provider: 'openai', connectionId: 'pictures', model: 'gpt-image-1' } });
    // As autoimg asks: the setting's value spread into the body, with its prompt and the chat.
    r.server.enqueueImages({ kind: 'image', bytes: PIXEL });
    const made = await page(r, 'POST', '/api/v1/image-gen/generate', { ...(setting.json!.value as object), prompt: 'a lighthouse at dusk <lora:x:1>', chatId, forceGeneration: true, skipParse: true });
    expect(made).toMatchObject({ status: 200, json: { generated: true, prompt: 'a lighthouse at dusk <lora:x:1>', provider: 'openai', imageId: expect.stringMatching(/^[0-9a-f-]{36}$/), imageUrl: expect.stringMatching(/^\/api\/v1\/images\/[0-9a-f-]{36}$/) } });
    expect(r.server.imageRequests.at(-1)!.body).toMatchObject({ model: 'gpt-image-1', prompt: 'a lighthouse at dusk <lora:x:1>' });
    const imageId = made.json!.imageId as string;
    // Lumiverse's results address serves it; the chat draws it where a reply names its url.
    const result = await page(r, 'GET', `/api/v1/image-gen/results/${imageId}`);
    expect(result).toMatchObject({ status: 200, headers: { 'content-type': 'image/png' } });
    expect(Buffer.from(result.body, 'base64')).toEqual(PIXEL);
    expect(await r.call('extensions.image', { imageId })).toEqual({ ok: true, value: { dataUrl: `data:image/png;base64,${PIXEL.toString('base64')}` } });
    // Without a chat, or with a mode Lumiverse has not: refused, saying why; nothing asked of the server.
    const asked = r.server.imageRequests.length;
    expect(await page(r, 'POST', '/api/v1/image-gen/generate', { prompt: 'x' })).toMatchObject({ status: 400, json: { error: 'chatId is required' } });
    expect(await page(r, 'POST', '/api/v1/image-gen/generate', { chatId, promptMode: 'dream' })).toMatchObject({ status: 400, json: { code: 'INVALID_INPUT', error: expect.stringContaining('promptMode') } });
    // Without a prompt a model writes one from the chat (Lumiverse's scene mode): an empty chat has nothing to picture.
    expect(await page(r, 'POST', '/api/v1/image-gen/generate', { chatId })).toMatchObject({ status: 400, json: { code: 'INVALID_INPUT', error: 'The chat has no messages to picture.' } });
    expect(await page(r, 'GET', '/api/v1/image-gen/results/00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404 });
    expect(r.server.imageRequests).toHaveLength(asked);
    // Revoked, its frames read its generated images no more (the chat still draws what a reply names).
    await r.host.extensions.revoke(ID, ['image_gen']);
    expect(await page(r, 'GET', `/api/v1/image-gen/results/${imageId}`)).toMatchObject({ status: 404 });
  }, 60_000);

  it("write the prompt from the chat as Lumiverse's modes say (scene, parsed_custom, custom), through the person's main connection, and preview it", async () => {
    const r = await install();
    for (const permission of ['image_gen', 'generation'] as const) await r.call('extensions.grant', { id: ID, permission, unrequested: true });
    await addMainConnection(r);
    await r.call('connections.save', { profile: { id: 'pictures', name: 'Pictures', provider: 'openai-compatible', baseUrl: `${r.server.origin}/v1`, defaultModel: '', imageModel: 'gpt-image-1' }, key: 'sk-x' });
    const chatId = await newSession(r);
    r.server.enqueue({ text: 'The lamp gutters in the storm.' });
    await send(r, chatId, 'We climb the lighthouse stairs.');

    // Scene: the model's JSON answer is the prompt; it read the chat's messages, named, after the writer's words.
    r.server.enqueue({ text: '```json\n{"prompt": "lighthouse stairwell, storm, guttering lamp", "negative_prompt": "text"}\n```' });
    r.server.enqueueImages({ kind: 'image', bytes: PIXEL });
    const made = await page(r, 'POST', '/api/v1/image-gen/generate', { chatId });
    expect(made).toMatchObject({ status: 200, json: { generated: true, prompt: 'lighthouse stairwell, storm, guttering lamp', negativePrompt: 'text' } });
    expect(r.server.imageRequests.at(-1)!.body).toMatchObject({ prompt: 'lighthouse stairwell, storm, guttering lamp' });
    const asked = (r.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
    expect(asked[0]!.role).toBe('system');
    expect(asked[0]!.content).toContain('image generation model');
    expect(asked.slice(1, -1).map((m) => m.content)).toEqual([expect.stringMatching(/: We climb the lighthouse stairs\.$/), expect.stringMatching(/: The lamp gutters in the storm\.$/)]);
    expect(asked.at(-1)!.content).toContain('the end of the conversation');

    // parsed_custom: the prompt is the writer's instructions; a plain-text answer is the prompt; the preview makes no image.
    const images = r.server.imageRequests.length;
    r.server.enqueue({ text: '<think>a watercolour, then</think>watercolour lighthouse in a storm' });
    const preview = await page(r, 'POST', '/api/v1/image-gen/preview-prompt', { chatId, promptMode: 'parsed_custom', prompt: 'Paint it as a watercolour.', negativePrompt: 'blurry' });
    expect(preview).toMatchObject({ status: 200, json: { prompt: 'watercolour lighthouse in a storm', negativePrompt: 'blurry', provider: 'openai' } });
    expect((r.server.generations.at(-1)!.body as { messages: Array<{ content: string }> }).messages.at(-1)!.content).toContain('Paint it as a watercolour.');
    // custom: the prompt as written, no model asked.
    const generations = r.server.generations.length;
    expect(await page(r, 'POST', '/api/v1/image-gen/preview-prompt', { chatId, promptMode: 'custom', prompt: 'a red door' })).toMatchObject({ status: 200, json: { prompt: 'a red door', provider: 'openai' } });
    expect(await page(r, 'POST', '/api/v1/image-gen/preview-prompt', { chatId, promptMode: 'parsed_custom' })).toMatchObject({ status: 400, json: { code: 'INVALID_INPUT' } });
    expect(r.server.generations).toHaveLength(generations);
    expect(r.server.imageRequests).toHaveLength(images);
    // A model that writes nothing: said so, no image asked for.
    r.server.enqueue({ text: '{"prompt": ""}' });
    expect(await page(r, 'POST', '/api/v1/image-gen/generate', { chatId, promptMode: 'scene' })).toMatchObject({ status: 500, json: { code: 'LLM_BAD_RESPONSE' } });
    expect(r.server.imageRequests).toHaveLength(images);
    // A model writes as many prompts a minute as images may be made (ten): three so far, seven more, then refused.
    for (let i = 0; i < 7; i++) {
      r.server.enqueue({ text: `{"prompt": "scene ${i}"}` });
      expect(await page(r, 'POST', '/api/v1/image-gen/preview-prompt', { chatId })).toMatchObject({ status: 200 });
    }
    const before = r.server.generations.length;
    expect(await page(r, 'POST', '/api/v1/image-gen/preview-prompt', { chatId })).toMatchObject({ status: 429, json: { code: 'RATE_LIMITED' } });
    expect(r.server.generations).toHaveLength(before);
    // Reading the chat needs chat_mutation, as any read of its text; the image side (image_gen) is asked first.
    await r.host.extensions.revoke(ID, ['chat_mutation']);
    expect(await page(r, 'POST', '/api/v1/image-gen/preview-prompt', { chatId })).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED', error: expect.stringContaining('chat_mutation') } });
    await r.host.extensions.revoke(ID, ['image_gen']);
    expect(await page(r, 'POST', '/api/v1/image-gen/generate', { chatId })).toMatchObject({ status: 403, json: { code: 'PERMISSION_DENIED', error: expect.stringContaining('image_gen') } });
    expect(r.server.generations).toHaveLength(before);
  }, 60_000);
});
