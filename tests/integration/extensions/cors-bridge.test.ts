// Lumiverse's built-in bridge for its frontends' corsProxy (Subsonic Controls fetches album art so): a frontend
// message `__cors_proxy_request` is answered by the worker's runtime itself through spindle.cors — the body as
// base64 — and never reaches the extension's own onFrontendMessage handlers; without cors_proxy the frame hears why.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';
import { waitFor } from './harness';

const ID = 'album_tinter';
const ART = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 250, 251, 252]);
let rig: ChatRig | null = null;
let web: http.Server | null = null;

afterEach(async () => {
  await rig?.close();
  rig = null;
  await new Promise<void>((resolve) => (web ? web.close(() => resolve()) : resolve()));
  web = null;
  cleanupTempDirs();
});

async function withExtension(granted: string[]): Promise<{ r: ChatRig; url: string }> {
  web = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(ART));
  await new Promise<void>((resolve) => web!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/cover.png`;
  rig = await chatRig();
  const dir = path.join(tempDir('cw-bridge-'), ID);
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier: ID, name: 'Album Tinter', version: '1.0.0', author: 'A', permissions: ['tools', 'cors_proxy'], entry_backend: 'dist/backend.js' }));
  fs.writeFileSync(
    path.join(dir, 'dist', 'backend.js'),
    `const heard = [];
spindle.onFrontendMessage((payload) => { heard.push(payload); });
spindle.registerTool({ name: 'heard', display_name: 'heard', description: 'What its own handler heard', parameters: { type: 'object', properties: {} } });
spindle.on('TOOL_INVOCATION', () => heard);
`,
  );
  await rig.host.extensions.installFromFolder(dir, { grant: granted as never, trust: true }, () => undefined);
  await waitFor(() => rig!.host.registry.list().some((t) => t.qualifiedName === `${ID}:heard`), `${ID} to run`);
  return { r: rig, url };
}

const response = (r: ChatRig, requestId: string) =>
  waitFor(() => r.events.find((e) => e.type === 'extension.frontend-message' && (e.payload as { requestId?: string }).requestId === requestId), `the answer to ${requestId}`, 20_000).then((e) => (e as { payload: Record<string, unknown> }).payload);

describe("a frontend's corsProxy through its backend's runtime", () => {
  it('is answered with the body as base64 through spindle.cors; its own handlers hear only its other messages', async () => {
    const { r, url } = await withExtension(['tools', 'cors_proxy']);
    await r.call('extensions.sendFrontend', { id: ID, payload: { type: '__cors_proxy_request', requestId: 'art-1', url, options: { method: 'GET' } } });
    await r.call('extensions.sendFrontend', { id: ID, payload: { type: 'ordinary', n: 1 } });
    const answer = await response(r, 'art-1');
    expect(answer).toMatchObject({ type: '__cors_proxy_response', requestId: 'art-1', result: { status: 200, encoding: 'base64', headers: { 'content-type': 'image/png' } } });
    expect(Buffer.from((answer.result as { body: string }).body, 'base64')).toEqual(ART);
    const heard = await r.host.registry.invoke(`${ID}:heard`, {}, { timeoutMs: 10_000 });
    expect(heard.ok && JSON.parse(heard.content)).toEqual([{ type: 'ordinary', n: 1 }]);
  }, 60_000);

  it('without cors_proxy the frame is answered with the refusal, and no request leaves', async () => {
    let asked = 0;
    const { r, url } = await withExtension(['tools']);
    web!.on('request', () => asked++);
    await r.call('extensions.sendFrontend', { id: ID, payload: { type: '__cors_proxy_request', requestId: 'art-2', url } });
    expect(await response(r, 'art-2')).toMatchObject({ type: '__cors_proxy_response', requestId: 'art-2', error: expect.stringContaining('cors_proxy') });
    expect(asked).toBe(0);
  }, 60_000);
});
