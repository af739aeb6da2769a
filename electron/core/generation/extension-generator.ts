// spindle.generate's host side on top of the LLM services: quiet → the sidecar connection, raw → a named connection or the chat's main one.
//
// The ExtensionManager's GenerationGate has already checked the permission, the input and the caps;
// this only resolves the connection and calls LlmClient.complete. Keys stay in the LlmClient: what
// comes back is text, a finish reason and token counts, and errors are LlmClient's (already redacted).
import { HostFailure, type HostError } from '../../../shared/errors';
import {
  MAX_GENERATE_RESULT_BYTES,
  MAX_GENERATE_TOKENS,
  type QuietGenerateInput,
  type RawGenerateInput,
  type RawGenerateResult,
} from '../../../shared/protocol';
import type { ChatSettings } from '../../../shared/types/chat';
import type { ConnectionProfile, LlmCompletion, LlmMessage, LlmRequest, SidecarConfig } from '../../../shared/types/llm';
import type { ExtensionGenerator } from '../extensions/generation-gate';
import type { LlmCallOptions } from '../llm/client';
import { sidecarRequest } from '../llm/sidecar-config';

export interface ExtensionGeneratorDeps {
  llm: { complete(profile: ConnectionProfile, request: LlmRequest, options?: LlmCallOptions): Promise<LlmCompletion> };
  /** The sidecar settings with defaults filled in (SidecarService.config). */
  sidecarConfig(): SidecarConfig;
  /** The full (key-free) profile; throws HostFailure NOT_FOUND. */
  profile(id: string): ConnectionProfile;
  /** settings.chat (main connection and model), if any. */
  chatSettings(): Partial<ChatSettings> | undefined;
}

/** raw without maxTokens: the sidecar's default, so an extension that forgets it cannot run up a bill. */
export const RAW_DEFAULT_MAX_TOKENS = 1024;

const SIDECAR_NOT_CONFIGURED: HostError = {
  code: 'SIDECAR_NOT_CONFIGURED',
  message: 'No sidecar LLM is configured, so spindle.generate.quiet cannot run.',
  hint: 'Choose a connection under Council → Sidecar LLM, or use spindle.generate.raw.',
};

// A generous bound on streamed characters: maxTokens ≤ 8192 is far below it unless the server misbehaves.
const CALL_OPTIONS = { maxResponseChars: MAX_GENERATE_RESULT_BYTES / 2 };

export function createExtensionGenerator(deps: ExtensionGeneratorDeps): ExtensionGenerator {
  return {
    async quiet(input: QuietGenerateInput, signal: AbortSignal): Promise<string> {
      const config = deps.sidecarConfig();
      if (!config.connectionProfileId) throw new HostFailure(SIDECAR_NOT_CONFIGURED);
      let profile: ConnectionProfile;
      try {
        profile = deps.profile(config.connectionProfileId);
      } catch {
        throw new HostFailure({ ...SIDECAR_NOT_CONFIGURED, message: `The sidecar connection ${config.connectionProfileId} no longer exists.` });
      }
      const messages: LlmMessage[] = [
        ...(input.systemPrompt ? [{ role: 'system' as const, content: input.systemPrompt }] : []),
        { role: 'user' as const, content: input.prompt },
      ];
      const request = sidecarRequest(config, profile, messages);
      if (!request.model) throw new HostFailure({ ...SIDECAR_NOT_CONFIGURED, message: `The sidecar connection ${profile.name} has no default model and the sidecar names none.` });
      request.maxTokens = input.maxTokens ?? Math.min(config.maxTokens, MAX_GENERATE_TOKENS);
      if (input.temperature !== undefined) request.temperature = input.temperature;
      const completion = await deps.llm.complete(profile, request, { ...CALL_OPTIONS, signal });
      return completion.text;
    },

    async raw(input: RawGenerateInput, signal: AbortSignal): Promise<RawGenerateResult> {
      const chat = deps.chatSettings() ?? {};
      const id = input.connectionId ?? chat.mainConnectionId;
      if (!id) {
        throw new HostFailure({
          code: 'CHAT_NO_CONNECTION',
          message: 'The generation names no connection and no main connection is chosen for the chat.',
          hint: 'Pass connectionId, or pick a main connection in the Workbench settings.',
          path: '/connectionId',
        });
      }
      const profile = deps.profile(id);
      // The chat's model override belongs to the chat's connection, not to one the extension named.
      const model = input.model || (input.connectionId ? '' : (chat.model ?? '')) || profile.defaultModel;
      if (!model) throw new HostFailure({ code: 'INVALID_INPUT', message: `The connection ${profile.name} has no default model; pass model.`, path: '/model' });
      const request: LlmRequest = {
        messages: input.messages.map((m) => ({ role: m.role, content: m.content })),
        model,
        maxTokens: input.maxTokens ?? RAW_DEFAULT_MAX_TOKENS,
        ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
        ...(input.topP !== undefined ? { topP: input.topP } : {}),
      };
      const completion = await deps.llm.complete(profile, request, { ...CALL_OPTIONS, signal });
      return { text: completion.text, finishReason: completion.finishReason, ...(completion.usage ? { usage: completion.usage } : {}) };
    },
  };
}
