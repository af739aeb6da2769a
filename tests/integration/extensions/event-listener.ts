// An extension as listeners are written (LumiBooks keeps up with world books, trackers with presets): it keeps each
// event it is told, read back through its tool `heard`; its tool `call` runs one spindle method, for the changes.
import fs from 'node:fs';
import path from 'node:path';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import { tempDir } from '../../helpers/temp-dir';
import type { ChatRig } from '../chat/helpers';
import { waitFor } from './harness';

export async function installListener(r: ChatRig, id: string, permissions: ExtensionPermission[], events: string[]): Promise<void> {
  const dir = path.join(tempDir('cw-listener-'), id);
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'spindle.json'), JSON.stringify({ identifier: id, name: id, version: '1.0.0', author: 'A', permissions: ['tools', ...permissions], entry_backend: 'dist/backend.js' }));
  fs.writeFileSync(
    path.join(dir, 'dist', 'backend.js'),
    `const heard = [];
for (const event of ${JSON.stringify(events)}) spindle.on(event, (payload) => heard.push({ event, payload }));
for (const name of ['heard', 'call']) spindle.registerTool({ name, display_name: name, description: name, parameters: { type: 'object', properties: {} } });
spindle.on('TOOL_INVOCATION', async ({ toolName, args }) => {
  if (toolName === 'heard') return heard;
  const [space, method] = args.method.split('.');
  return { value: await spindle[space][method](...args.args) };
});
`,
  );
  await r.host.extensions.installFromFolder(dir, { grant: ['tools', ...permissions], trust: true }, () => undefined);
  await waitFor(() => r.host.registry.list().some((t) => t.qualifiedName === `${id}:heard`), `${id} to run`);
}

/** What listener `id` has heard once it has heard `count` events (asked a bounded number of times). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the events a listener kept: checked by each assertion
export async function heard(r: ChatRig, id: string, count: number): Promise<Array<{ event: string; payload: any }>> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await r.host.registry.invoke(`${id}:heard`, {}, { timeoutMs: 20_000 });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
    const events = JSON.parse(outcome.content) as never[];
    if (events.length >= count || attempt === 200) return events;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `method` ('presets.delete') with `args` in listener `id`; its answer. */
export async function callIn(r: ChatRig, id: string, method: string, args: unknown[]): Promise<unknown> {
  const outcome = await r.host.registry.invoke(`${id}:call`, { method, args }, { timeoutMs: 20_000 });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return (JSON.parse(outcome.content) as { value: unknown }).value;
}
