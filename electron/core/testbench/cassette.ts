// Cassettes: a case's model answers recorded once from a real connection (`--record --connection <id>`) and
// replayed offline after. Each request is forwarded as the host's own client would send it; the prompt it carried
// is kept beside the answer, so a later run whose prompt differs says so.
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { LlmCompletion, LlmMessage, LlmRequest, LlmToolChoice, LlmToolDefinition } from '../../../shared/types/llm';
import type { TestReply } from '../../../shared/types/extension-test';
import { samplingOf, type ReplayRequest } from './replay-server';
import { stableJson } from './snapshot';

export interface Cassette {
  /** The main model's requests and answers, in order; then the sidecar's (the council plans before the reply). */
  main: Array<{ request: ReplayRequest; reply: TestReply }>;
  sidecar: Array<{ request: ReplayRequest; reply: TestReply }>;
}

/** The cassette's file: the case's `cassette`, or tests/__cassettes__/<name>.cassette.json beside the case. */
export function cassetteFile(caseFile: string, name: string, named?: string): string {
  return named ? path.resolve(path.dirname(caseFile), named) : path.join(path.dirname(caseFile), '__cassettes__', `${name}.cassette.json`);
}

export function readCassette(file: string): Cassette | null {
  if (!fs.existsSync(file)) return null;
  const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Cassette>;
  return { main: value.main ?? [], sidecar: value.sidecar ?? [] };
}

export function writeCassette(file: string, cassette: Cassette): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, stableJson(cassette));
}

interface WireMessage {
  role: LlmMessage['role'];
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; function: { name: string; arguments?: string } }>;
}

/** An OpenAI chat completion body as the host's client request (what a real connection is then sent). */
export function requestOf(body: Record<string, unknown>): LlmRequest {
  const messages = ((body.messages as WireMessage[] | undefined) ?? []).map(
    (m): LlmMessage => ({
      role: m.role,
      content: typeof m.content === 'string' ? m.content : '',
      ...(m.tool_call_id ? { toolCallId: m.tool_call_id } : {}),
      ...(m.tool_calls?.length ? { toolCalls: m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, argsText: c.function.arguments ?? '' })) } : {}),
    }),
  );
  const tools = (body.tools as Array<{ function: { name: string; description?: string; parameters?: object } }> | undefined)?.map((t) => ({ name: t.function.name, description: t.function.description ?? '', parameters: (t.function.parameters ?? { type: 'object' }) as LlmToolDefinition['parameters'] }));
  const choice = body.tool_choice as string | { function?: { name: string } } | undefined;
  const toolChoice: LlmToolChoice | undefined = typeof choice === 'object' && choice.function ? { name: choice.function.name } : choice === 'auto' ? 'auto' : undefined;
  const sampling = samplingOf(body);
  return {
    messages,
    ...(tools?.length ? { tools } : {}),
    ...(toolChoice ? { toolChoice } : {}),
    ...sampling,
    ...(Array.isArray(body.stop) ? { stopSequences: body.stop as string[] } : {}),
  };
}

/** A real model's answer as a case's reply (a call whose arguments were not JSON is kept with none). */
export function replyOf(completion: LlmCompletion): TestReply {
  const toolCalls = completion.toolCalls.map((c) => ({ name: c.name, ...(c.ok && c.args && typeof c.args === 'object' ? { arguments: c.args as Record<string, unknown> } : {}) }));
  return toolCalls.length ? { ...(completion.text ? { text: completion.text } : {}), toolCalls } : completion.text;
}

/** Where this run's prompts left the recorded ones: a line per request, and a diff of each. */
export function promptChanges(recorded: Cassette['main'], now: ReplayRequest[], label: string): { notes: string[]; diff: string } {
  const notes: string[] = [];
  let diff = '';
  now.forEach((request, i) => {
    const before = recorded[i]?.request;
    if (before && stableJson(before) === stableJson(request)) return;
    notes.push(before ? `cassette: ${label} request ${i + 1} differs from the recorded prompt (record again with --record)` : `cassette: ${label} request ${i + 1} has no recorded answer`);
    if (before) diff += createTwoFilesPatch(`${label} request ${i + 1} (recorded)`, `${label} request ${i + 1} (this run)`, stableJson(before), stableJson(request), '', '', { context: 3 });
  });
  return { notes, diff };
}
