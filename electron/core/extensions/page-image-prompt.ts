// Lumiverse's image prompt modes, for a frontend's own image routes (image-gen/preview-prompt, and generate's
// promptMode): `custom` is the prompt as written; `scene` (its default when none is written) and `parsed_custom` (the
// prompt as a model's instructions) have a model write it from the chat. Here that model is the person's main
// connection asked through the extension's own grants — the chat's latest messages (chat.getMessages, chat_mutation)
// and one reply (generate.raw, generation, within its limits) — so it reaches nothing it was not granted; the image
// side (image_gen, a connection) is asked first, and a model writes at most as many prompts a minute as images may be
// made. The words asking for the prompt are the Workbench's own.
import type { HostError, Result } from '../../../shared/errors';
import { MAX_IMAGES_A_MINUTE } from './spindle-host/image-gen';

export type SpindleAsk = (method: string, args: unknown[]) => Promise<Result<unknown>>;

/** The chat's latest messages a prompt is written from, and at most this many characters of them. */
export const PROMPT_CONTEXT = { messages: 12, chars: 24_000 };
/** The longest prompt handed back (an image model reads far less). */
const MAX_PROMPT_CHARS = 4_000;

const WRITER = [
  'You write prompts for an image generation model.',
  'Read the conversation, then write one prompt for a single picture: who is in it and how they look, what they do, the setting, lighting, mood, composition and style, as short descriptive phrases separated by commas.',
  'Name no one the picture would not show, write no dialogue, no story and no commentary.',
  'Answer with JSON only: {"prompt": "...", "negative_prompt": "..."} (negative_prompt: what the picture must not show; may be empty).',
].join(' ');
const SCENE = 'Picture the scene as it stands at the end of the conversation.';

export interface PromptAsked {
  chatId: string;
  connectionId?: unknown;
  promptMode?: unknown;
  prompt?: unknown;
  negativePrompt?: unknown;
}

export type WrittenPrompt = { prompt: string; negativePrompt?: string };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The mode Lumiverse would use: the one asked, else custom when a prompt is written, else scene. */
export function promptMode(input: PromptAsked): 'custom' | 'scene' | 'parsed_custom' | null {
  const mode = input.promptMode ?? (text(input.prompt).trim() ? 'custom' : 'scene');
  return mode === 'custom' || mode === 'scene' || mode === 'parsed_custom' ? mode : null;
}

/**
 * The prompt for an image of `input.chatId`, written as its mode says, with the provider of the image connection it is
 * for. The image side is asked first (image_gen, a connection), so nothing is billed for a prompt no image could use;
 * a prompt a model writes takes a `turn` (absent: always one).
 */
export async function writeImagePrompt(input: PromptAsked, ask: SpindleAsk, turn: () => boolean = () => true): Promise<Result<WrittenPrompt & { provider: string }>> {
  const mode = promptMode(input);
  if (mode === null) return refused('INVALID_INPUT', 'promptMode is custom, scene or parsed_custom.');
  const listed = await ask('imageGen.listConnections', []);
  if (!listed.ok) return listed;
  const connections = listed.value as Array<{ id: string; provider: string }>;
  const wanted = text(input.connectionId);
  // Lumiverse's words when there is nothing to make it with, as imageGen.generate says them.
  const connection = wanted ? connections.find((c) => c.id === wanted) : connections[0];
  if (!connection) return refused('UNSUPPORTED_HERE', wanted ? 'Image gen connection not found' : 'No default image gen connection configured');
  const written = await promptFor(mode, input, ask, turn);
  return written.ok ? { ok: true, value: { ...written.value, provider: connection.provider } } : written;
}

async function promptFor(mode: 'custom' | 'scene' | 'parsed_custom', input: PromptAsked, ask: SpindleAsk, turn: () => boolean): Promise<Result<WrittenPrompt>> {
  const negative = text(input.negativePrompt).slice(0, MAX_PROMPT_CHARS) || undefined;
  if (mode === 'custom') {
    if (!text(input.prompt).trim()) return refused('INVALID_INPUT', 'A custom prompt is required.');
    return { ok: true, value: { prompt: text(input.prompt), ...(negative ? { negativePrompt: negative } : {}) } };
  }
  if (mode === 'parsed_custom' && !text(input.prompt).trim()) return refused('INVALID_INPUT', "parsed_custom needs the parser's instructions as the prompt.");
  const read = await ask('chat.getMessages', [input.chatId]);
  if (!read.ok) return read;
  const context = latest(read.value as ReadMessage[]);
  if (mode === 'scene' && context.length === 0) return refused('INVALID_INPUT', 'The chat has no messages to picture.');
  if (!turn()) return refused('RATE_LIMITED', `At most ${MAX_IMAGES_A_MINUTE} image prompts a minute are written for an extension; this one was not.`);
  const instructions = mode === 'scene' ? SCENE : `Instructions from the person:\n${text(input.prompt)}`;
  const reply = await ask('generate.raw', [{ messages: [{ role: 'system', content: WRITER }, ...context, { role: 'user', content: `${instructions}\n\nWrite the image prompt now.` }] }]);
  if (!reply.ok) return reply;
  const written = parseWritten(text((reply.value as { text?: unknown }).text));
  if (!written.prompt) return refused('LLM_BAD_RESPONSE', 'The model wrote no image prompt.');
  // The caller's negative prompt wins over the model's.
  const negativePrompt = negative ?? written.negativePrompt;
  return { ok: true, value: { prompt: written.prompt, ...(negativePrompt ? { negativePrompt } : {}) } };
}

type ReadMessage = { content?: unknown; name?: unknown; is_user?: unknown; extra?: { hidden?: unknown } };

/**
 * The chat's latest messages the prompt reads (hidden ones left out, as from the chat's own prompt), within
 * PROMPT_CONTEXT: the newest first kept, a long one cut to what is left of the budget (its end, the latest of it).
 */
function latest(messages: ReadMessage[]): Array<{ role: 'user' | 'assistant'; content: string }> {
  const out: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  let left = PROMPT_CONTEXT.chars;
  for (const m of messages.filter((x) => x.extra?.hidden !== true).slice(-PROMPT_CONTEXT.messages).reverse()) {
    if (left <= 0) break;
    const said = text(m.content);
    const who = `${text(m.name) || (m.is_user ? 'User' : 'Character')}: `;
    const line = who + (who.length + said.length > left ? said.slice(-(left - who.length)) : said);
    left -= line.length;
    out.unshift({ role: m.is_user ? 'user' : 'assistant', content: line });
  }
  return out;
}

/** The prompt in a model's answer: its JSON (fenced or not), else its text; its thinking left out. */
export function parseWritten(answer: string): WrittenPrompt {
  const cleaned = answer.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const candidate = (cleaned.match(/```(?:json)?\s*([\s\S]*?)```/i)?.[1] ?? cleaned).trim();
  let prompt = candidate;
  let negative = '';
  if (candidate.startsWith('{')) {
    try {
      const parsed = JSON.parse(candidate) as Record<string, unknown>;
      prompt = text(parsed.prompt) || text(parsed.positive_prompt);
      negative = text(parsed.negative_prompt) || text(parsed.negativePrompt);
    } catch {
      // Not JSON after all: its text is the prompt.
    }
  }
  prompt = prompt.trim().slice(0, MAX_PROMPT_CHARS);
  negative = negative.trim().slice(0, MAX_PROMPT_CHARS);
  return { prompt, ...(negative ? { negativePrompt: negative } : {}) };
}

function refused(code: HostError['code'], message: string): Result<never> {
  return { ok: false, error: { code, message } };
}
