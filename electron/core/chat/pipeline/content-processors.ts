// Lumiverse's message content processors (spindle.registerMessageContentProcessor, permission chat_mutation): before a
// person's message is saved — sent (origin `create`) or edited (`update`, or `swipe_update` on a reply with swipes) —
// each processor in priority order may replace its text and add to its extra (ChatMessage.extra: Lumiverse's), as
// Lumiverse's chats routes run them (src/spindle/message-content-processor.ts: 10 s each, a failure skipped). Slash
// commands typed into a message (`/setvar`, `/inject`) and markup a tracker expands are done this way. The window's
// display pass runs them too, with origin `render` (display-pass.ts).
import { SESSION_LIMITS } from '../../../../shared/types/chat';
import type { PipelineHandlerRef } from '../../extensions/pipeline/pipeline-bridge';
import type { Logger } from '../../ports';

/** Lumiverse's budget for one processor. */
export const PROCESSOR_TIMEOUT_MS = 10_000;
/** What processors may leave in a message's extra, as JSON (ChatMessage.extra). */
const MAX_EXTRA_CHARS = 256 * 1024;

export interface ContentWrite {
  chatId: string;
  /** Absent for a message not saved yet (`create`). */
  messageId?: string;
  content: string;
  isUser: boolean;
  extra?: Record<string, unknown>;
  /** `render`: the text as the window shows it, nothing saved (display-pass.ts). */
  origin: 'create' | 'update' | 'swipe_update' | 'render';
  /** `swipe_update`: the swipe rewritten. */
  swipeIndex?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why an answer is not a patch Lumiverse would take, or null when it is one (an absent answer passes through). */
function refusal(answer: unknown): string | null {
  if (!isRecord(answer)) return 'it answered something other than { content?, extra? }';
  if (answer.content !== undefined && typeof answer.content !== 'string') return 'its content was not text';
  if (typeof answer.content === 'string' && answer.content.length > SESSION_LIMITS.messageContent) return `its content was over ${SESSION_LIMITS.messageContent} characters`;
  if (answer.extra !== undefined && !isRecord(answer.extra)) return 'its extra was not an object';
  return null;
}

/**
 * The message as the processors leave it: its text, and what they added to its extra (merged by the caller onto the
 * message's extra as it is when saved, so a change made meanwhile stays).
 */
export async function processContent(
  /** The processors, in priority order (the pipeline's message_content_processor handlers). */
  processors: readonly PipelineHandlerRef[],
  write: ContentWrite,
  log: Logger,
  signal: AbortSignal = new AbortController().signal,
  /** Processors that failed earlier in the same pass (skipped; one failing here joins them). */
  failed?: Set<string>,
): Promise<{ content: string; extra?: Record<string, unknown> }> {
  let content = write.content;
  let extra = write.extra;
  let added: Record<string, unknown> | undefined;
  for (const ref of processors) {
    if (signal.aborted) break;
    const key = `${ref.extensionId}/${ref.id}`;
    if (failed?.has(key)) continue;
    const ctx = { chatId: write.chatId, ...(write.messageId ? { messageId: write.messageId } : {}), content, isUser: write.isUser, ...(extra ? { extra } : {}), origin: write.origin, ...(write.swipeIndex !== undefined ? { swipeIndex: write.swipeIndex } : {}), userId: 'local' };
    const result = await ref.call([ctx], PROCESSOR_TIMEOUT_MS, signal);
    const skip = (why: string) => log.warn(`message content processor of ${ref.extensionName} skipped (${write.origin} in ${write.chatId}): ${why}`);
    if (!result.ok) {
      failed?.add(key);
      skip(`${result.error.code} — ${result.error.message}`);
      continue;
    }
    if (result.value === null || result.value === undefined) continue;
    const why = refusal(result.value);
    if (why) {
      skip(why);
      continue;
    }
    const patch = result.value as { content?: string; extra?: Record<string, unknown> };
    // Swipes share their message's extra, so a swipe's write leaves it (Lumiverse ignores it there too); a render saves none.
    if (patch.extra !== undefined && write.origin !== 'swipe_update' && write.origin !== 'render') {
      const merged = { ...(extra ?? {}), ...patch.extra };
      if (JSON.stringify(merged).length > MAX_EXTRA_CHARS) skip(`its extra would be over ${MAX_EXTRA_CHARS} characters as JSON`);
      else [extra, added] = [merged, { ...(added ?? {}), ...patch.extra }];
    }
    if (patch.content !== undefined) content = patch.content;
  }
  return { content, ...(added ? { extra: added } : {}) };
}
