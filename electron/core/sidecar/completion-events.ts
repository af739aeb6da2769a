// A whole OpenAI chat completion as the server-sent events of a streamed one: an endpoint that answers in one piece
// (a BrokerResponse carries one body) is read by the same streaming client as any server.
import { HostFailure } from '../../../shared/errors';

interface Completion {
  id?: string;
  model?: string;
  created?: number;
  choices?: Array<{ message?: { content?: string | null; tool_calls?: Array<{ id?: string; type?: string; function?: { name?: string; arguments?: string } }> }; finish_reason?: string | null }>;
  usage?: unknown;
}

export function completionAsEvents(body: string): string {
  let completion: Completion;
  try {
    completion = JSON.parse(body) as Completion;
  } catch {
    throw new HostFailure({ code: 'LLM_BAD_RESPONSE', message: 'The sidecar endpoint answered a streamed request with a body that is neither events nor a JSON completion.' });
  }
  const choice = completion.choices?.[0];
  if (!choice?.message) throw new HostFailure({ code: 'LLM_BAD_RESPONSE', message: 'The sidecar endpoint answered a completion with no choice.' });
  const head = { id: completion.id ?? 'sidecar-endpoint', object: 'chat.completion.chunk', created: completion.created ?? 0, model: completion.model ?? '' };
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  const { content, tool_calls: calls } = choice.message;
  let out = chunk({ role: 'assistant', ...(content ? { content } : {}) }, null);
  (calls ?? []).forEach((call, index) => {
    out += chunk({ tool_calls: [{ index, id: call.id ?? `call_${index}`, type: 'function', function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' } }] }, null);
  });
  out += chunk({}, choice.finish_reason ?? (calls?.length ? 'tool_calls' : 'stop'), completion.usage ? { usage: completion.usage } : {});
  return `${out}data: [DONE]\n\n`;
}
