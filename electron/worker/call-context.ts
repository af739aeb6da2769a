// The chat context a worker keeps from the last call that carried one, filled into later calls that refer to it.
import type { CallContextRef, ToolInvocationMessage, ToolSimulationMessage } from '../../shared/protocol';
import type { LlmMessageDTO, ToolInvocationPayloadDTO } from '../../shared/types/spindle';

interface Kept {
  id: CallContextRef;
  messages: LlmMessageDTO[];
  flat: unknown;
}

/** A deep copy of parsed JSON: each call's handler gets its own context to change as it likes. */
function copy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key]);
  return out as T;
}

export class CallContexts {
  private kept: Kept | null = null;

  /** The payload as the extension sees it; null when it refers to a context this worker does not hold. */
  payload(message: ToolInvocationMessage | ToolSimulationMessage): ToolInvocationPayloadDTO | null {
    const { payload, context } = message;
    if (context === undefined) return payload;
    if (Array.isArray(payload.contextMessages)) {
      // Kept as it arrived: this call's handler may change its own copy.
      this.kept = { id: context, messages: copy(payload.contextMessages), flat: payload.args?.context };
      return payload;
    }
    const kept = this.kept;
    if (!kept || kept.id !== context) return null;
    if (payload.args && payload.args.context === null && typeof kept.flat === 'string') payload.args.context = kept.flat;
    payload.contextMessages = copy(kept.messages);
    return payload;
  }
}
