// A stream's events collected into the whole response: the one home of what a completion is made of, for
// LlmClient.complete and for a streamed generation's last chunk (an extension's rawStream).
import { HostFailure } from '../../../shared/errors';
import type { LlmCompletedToolCall, LlmCompletion, LlmEvent } from '../../../shared/types/llm';
import { cancelledError } from '../connections/provider-errors';

export interface CompletionCollector {
  /** Takes one event; the completion once the stream finished. Throws HostFailure with the stream's error. */
  take(event: LlmEvent): LlmCompletion | null;
  /** The stream ended without finishing (its caller's signal aborted it). */
  ended(): never;
}

export function completionCollector(): CompletionCollector {
  let text = '';
  let reasoning = '';
  const toolCalls: LlmCompletedToolCall[] = [];
  return {
    take(event) {
      switch (event.type) {
        case 'text-delta':
          text += event.text;
          return null;
        case 'reasoning-delta':
          reasoning += event.text;
          return null;
        case 'tool-call-end':
          toolCalls.push({ id: event.id, name: event.name, argsText: event.argsText, ok: true, args: event.args });
          return null;
        case 'tool-call-failed':
          toolCalls.push({ id: event.id, name: event.name, argsText: event.argsText, ok: false, error: event.error });
          return null;
        case 'finish':
          return { text, ...(reasoning ? { reasoning } : {}), toolCalls, finishReason: event.reason, ...(event.usage ? { usage: event.usage } : {}) };
        case 'error':
          throw new HostFailure(event.error);
        default:
          return null;
      }
    },
    ended() {
      throw new HostFailure(cancelledError());
    },
  };
}
