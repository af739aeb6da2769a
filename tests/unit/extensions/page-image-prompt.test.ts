// The image prompt a frontend's image routes use (page-image-prompt.ts), over a fake spindle that answers as the
// extension's grants would: the image side first, the chat read without its hidden messages and within its budget, the
// caller's negative prompt kept, a model's answer read as JSON or text, and nothing billed when no image could follow.
import { describe, expect, it } from 'vitest';
import { PROMPT_CONTEXT, writeImagePrompt } from '../../../electron/core/extensions/page-image-prompt';

type Asked = { method: string; args: unknown[] };

function spindle(options: { connections?: Array<{ id: string; provider: string }>; messages?: unknown[]; answer?: string; denied?: string } = {}) {
  const asked: Asked[] = [];
  const ask = async (method: string, args: unknown[]) => {
    asked.push({ method, args });
    if (method === options.denied) return { ok: false as const, error: { code: 'PERMISSION_DENIED' as const, message: `${method} denied` } };
    if (method === 'imageGen.listConnections') return { ok: true as const, value: options.connections ?? [{ id: 'pictures', provider: 'openai' }] };
    if (method === 'chat.getMessages') return { ok: true as const, value: options.messages ?? [] };
    return { ok: true as const, value: { text: options.answer ?? '{"prompt": "a lighthouse"}', finishReason: 'stop' } };
  };
  const sent = () => (asked.find((a) => a.method === 'generate.raw')?.args[0] as { messages: Array<{ role: string; content: string }> } | undefined)?.messages;
  return { ask, asked, sent };
}

const said = (name: string, content: string, isUser = false, hidden = false) => ({ name, content, is_user: isUser, ...(hidden ? { extra: { hidden: true } } : {}) });

describe('an image prompt for a frontend', () => {
  it('asks the image side first: without image_gen or a connection nothing else is asked, nothing billed', async () => {
    for (const setup of [{ denied: 'imageGen.listConnections' }, { connections: [] }]) {
      const s = spindle({ ...setup, messages: [said('Mara', 'The storm.')] });
      const got = await writeImagePrompt({ chatId: 'c1' }, s.ask);
      expect(got.ok).toBe(false);
      expect(s.asked.map((a) => a.method)).toEqual(['imageGen.listConnections']);
    }
    const unknown = spindle();
    expect(await writeImagePrompt({ chatId: 'c1', connectionId: 'elsewhere', prompt: 'x' }, unknown.ask)).toEqual({ ok: false, error: { code: 'UNSUPPORTED_HERE', message: 'Image gen connection not found' } });
  });

  it('reads the chat without its hidden messages, cuts a long one to the budget, and keeps the caller’s negative prompt over the model’s', async () => {
    const long = 'x'.repeat(PROMPT_CONTEXT.chars * 2) + 'THE END';
    const s = spindle({ messages: [said('Ada', 'We climb.', true), said('Mara', 'A secret aside.', false, true), said('Mara', long)], answer: '{"prompt": "stairs", "negative_prompt": "text"}' });
    const got = await writeImagePrompt({ chatId: 'c1', negativePrompt: 'blurry' }, s.ask);
    expect(got).toEqual({ ok: true, value: { prompt: 'stairs', negativePrompt: 'blurry', provider: 'openai' } });
    const context = s.sent()!.slice(1, -1);
    expect(context).toHaveLength(1);
    expect(context[0]!.content.length).toBe(PROMPT_CONTEXT.chars);
    expect(context[0]!.content.startsWith('Mara: x')).toBe(true);
    expect(context[0]!.content.endsWith('THE END')).toBe(true);
    expect(JSON.stringify(s.sent())).not.toContain('secret aside');
  });

  it('a scene of an empty chat, no turn left, or a model that writes nothing: refused, nothing (more) billed', async () => {
    const empty = spindle({ messages: [said('Mara', 'hidden', false, true)] });
    expect(await writeImagePrompt({ chatId: 'c1' }, empty.ask)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(empty.sent()).toBeUndefined();
    const busy = spindle({ messages: [said('Mara', 'The storm.')] });
    expect(await writeImagePrompt({ chatId: 'c1' }, busy.ask, () => false)).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    expect(busy.sent()).toBeUndefined();
    const blank = spindle({ messages: [said('Mara', 'The storm.')], answer: '```json\n{"prompt": ""}\n```' });
    expect(await writeImagePrompt({ chatId: 'c1' }, blank.ask)).toMatchObject({ ok: false, error: { code: 'LLM_BAD_RESPONSE' } });
  });

  it('parsed_custom may write from instructions alone (a greeting to picture), its answer as plain text, a thinking tag left out', async () => {
    const s = spindle({ answer: '<think>watercolour</think> a watercolour of a harbour ' });
    expect(await writeImagePrompt({ chatId: 'c1', promptMode: 'parsed_custom', prompt: 'Picture this greeting: the harbour.' }, s.ask)).toEqual({ ok: true, value: { prompt: 'a watercolour of a harbour', provider: 'openai' } });
    expect(s.sent()!.at(-1)!.content).toContain('Picture this greeting: the harbour.');
  });
});
