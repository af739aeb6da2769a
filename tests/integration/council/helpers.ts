// Council test setup: a real host with the council fixture extensions, in-memory and LLM-backed sidecars, a chat.
import path from 'node:path';
import type { SidecarPort } from '../../../electron/core/council/sidecar-port';
import type { Host } from '../../../electron/core/host';
import type { LlmClient } from '../../../electron/core/llm/client';
import type { HostEvent } from '../../../shared/contract/events';
import type { CouncilChat } from '../../../shared/types/council';
import type { ConnectionProfile } from '../../../shared/types/llm';
import { testHost } from '../../helpers/node-host';
import { tempDir } from '../../helpers/temp-dir';

export const COUNCIL_EXTENSIONS = path.join(import.meta.dirname, '../../fixtures/council/extensions');

export async function councilHost(options: { extensions?: boolean; dataDir?: string } = {}): Promise<Host & { events: HostEvent[] }> {
  const host = await testHost(options.dataDir ?? tempDir(), { bundledExtensionsDir: options.extensions === false ? null : COUNCIL_EXTENSIONS });
  await host.extensions.whenSettled();
  const events: HostEvent[] = [];
  host.onEvent((e) => events.push(e));
  return Object.assign(host, { events });
}

/** Calls the contract like a door does; throws on a structured error so tests read naturally. */
export async function call<T = unknown>(host: Host, method: string, input: unknown): Promise<T> {
  const result = await host.api.call(method, input, { origin: 'test' });
  if (!result.ok) throw Object.assign(new Error(`${result.error.code}: ${result.error.message}`), { error: result.error });
  return result.value as T;
}

export async function callError(host: Host, method: string, input: unknown) {
  const result = await host.api.call(method, input, { origin: 'test' });
  if (result.ok) throw new Error(`${method} unexpectedly succeeded`);
  return result.error;
}

export interface MemorySidecar extends SidecarPort {
  calls: Array<{ kind: 'complete' | 'plan'; system: string; prompt: string; tool?: string }>;
}

/** A sidecar that answers from functions: for tests where the LLM is not the point. */
export function memorySidecar(
  answer: (input: { system: string; prompt: string }) => string | Promise<string> = () => 'An analysis.',
  plan: (tool: string) => Record<string, unknown> = () => ({}),
): MemorySidecar {
  const calls: MemorySidecar['calls'] = [];
  return {
    calls,
    isConfigured: () => true,
    connectionKey: () => 'memory',
    async complete(input, signal) {
      calls.push({ kind: 'complete', system: input.system, prompt: input.prompt });
      if (signal.aborted) throw new Error('aborted');
      return answer(input);
    },
    async planArguments(input) {
      calls.push({ kind: 'plan', system: input.system, prompt: input.prompt, tool: input.tool.name });
      return { args: await plan(input.tool.name), constrained: false, repaired: false };
    },
  };
}

/** The real path: LlmClient against a profile (the local LLM test server). */
export function llmSidecar(client: LlmClient, profile: ConnectionProfile): SidecarPort {
  return {
    isConfigured: () => true,
    connectionKey: () => profile.id,
    async complete(input, signal) {
      const completion = await client.complete(
        profile,
        { messages: [{ role: 'system', content: input.system }, { role: 'user', content: input.prompt }], ...(input.maxTokens ? { maxTokens: input.maxTokens } : {}) },
        { signal },
      );
      return completion.text;
    },
    planArguments(input, signal) {
      return client.planArguments(profile, { system: input.system, prompt: input.prompt, tool: input.tool, ...(input.validate ? { validate: input.validate } : {}) }, { signal });
    },
  };
}

export const sampleChat = (extra: Partial<CouncilChat> = {}): CouncilChat => ({
  chatId: 'chat-1',
  character: { name: 'Mara', description: "The lighthouse keeper's daughter.", personality: 'Wary, kind.', scenario: 'A storm night in 1887.' },
  persona: { name: 'Tom', description: 'A smuggler in trouble.' },
  worldInfo: [
    { keywords: ['lighthouse'], content: 'The lamp burns whale oil.' },
    { keywords: ['dragon'], content: 'Dragons are extinct.' },
    { keywords: [], content: 'The year is 1887.' },
  ],
  messages: [
    { role: 'user', content: 'I knock on the lighthouse door.' },
    { role: 'assistant', content: 'Mara opens it, lantern raised.' },
    { role: 'user', content: 'I need shelter from the storm.' },
  ],
  ...extra,
});

/** Adds a member through the contract and returns its id. */
export async function addMember(host: Host, input: Record<string, unknown>): Promise<string> {
  const out = await call<{ memberId: string }>(host, 'council.addMember', { packId: 'story-council', itemId: 'plot-enforcer', ...input });
  return out.memberId;
}
