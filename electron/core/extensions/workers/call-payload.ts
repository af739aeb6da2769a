// What a tool call sends to its worker: the seed's payload, identity stripped, the chat context sent once per worker.
import type { ToolInvocationMessage, ToolSimulationMessage } from '../../../../shared/protocol';
import type { LlmMessageDTO, ToolInvocationPayloadDTO } from '../../../../shared/types/spindle';
import type { ExecuteRequest } from '../../registry-port';

/** Identity travels in the envelope only (seed 000: the host strips these from args). */
const IDENTITY_ARGS = ['__userId', '__user_id', 'userId'];

interface KeptContext {
  id: number;
  messages: LlmMessageDTO[];
  flat: unknown;
}

/**
 * One per worker. A council cycle's calls share one chat context (the same array and string, a few
 * KB each): sending it with each of a hundred calls made the host encode, and the worker parse,
 * the same text a hundred times (see shared/protocol CallContextRef). The worker keeps the last
 * context it was sent; a call whose context is that one refers to it by number.
 */
export class CallPayloads {
  private kept: KeptContext | null = null;
  private seq = 0;

  message(type: 'tool_invocation' | 'tool_simulation', request: ExecuteRequest): ToolInvocationMessage | ToolSimulationMessage {
    let args = request.args;
    if (IDENTITY_ARGS.some((key) => key in args)) {
      args = { ...args };
      for (const key of IDENTITY_ARGS) delete args[key];
    }
    const payload: ToolInvocationPayloadDTO = { toolName: request.toolName, args, requestId: request.requestId };
    if (request.councilMember) payload.councilMember = request.councilMember;
    const messages = request.contextMessages;
    if (!messages) return { type, payload };
    const kept = this.kept;
    if (kept && kept.messages === messages && kept.flat === args.context) {
      if (typeof args.context === 'string') payload.args = { ...args, context: null };
      return { type, payload, context: kept.id };
    }
    this.kept = { id: ++this.seq, messages, flat: args.context };
    payload.contextMessages = messages;
    return { type, payload, context: this.kept.id };
  }
}
