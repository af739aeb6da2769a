// What an extension's generation answers: the text or the documented fields only, within the result's size, and
// Lumiverse's batch run request by request.
import { HostFailure, type HostError } from '../../../../shared/errors';
import { MAX_GENERATE_RESULT_BYTES, utf8ByteLength, type LumiverseBatchInput, type LumiverseGenerateInput, type RawGenerateResult } from '../../../../shared/protocol';
import type { ExtensionGenerator } from './generation-gate';

export type Answer = { ok: true; value: unknown } | { ok: false; error: HostError };

/** Lumiverse's batch: each request in order (or together when `concurrent`), each answer or error by index. */
export async function runBatch(generator: ExtensionGenerator, input: LumiverseBatchInput, signal: AbortSignal): Promise<unknown[]> {
  const one = async (request: LumiverseGenerateInput, index: number) => {
    if (signal.aborted) return { index, success: false, error: 'AbortError: Generation aborted' };
    try {
      const response = (await generator.lumiverse(request, signal)) as { content: string; finish_reason: string; usage?: unknown };
      return { index, success: true, content: response.content, finish_reason: response.finish_reason, ...(response.usage ? { usage: response.usage } : {}) };
    } catch (err) {
      return { index, success: false, error: err instanceof HostFailure ? err.error.message : 'The generation failed.' };
    }
  };
  if (input.concurrent) return Promise.all(input.requests.map(one));
  const results: unknown[] = [];
  for (const [index, request] of input.requests.entries()) results.push(await one(request, index));
  return results;
}

function tooLarge(bytes: number): { ok: false; error: HostError } {
  return { ok: false, error: { code: 'RESULT_TOO_LARGE', message: `The generated text is ${bytes} bytes; the limit is ${MAX_GENERATE_RESULT_BYTES}.`, hint: 'Ask for fewer tokens.' } };
}

function checkedText(text: string): number | null {
  if (text.length * 3 <= MAX_GENERATE_RESULT_BYTES) return null;
  const bytes = utf8ByteLength(text);
  return bytes > MAX_GENERATE_RESULT_BYTES ? bytes : null;
}

export function quietValue(value: unknown): { ok: true; value: string } | { ok: false; error: HostError } {
  const text = typeof value === 'string' ? value : '';
  const over = checkedText(text);
  return over === null ? { ok: true, value: text } : tooLarge(over);
}

/** Copies only the documented fields: whatever else the generator returned stays in the host. */
export function rawValue(value: unknown): { ok: true; value: RawGenerateResult } | { ok: false; error: HostError } {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Partial<RawGenerateResult>;
  const text = typeof v.text === 'string' ? v.text : '';
  const over = checkedText(text);
  if (over !== null) return tooLarge(over);
  const reasons: RawGenerateResult['finishReason'][] = ['stop', 'length', 'tool-calls', 'content-filter', 'other'];
  const out: RawGenerateResult = { text, finishReason: reasons.includes(v.finishReason as RawGenerateResult['finishReason']) ? v.finishReason! : 'other' };
  if (v.usage && typeof v.usage === 'object') {
    const usage: NonNullable<RawGenerateResult['usage']> = {};
    for (const key of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
      const n = v.usage[key];
      if (typeof n === 'number' && Number.isFinite(n)) usage[key] = n;
    }
    if (Object.keys(usage).length) out.usage = usage;
  }
  return { ok: true, value: out };
}
