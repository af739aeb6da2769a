// The tool-calling probe: a fixed set of cases (resources/probe/tool-calling.json) run against a connection's model, so
// a person can tell before trusting it as the sidecar whether it calls tools well — valid calls, restraint when no
// call is needed, follow-up turns — with its latency and speed. The result is a capability card, kept per model.
import fs from 'node:fs';
import type { ConnectionProfile, LlmMessage, LlmToolDefinition } from '../../../shared/types/llm';
import type { ProbeCard } from '../../../shared/types/local-models';
import { lazyValidator } from '../contract/validators';
import { resourceFile } from '../util/resource-file';
import type { LlmClient } from '../llm/client';

interface ProbeCase {
  id: string;
  kind: 'single' | 'choice' | 'nested' | 'restraint' | 'follow-up';
  tools: string[];
  history?: LlmMessage[];
  prompt: string | null;
  expect: { call: string | null; args?: Record<string, unknown> };
}

interface ProbeFile {
  tools: Record<string, { description: string; parameters: Record<string, unknown> }>;
  cases: ProbeCase[];
}

/** The cases file (resources/probe/tool-calling.json). */
export function probeCasesFile(): string {
  return resourceFile(import.meta.url, 'probe', 'tool-calling.json');
}

/** Whether `actual` holds what `expected` names: strings by case-insensitive containment, arrays by their items. */
export function holds(expected: unknown, actual: unknown): boolean {
  if (typeof expected === 'string') return typeof actual === 'string' && actual.toLowerCase().includes(expected.toLowerCase());
  if (Array.isArray(expected)) return Array.isArray(actual) && expected.every((item) => actual.some((a) => holds(item, a)));
  if (expected !== null && typeof expected === 'object') {
    return actual !== null && typeof actual === 'object' && Object.entries(expected).every(([k, v]) => holds(v, (actual as Record<string, unknown>)[k]));
  }
  return expected === actual;
}

export interface ProbeOptions {
  llm: LlmClient;
  profile: ConnectionProfile;
  model: string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  casesFile?: string;
  now?: () => number;
  /** Longest answer per case (default 256: a call, or a short reply). */
  maxTokens?: number;
}

export async function probeToolCalling(options: ProbeOptions): Promise<ProbeCard> {
  const file = JSON.parse(fs.readFileSync(options.casesFile ?? probeCasesFile(), 'utf8')) as ProbeFile;
  const validators = new Map(Object.entries(file.tools).map(([name, tool]) => [name, lazyValidator(tool.parameters)]));
  const byKind: ProbeCard['byKind'] = {};
  const failures: ProbeCard['failures'] = [];
  let latency = 0;
  let outputTokens = 0;
  for (const [index, probe] of file.cases.entries()) {
    const tools: LlmToolDefinition[] = probe.tools.map((name) => ({ name, description: file.tools[name]!.description, parameters: file.tools[name]!.parameters as LlmToolDefinition['parameters'] }));
    const messages: LlmMessage[] = [{ role: 'system', content: 'You are a helpful assistant. Call a tool only when the request needs one.' }, ...(probe.history ?? []), ...(probe.prompt ? [{ role: 'user' as const, content: probe.prompt }] : [])];
    const started = performance.now();
    let why: string | null = null;
    try {
      const reply = await options.llm.complete(options.profile, { messages, tools, toolChoice: 'auto', temperature: 0, maxTokens: options.maxTokens ?? 256, model: options.model }, { timeoutMs: 120_000, ...(options.signal ? { signal: options.signal } : {}) });
      outputTokens += reply.usage?.outputTokens ?? 0;
      const call = reply.toolCalls[0];
      if (probe.expect.call === null) why = call ? `called ${call.name} when no call was needed` : null;
      else if (!call) why = `answered with text instead of calling ${probe.expect.call}`;
      else if (call.name !== probe.expect.call) why = `called ${call.name}, not ${probe.expect.call}`;
      else if (!call.ok) why = `its arguments were not JSON (${call.error.code})`;
      else if (!validators.get(call.name)!(call.args)) why = `its arguments broke the schema: ${JSON.stringify(call.args).slice(0, 200)}`;
      else if (probe.expect.args && !holds(probe.expect.args, call.args)) why = `its arguments missed what was asked: ${JSON.stringify(call.args).slice(0, 200)}`;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      why = `the call failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    latency += performance.now() - started;
    const tally = (byKind[probe.kind] ??= { passed: 0, of: 0 });
    tally.of++;
    if (why) failures.push({ id: probe.id, kind: probe.kind, why });
    else tally.passed++;
    options.onProgress?.(index + 1, file.cases.length);
  }
  const sum = (kinds: string[], expectCall: boolean) => {
    const cases = file.cases.filter((c) => kinds.includes(c.kind) && (c.expect.call !== null) === expectCall);
    return { passed: cases.filter((c) => !failures.some((f) => f.id === c.id)).length, of: cases.length };
  };
  const seconds = latency / 1000;
  return {
    connectionId: options.profile.id,
    model: options.model,
    probedAt: (options.now ?? Date.now)(),
    cases: file.cases.length,
    validCalls: sum(['single', 'choice', 'nested', 'follow-up'], true),
    restraint: sum(['restraint', 'follow-up'], false),
    followUp: byKind['follow-up'] ?? { passed: 0, of: 0 },
    byKind,
    meanLatencyMs: Math.round(latency / file.cases.length),
    tokensPerSecond: seconds > 0 ? Math.round((outputTokens / seconds) * 10) / 10 : 0,
    failures,
  };
}
