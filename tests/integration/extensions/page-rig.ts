// A frontend-only extension in a chat rig, and its frame's requests to Lumiverse's /api/v1 as the app hands them on.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../helpers/temp-dir';
import { chatRig, type ChatRig } from '../chat/helpers';
import { waitFor } from './harness';

/** A frontend-only extension (page_reader) asking for `permissions`, installed with `granted`. */
export async function frontendRig(permissions: string[], granted: string[]): Promise<ChatRig> {
  const rig = await chatRig();
  const dir = path.join(tempDir('cw-page-api-'), 'page_reader');
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier: 'page_reader', name: 'Page Reader', version: '1.0.0', author: 'A', permissions }));
  fs.writeFileSync(path.join(dir, 'dist', 'frontend.js'), 'export function setup() {}\n');
  await rig.host.extensions.installFromFolder(dir, { grant: granted as never }, () => undefined);
  await waitFor(() => rig.host.extensions.get('page_reader').status === 'running', 'page_reader to run');
  return rig;
}

/** For each test of a file: `withFrontend` makes its rig and `adopt` takes one made otherwise; either is closed after it. */
export function frontendRigs() {
  let rig: ChatRig | null = null;
  afterEach(async () => {
    await rig?.close();
    rig = null;
    cleanupTempDirs();
  });
  return {
    withFrontend: async (permissions: string[], granted: string[]) => (rig = await frontendRig(permissions, granted)),
    adopt: (made: ChatRig) => (rig = made),
  };
}

export type Answer = { status: number; headers: Record<string, string>; body: string; bodyEncoding: string };
/** page_reader's request, answered; `json` its body when it is JSON. */
export async function page(r: ChatRig, method: string, pathname: string, headers: Record<string, string> = {}, body?: { text?: string; bytes?: Buffer }): Promise<Answer & { json?: Record<string, unknown> & { messages?: unknown } }> {
  const result = await r.call('extensions.pageRequest', {
    id: 'page_reader',
    method,
    path: pathname,
    headers,
    ...(body?.bytes ? { body: body.bytes.toString('base64'), bodyEncoding: 'base64' } : body?.text !== undefined ? { body: body.text, bodyEncoding: 'utf8' } : {}),
  });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  const answer = result.value as Answer;
  return { ...answer, ...(answer.headers['content-type']?.includes('json') ? { json: JSON.parse(answer.body) as Record<string, unknown> } : {}) };
}
