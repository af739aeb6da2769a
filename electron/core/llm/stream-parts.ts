// One attempt's AI SDK stream parts as our events: text, tool calls in order (via the sequencer), the finish with its
// reason and usage, errors classified, and a cap on what one response may stream. Events wait in `pending` for the
// client to yield; a part that ends the attempt returns how (done, or retry before any output).
import type { TextStreamPart, ToolSet } from 'ai';
import type { HostError } from '../../../shared/errors';
import type { LlmEvent, LlmFinishReason, LlmUsage } from '../../../shared/types/llm';
import type { Logger } from '../ports';
import type { Redactor } from '../connections/redact';
import { classifyError } from '../connections/provider-errors';
import { ToolCallSequencer } from './tool-call-sequencer';

export type AttemptOutcome = { kind: 'done' } | { kind: 'retry'; error: HostError; retryAfterMs?: number };

const FINISH_REASONS: Record<string, LlmFinishReason> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content-filter',
  'tool-calls': 'tool-calls',
};

export class StreamParts {
  readonly pending: LlmEvent[] = [];
  private readonly sequencer = new ToolCallSequencer((event) => this.pending.push(event));
  private chars = 0;

  constructor(
    private readonly opts: {
      maxChars: number;
      tools: ToolSet | undefined;
      baseUrl: string;
      redactor: Redactor;
      log: Logger;
    },
  ) {}

  /** Ends the attempt with `error`: open tool calls fail with it, then the error event. */
  fail(error: HostError): void {
    this.sequencer.failOpen(error);
    this.pending.push({ type: 'error', error });
  }

  /** Classified like a stream error part, for a throw around the stream. */
  classify(err: unknown): HostError {
    return classifyError(err, { redactor: this.opts.redactor, baseUrl: this.opts.baseUrl }).error;
  }

  /** Takes one part; returns how the attempt ends if this part ends it. `mayRetry`: nothing has reached the caller yet. */
  take(part: TextStreamPart<ToolSet>, mayRetry: boolean): AttemptOutcome | null {
    const stop = this.translate(part, mayRetry);
    if (this.chars > this.opts.maxChars && !stop) {
      // Unbounded output (a looping model, a hostile server): stop reading, keep what was said.
      this.fail({ code: 'LLM_RESPONSE_TOO_LARGE', message: `The response passed ${this.opts.maxChars} characters and was cut off.` });
      return { kind: 'done' };
    }
    return stop;
  }

  private translate(part: TextStreamPart<ToolSet>, mayRetry: boolean): AttemptOutcome | null {
    const { sequencer, opts } = this;
    switch (part.type) {
      case 'text-delta':
        this.chars += part.text.length;
        if (this.chars <= opts.maxChars) sequencer.text(part.text);
        return null;
      case 'reasoning-delta':
        this.chars += part.text.length;
        if (this.chars <= opts.maxChars) sequencer.reasoning(part.text);
        return null;
      case 'tool-input-start':
        sequencer.start(part.id, part.toolName);
        return null;
      case 'tool-input-delta':
        this.chars += part.delta.length;
        if (this.chars <= opts.maxChars) sequencer.delta(part.id, part.delta);
        return null;
      case 'tool-call': {
        const call = part as unknown as { toolCallId: string; toolName: string; input: unknown; invalid?: boolean; error?: unknown };
        sequencer.start(call.toolCallId, call.toolName);
        const streamed = sequencer.argsText(call.toolCallId);
        const argsText = streamed !== '' ? streamed : typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {});
        if (call.invalid) sequencer.fail(call.toolCallId, argsText, invalidCallError(call.toolName, call.error, opts.tools));
        else sequencer.end(call.toolCallId, argsText, call.input ?? {});
        return null;
      }
      case 'start-step':
        if (part.warnings.length) opts.log.info('LLM provider warnings', part.warnings);
        return null;
      case 'finish': {
        if (part.finishReason === 'other' && part.rawFinishReason === undefined && sequencer.ended === 0) {
          // No finish reason on the wire: the body ended early (no [DONE], no message_stop, no done line).
          this.fail({ code: 'LLM_BAD_RESPONSE', message: 'The response ended before the model finished (truncated stream).' });
          return { kind: 'done' };
        }
        sequencer.failOpen({ code: 'LLM_BAD_RESPONSE', message: 'The response finished in the middle of a tool call.' });
        const reason: LlmFinishReason = sequencer.ended > 0 ? 'tool-calls' : (FINISH_REASONS[part.finishReason] ?? 'other');
        const usage = toUsage(part.totalUsage);
        this.pending.push({ type: 'finish', reason, ...(usage ? { usage } : {}) });
        return { kind: 'done' };
      }
      case 'error': {
        const classified = classifyError(part.error, { redactor: opts.redactor, baseUrl: opts.baseUrl });
        opts.log.warn(`LLM request to ${opts.baseUrl} failed: ${classified.error.code}: ${classified.error.message}`);
        if (classified.retryable && mayRetry && this.pending.length === 0) {
          return { kind: 'retry', error: classified.error, ...(classified.retryAfterMs !== undefined ? { retryAfterMs: classified.retryAfterMs } : {}) };
        }
        this.fail(classified.error);
        return { kind: 'done' };
      }
      default:
        // start, text-start/end, reasoning-start/end, tool-input-end, tool-error (after an invalid call), sources, raw: nothing to report.
        return null;
    }
  }
}

function invalidCallError(toolName: string, error: unknown, tools: ToolSet | undefined): HostError {
  const name = (error as { name?: unknown } | undefined)?.name;
  if (name === 'AI_NoSuchToolError' || !tools || !Object.hasOwn(tools, toolName)) {
    return { code: 'UNKNOWN_TOOL', message: `The model called ${toolName}, which is not among the offered tools.` };
  }
  return { code: 'INVALID_ARGUMENTS_JSON', message: `The model's arguments for ${toolName} are not valid JSON.`, hint: 'Send the arguments again as one JSON object.' };
}

function toUsage(usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): LlmUsage | undefined {
  if (!usage) return undefined;
  const out: LlmUsage = {};
  if (typeof usage.inputTokens === 'number') out.inputTokens = usage.inputTokens;
  if (typeof usage.outputTokens === 'number') out.outputTokens = usage.outputTokens;
  if (typeof usage.totalTokens === 'number') out.totalTokens = usage.totalTokens;
  return Object.keys(out).length ? out : undefined;
}
