// The pipeline fixture (lumiverse_pipeline, a Lumiverse-style extension built at install) on a chat rig: installed
// with the grants a test gives it, a turn in a fresh session that reads its macros, its tools, and what the model got
// (pipeline.test.ts, pipeline-interceptors.test.ts).
import path from 'node:path';
import type { ChatMessage, ChatSession } from '../../../shared/types/chat';
import type { ToolOutcome } from '../../../shared/types/tools';
import { addMainConnection, finished, newSession, type ChatRig } from './helpers';

const FIXTURE = path.resolve('tests/fixtures/extensions/lumiverse_pipeline');
export const GRANT = ['tools', 'interceptor', 'context_handler', 'chats', 'chat_mutation'];

export async function installPipeline(rig: ChatRig, grant: string[] = GRANT): Promise<void> {
  const installed = await rig.call('extensions.install', { folder: FIXTURE, grant, trust: true });
  if (!installed.ok) throw new Error(JSON.stringify(installed.error));
  await rig.host.extensions.whenSettled();
  // Registrations arrive as the entry loads; a tool registered last means the rest are in.
  for (let i = 0; i < 400 && !rig.host.registry.get('lumiverse_pipeline:append_line'); i++) await new Promise((r) => setTimeout(r, 5));
  await addMainConnection(rig);
}

export async function pipelineTurn(rig: ChatRig, text: string, extra: Record<string, unknown> = {}) {
  const sessionId = await newSession(rig, {
    character: { name: 'Mira', description: 'Mira reads {{pipeline_weather}} skies and the {{pipeline_tide}}; {{unknown_macro}} stays.', personality: 'Calls {{user}} friend.', scenario: '' },
    persona: { name: 'Ada', description: '' },
    ...extra,
  });
  rig.server.enqueue({ text: 'The reply.' });
  const sent = await rig.call('chat.send', { sessionId, text });
  if (!sent.ok) throw new Error(JSON.stringify(sent.error));
  const done = await finished(rig, (sent.value as { turnId: string }).turnId);
  const session = (await rig.call('chat.sessions.get', { sessionId })).value as ChatSession;
  return { sessionId, done, session, reply: session.messages.at(-1) as ChatMessage };
}

export const sentMessagesOf = (rig: ChatRig) => (rig.server.generations.at(-1)!.body as { messages: Array<{ role: string; content: string }> }).messages;
export const invokePipeline = async (rig: ChatRig, tool: string) => (await rig.call('tools.invoke', { qualifiedName: `lumiverse_pipeline:${tool}`, args: {} })).value as ToolOutcome;

/** The four, bound to the rig of the test that runs (chatRigEach). */
export function pipelineRig(each: { readonly rig: ChatRig }) {
  return {
    install: (grant?: string[]) => installPipeline(each.rig, grant),
    turn: (text: string, extra: Record<string, unknown> = {}) => pipelineTurn(each.rig, text, extra),
    sentMessages: () => sentMessagesOf(each.rig),
    invoke: (tool: string) => invokePipeline(each.rig, tool),
  };
}
