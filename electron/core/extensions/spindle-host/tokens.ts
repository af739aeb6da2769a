// spindle.tokens: token counts as an estimate — the Workbench ships no tokenizers, so every count is
// Lumiverse's own fallback, a quarter of the characters, marked `approximate: true`.
import { fail, type HandlersOf } from './handlers';

export interface TokenModels {
  main(): string;
  sidecar(): string;
  /** The messages of a session (chat id), for countChat; null when there is no such chat. */
  chatMessages(chatId: string): Array<{ role: string; content: string }> | null;
}

const estimate = (chars: number) => Math.ceil(chars / 4);

function result(total: number, options: unknown, models: TokenModels | null) {
  const o = (typeof options === 'object' && options !== null ? options : {}) as { model?: unknown; modelSource?: unknown };
  const modelSource = o.modelSource === 'sidecar' ? 'sidecar' : 'main';
  const model = typeof o.model === 'string' && o.model ? o.model : modelSource === 'sidecar' ? (models?.sidecar() ?? '') : (models?.main() ?? '');
  return { total_tokens: total, model, modelSource, tokenizer_id: null, tokenizer_name: 'approximate (characters / 4)', approximate: true };
}

function messagesChars(messages: unknown[]): number {
  let chars = 0;
  for (const message of messages) {
    const content = (message as { content?: unknown })?.content;
    // A few tokens per message for the role and separators, as chat formats add them.
    chars += (typeof content === 'string' ? content.length : 0) + 16;
  }
  return chars;
}

export function tokenHandlers(models: () => TokenModels | null): HandlersOf<'tokens'> {
  return {
    'tokens.countText': ({ text, options }) => result(estimate(text.length), options, models()),
    'tokens.countMessages': ({ messages, options }) => result(estimate(messagesChars(messages)), options, models()),
    'tokens.countChat': ({ chatId, options }) => {
      const source = models();
      const messages = source?.chatMessages(chatId);
      if (!messages) fail('NOT_FOUND', 'Chat not found.', '/chatId');
      return result(estimate(messagesChars(messages)), options, source);
    },
  };
}
