// An extension's generation asks the LLM client for the gate's whole time limit: the client's own default (300 s)
// would otherwise end a long reply of a slow model before the 10 minutes the README promises.
import { describe, expect, it } from 'vitest';
import { GENERATE_TIMEOUT_MS } from '../../../shared/protocol';
import type { ConnectionProfile, LlmEvent } from '../../../shared/types/llm';
import type { LlmCallOptions } from '../../../electron/core/llm/client';
import { createExtensionGenerator } from '../../../electron/core/generation/extension-generator';
import { withSidecarDefaults } from '../../../electron/core/llm/sidecar-config';

const PROFILE: ConnectionProfile = { id: 'local', name: 'Local', provider: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', defaultModel: 'm', headers: {} };

describe('the time an extension generation is given', () => {
  it('each kind passes the gate’s limit to the client as its total time, and leaves the idle limit to the client', async () => {
    const seen: LlmCallOptions[] = [];
    const generator = createExtensionGenerator({
      llm: {
        complete: async (_profile, _request, options) => (seen.push(options!), { text: 'ok', toolCalls: [], finishReason: 'stop' }),
        stream: async function* (_profile, _request, options): AsyncIterable<LlmEvent> {
          seen.push(options!);
          yield { type: 'text-delta', text: 'ok' } as LlmEvent;
          yield { type: 'finish', reason: 'stop' } as LlmEvent;
        },
      },
      sidecarConfig: () => withSidecarDefaults({ connectionProfileId: 'local' }),
      profile: () => PROFILE,
      chatSettings: () => ({ mainConnectionId: 'local', model: '' }),
    });
    const signal = new AbortController().signal;
    const messages = [{ role: 'user' as const, content: 'Go on.' }];
    await generator.raw({ messages }, signal);
    await generator.quiet({ prompt: 'Sum up.' }, signal);
    await generator.lumiverse({ type: 'raw', messages }, signal);
    await generator.stream({ type: 'raw', messages }, signal, () => undefined);
    expect(seen).toHaveLength(4);
    for (const options of seen) expect(options).toMatchObject({ timeoutMs: GENERATE_TIMEOUT_MS, signal });
    expect(seen.every((options) => options.idleTimeoutMs === undefined)).toBe(true);
  });
});
