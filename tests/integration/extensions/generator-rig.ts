// The generator fixture on a chat rig: installed with the grants a test gives it, and its tools called as a
// published extension's code calls spindle.generate (generate.test.ts, generate-lumiverse.test.ts).
import type { ChatRig } from '../chat/helpers';
import { fixture, waitFor } from './harness';

export const GENERATOR = 'generator';

/** What the fixture answers of one generation: its value, or the error it caught (and whether it was an Error). */
export type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string; hint?: string; path?: string }; isError: boolean };

export async function installGenerator(rig: ChatRig, grant: ('tools' | 'generation')[]): Promise<void> {
  await rig.host.extensions.installFromFolder(fixture(GENERATOR), { grant });
  await waitFor(() => rig.host.registry.get(`${GENERATOR}:env`), 'the generator fixture to register its tools');
}

export async function invokeGenerator(rig: ChatRig, tool: string, args: Record<string, unknown>): Promise<Answer> {
  const outcome = await rig.host.registry.invoke(`${GENERATOR}:${tool}`, args, { timeoutMs: 15_000 });
  if (!outcome.ok) throw new Error(`tool ${tool} failed: ${JSON.stringify(outcome.error)}`);
  return JSON.parse(outcome.content) as Answer;
}
