// Our chat messages as node-llama-cpp's chat history: a reply's tool calls carry the results the tool messages after
// it hold, so the chat wrapper renders them in the model's own format.
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from 'node-llama-cpp';
import type { EngineMessage } from '../../shared/local-model/engine-contract';

function parsedArguments(argsText: string): unknown {
  try {
    return JSON.parse(argsText) as unknown;
  } catch {
    return {};
  }
}

export function toChatHistory(messages: readonly EngineMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  /** The calls of the last reply, by id, waiting for their results. */
  let open = new Map<string, ChatModelFunctionCall>();
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        history.push({ type: 'system', text: message.content });
        break;
      case 'user':
        history.push({ type: 'user', text: message.content });
        break;
      case 'assistant': {
        const response: ChatModelResponse['response'] = message.content ? [message.content] : [];
        open = new Map();
        for (const call of message.toolCalls ?? []) {
          const item: ChatModelFunctionCall = { type: 'functionCall', name: call.name, params: parsedArguments(call.argsText), result: undefined };
          open.set(call.id, item);
          response.push(item);
        }
        history.push({ type: 'model', response });
        break;
      }
      case 'tool': {
        const call = message.toolCallId ? open.get(message.toolCallId) : undefined;
        // A result for a call the history does not show is still the model's to read, as the user's text.
        if (call) call.result = message.content;
        else history.push({ type: 'user', text: `Result of ${message.toolName ?? 'a tool'}: ${message.content}` });
        break;
      }
    }
  }
  return history;
}
