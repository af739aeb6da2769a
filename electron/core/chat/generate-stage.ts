// The generation stage of a turn: the main model streamed as chat events (and STREAM_TOKEN_RECEIVED batches for
// extensions), inline tool rounds answered through the guard, every call the model made recorded.
import type { HostError } from '../../../shared/errors';
import type { ChatToolCallRecord } from '../../../shared/types/chat';
import type { ChatEvent, ChatFinishReason } from '../../../shared/types/chat-events';
import type { ConnectionProfile, LlmMessage, LlmRequest, LlmToolCallRef, LlmUsage } from '../../../shared/types/llm';
import type { ToolInfo, ToolOutcome } from '../../../shared/types/tools';
import type { GuardedInvokeOptions } from '../safety/guarded-invoke';
import type { LlmClient } from '../llm/client';
import { LOOP_REPEATS, ToolLoopGuard } from './tool-loop-guard';
import { DeltaBatcher, type DeltaBatcherOptions } from './delta-batcher';
import { ReasoningLog } from './reasoning-log';
import type { InlineTool } from './council-port';

const MAX_TOOL_RESULT_CHARS = 64 * 1024;

/** The guarded invoker as the chat uses it (approvals, paths, dry run, cache; a bare ToolRegistry also fits, for tests). */
export interface ChatToolRunner {
  get(qualifiedName: string): ToolInfo | undefined;
  invoke(nameOrAlias: string, rawArgs: unknown, opts: GuardedInvokeOptions): Promise<ToolOutcome>;
}

export interface GenerationDeps {
  llm: LlmClient;
  tools: ChatToolRunner;
  emit: (event: ChatEvent) => void;
  batching?: DeltaBatcherOptions;
  onModelDelta?: (text: string) => void;
  /**
   * Each coalesced batch of text, and of the model's reasoning, as it goes out (extensions get them as
   * STREAM_TOKEN_RECEIVED, of type reasoning for the latter), numbered in one sequence as Lumiverse numbers them.
   */
  onBatch?: (text: string, seq: number) => void;
  onReasoning?: (text: string, seq: number) => void;
  /** The clock the reasoning's duration is measured on (the host's; a test's fake one). */
  now?: () => number;
}

export interface GenerationInput {
  sessionId: string;
  turnId: string;
  assistantMessageId: string;
  target: { profile: ConnectionProfile; model: string };
  messages: LlmMessage[];
  /** Sampling parameters interceptors set (with generation_parameters). */
  parameters: Pick<LlmRequest, 'temperature' | 'topP' | 'maxTokens' | 'stopSequences' | 'responseFormat'>;
  inline: { functions: InlineTool[]; maxRounds: number } | null;
  /** What the reply starts with (a preset's prefill): shown and kept before what the model writes after it. */
  prefill?: string;
  toolTimeoutMs: number;
  toolDryRun: boolean;
  signal: AbortSignal;
}

export interface GenerationResult {
  text: string;
  usage: LlmUsage | null;
  records: ChatToolCallRecord[];
  finishReason: ChatFinishReason;
  reason?: string;
  error?: HostError;
  /** What the model thought before (and between) what it wrote, and for how long. */
  reasoning?: string;
  reasoningMs?: number;
}

export async function runGeneration(deps: GenerationDeps, input: GenerationInput): Promise<GenerationResult> {
  const { sessionId, turnId, assistantMessageId, target, messages, inline, toolTimeoutMs, toolDryRun, signal } = input;
  const byName = new Map((inline?.functions ?? []).map((f) => [f.name, f]));
  let text = '';
  let seq = 0;
  const usage: LlmUsage = {};
  let sawUsage = false;
  const records: ChatToolCallRecord[] = [];
  let finishReason: ChatFinishReason = 'stop';
  let reason: string | undefined;
  let error: HostError | undefined;
  // The chat's deltas are numbered for the window; what extensions hear, reasoning and text together, for them.
  let streamSeq = 0;
  const batcher = new DeltaBatcher((chunk) => {
    deps.onBatch?.(chunk, streamSeq++);
    deps.emit({ type: 'chat.delta', sessionId, turnId, messageId: assistantMessageId, seq: seq++, text: chunk });
  }, deps.batching);
  // The model's reasoning is not the reply: it is shown apart, kept apart, and goes to extensions in batches of its own.
  const thinking = new DeltaBatcher((chunk) => {
    deps.onReasoning?.(chunk, streamSeq++);
    deps.emit({ type: 'chat.reasoning', sessionId, turnId, messageId: assistantMessageId, text: chunk });
  }, deps.batching);
  const thought = new ReasoningLog(deps.now ?? Date.now);
  const onModelDelta = deps.onModelDelta;
  const guard = new ToolLoopGuard();
  if (input.prefill) {
    text = input.prefill;
    batcher.push(input.prefill);
  }

  try {
    for (let round = 1; ; round++) {
      if (signal.aborted) break;
      const roundText: string[] = [];
      const calls: Array<{ id: string; name: string; argsText: string; args?: unknown; error?: HostError }> = [];
      let finished = false;
      const emitCall = (phase: Record<string, unknown>) => {
        batcher.flush();
        deps.emit({ type: 'chat.toolCall', sessionId, turnId, round, ...phase } as ChatEvent);
      };
      // Where each call's card sits in the reply (the text before it), kept in its record so a reload draws it there too.
      const offsets = new Map<string, number>();
      const placement = (call: { id: string; name: string }) => {
        const memberName = byName.get(call.name)?.memberName;
        // (Used once the round's text has joined `text`; a call always starts before it ends.)
        return { textOffset: offsets.get(call.id) ?? text.length, ...(memberName ? { memberName: memberName.slice(0, 200) } : {}) };
      };
      // Calls that are not run still end with a result, live as in the saved record.
      const notRun = (list: typeof calls, why: string, qualifiedName?: (call: (typeof calls)[number]) => string | undefined, unoffered = false) => {
        for (const call of list) {
          records.push({ ...notRunRecord(call, round, why, qualifiedName?.(call)), ...placement(call), durationMs: 0, ...(unoffered ? { unoffered: true } : {}) });
          emitCall({ phase: 'result', callId: call.id, ok: false, content: why, errorCode: 'TOOL_NOT_RUN', durationMs: 0, ...(unoffered ? { unoffered: true } : {}) });
        }
      };
      for await (const event of deps.llm.stream(
        target.profile,
        {
          messages,
          model: target.model,
          ...input.parameters,
          ...(inline ? { tools: inline.functions.map((f) => ({ name: f.name, description: f.description, parameters: f.parameters })), toolChoice: 'auto' as const } : {}),
        },
        { signal },
      )) {
        switch (event.type) {
          case 'text-delta':
            onModelDelta?.(event.text);
            roundText.push(event.text);
            thought.pause();
            thinking.flush();
            batcher.push(event.text);
            break;
          case 'reasoning-delta': {
            const piece = thought.add(event.text);
            if (piece) thinking.push(piece);
            break;
          }
          case 'tool-call-start':
            thought.pause();
            offsets.set(event.id, text.length + roundText.join('').length);
            emitCall({ phase: 'started', callId: event.id, index: event.index });
            break;
          case 'tool-call-name': {
            const fn = byName.get(event.name);
            emitCall({ phase: 'name', callId: event.id, name: event.name, qualifiedName: fn?.qualifiedName ?? null, memberName: fn?.memberName ?? null });
            break;
          }
          case 'tool-call-args-delta':
            emitCall({ phase: 'args', callId: event.id, delta: event.delta });
            break;
          case 'tool-call-end':
            emitCall({ phase: 'ended', callId: event.id, argsText: event.argsText });
            calls.push({ id: event.id, name: event.name, argsText: event.argsText, args: event.args });
            break;
          case 'tool-call-failed':
            emitCall({ phase: 'failed', callId: event.id, argsText: event.argsText, error: event.error });
            calls.push({ id: event.id, name: event.name, argsText: event.argsText, error: event.error });
            break;
          case 'finish':
            finished = true;
            finishReason = event.reason;
            if (event.usage) {
              sawUsage = true;
              for (const key of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
                if (event.usage[key] !== undefined) usage[key] = (usage[key] ?? 0) + event.usage[key]!;
              }
            }
            break;
          case 'error':
            error = event.error;
            break;
        }
      }
      thought.pause();
      batcher.flush();
      text += roundText.join('');
      if (signal.aborted) break;
      if (error) {
        finishReason = 'error';
        break;
      }
      if (!finished) {
        finishReason = 'error';
        error = { code: 'LLM_BAD_RESPONSE', message: 'The response ended without finishing.' };
        break;
      }
      if (calls.length === 0) break;
      if (!inline) {
        notRun(calls, 'No tools were offered in this turn, so the call was not run.', undefined, true);
        break;
      }
      if (round > inline.maxRounds) {
        finishReason = 'tool-round-cap';
        reason = `The model kept calling tools after ${inline.maxRounds} round${inline.maxRounds === 1 ? '' : 's'}; stopped at the cap (chat.inlineMaxRounds).`;
        notRun(calls, `Not run: the turn stopped at the cap of ${inline.maxRounds} tool round${inline.maxRounds === 1 ? '' : 's'}.`);
        break;
      }
      const looping = guard.looping(calls);
      if (looping) {
        finishReason = 'tool-loop';
        reason = `The model called ${looping} with the same arguments ${LOOP_REPEATS} times; the turn was stopped.`;
        notRun(calls, 'Not run: the model repeated the same call, so the turn was stopped.', (call) => byName.get(call.name)?.qualifiedName);
        break;
      }
      // Answer every call (errors included) and go round again.
      const refs: LlmToolCallRef[] = calls.map((c) => ({ id: c.id, name: c.name, argsText: c.argsText }));
      messages.push({ role: 'assistant', content: roundText.join(''), toolCalls: refs });
      for (const [index, call] of calls.entries()) {
        const fn = byName.get(call.name);
        const duplicate = guard.duplicateId(call.id);
        const outcome = duplicate ? { ok: false as const, error: duplicate, durationMs: 0 } : await runCall(deps.tools, call, fn, toolTimeoutMs, signal, toolDryRun);
        if (signal.aborted) {
          notRun(calls.slice(index), 'Not run: the turn was stopped.', (c) => byName.get(c.name)?.qualifiedName);
          break;
        }
        const content = outcome.ok ? outcome.content : toolErrorText(outcome.error);
        records.push({
          id: call.id,
          name: call.name,
          qualifiedName: fn?.qualifiedName ?? null,
          argsText: call.argsText.slice(0, 1024 * 1024),
          ok: outcome.ok,
          result: content.slice(0, 1024 * 1024),
          ...(outcome.ok ? {} : { errorCode: String(outcome.error.code).slice(0, 64) }),
          round,
          ...placement(call),
          durationMs: outcome.durationMs,
          ...safetyFlags(outcome),
        });
        emitCall({ phase: 'result', callId: call.id, ok: outcome.ok, content, ...(outcome.ok ? {} : { errorCode: outcome.error.code }), durationMs: outcome.durationMs, ...safetyFlags(outcome) });
        messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content });
      }
    }
  } finally {
    thinking.flush();
    thinking.dispose();
    batcher.flush();
    batcher.dispose();
  }

  return { text, usage: sawUsage ? usage : null, records, finishReason, ...(reason ? { reason } : {}), ...(error ? { error } : {}), ...thought.fields() };
}

async function runCall(
  tools: ChatToolRunner,
  call: { id: string; name: string; argsText: string; args?: unknown; error?: HostError },
  fn: InlineTool | undefined,
  timeoutMs: number,
  signal: AbortSignal,
  dryRun: boolean,
): Promise<ToolOutcome> {
  if (call.error) return { ok: false, error: call.error, durationMs: 0 };
  if (!fn) return { ok: false, error: { code: 'UNKNOWN_TOOL', message: `There is no tool named ${call.name}.`, hint: 'Call only the tools offered.' }, durationMs: 0 };
  const outcome = await tools.invoke(fn.qualifiedName, call.args ?? {}, {
    timeoutMs,
    signal,
    origin: 'chat',
    member: { id: fn.memberId, name: fn.memberName, role: fn.role },
    dryRun,
  });
  if (outcome.ok && outcome.content.length > MAX_TOOL_RESULT_CHARS) {
    return { ...outcome, content: `${outcome.content.slice(0, MAX_TOOL_RESULT_CHARS)}\n[truncated]` };
  }
  return outcome;
}

/** A call the model made that the turn did not run; saved so it still shows after a reload. */
function notRunRecord(call: { id: string; name: string; argsText: string }, round: number, why: string, qualifiedName?: string): ChatToolCallRecord {
  return {
    id: call.id,
    name: call.name,
    qualifiedName: qualifiedName ?? null,
    argsText: call.argsText.slice(0, 1024 * 1024),
    ok: false,
    result: why,
    errorCode: 'TOOL_NOT_RUN',
    round,
  };
}

function safetyFlags(outcome: ToolOutcome): { simulated?: boolean; unvalidated?: boolean; cached?: boolean } {
  return {
    ...(outcome.simulated ? { simulated: true } : {}),
    ...(outcome.unvalidated ? { unvalidated: true } : {}),
    ...(outcome.cached ? { cached: true } : {}),
  };
}

/** What the model reads when a call failed: the code, the message and the hint, so it can correct itself. */
function toolErrorText(error: HostError): string {
  return JSON.stringify({ error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}), ...(error.path ? { path: error.path } : {}) } });
}
