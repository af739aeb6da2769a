// spindle.generate in Lumiverse's shapes end to end, as published extensions write their requests: its provider
// knobs, a tool loop in its parts, a stream's reasoning and tool calls, tool_choice, tools in a provider's own shape,
// and an agent's long session — a real host, the generator fixture in a real worker, the local LLM server.
import { describe, expect, it } from 'vitest';
import { chatRigEach } from '../chat/helpers';
import { installGenerator, invokeGenerator } from './generator-rig';

const each = chatRigEach({ mainConnection: true });

const install = (grant: ('tools' | 'generation')[]) => installGenerator(each.rig, grant);
const invoke = (tool: string, args: Record<string, unknown>) => invokeGenerator(each.rig, tool, args);

describe("generation in Lumiverse's shapes", () => {
  it("Lumiverse's provider knobs reach the provider: a json_schema response_format (Tracktor's native mode), top_k, the penalties, seed and stop", async () => {
    await install(['tools', 'generation']);
    const schema = { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'], additionalProperties: false };
    each.rig.server.enqueue({ text: '{"mood":"calm"}' }, { text: '{}' });
    const parameters = { max_tokens: 200, top_k: 40, frequency_penalty: 0.4, presence_penalty: 9, seed: 7, stop: '###', response_format: { type: 'json_schema', json_schema: { name: 'tracker state!', strict: true, schema } } };
    const answer = await invoke('raw', { input: { type: 'quiet', messages: [{ role: 'user', content: 'Track the scene.' }], parameters, connection_id: 'local' } });
    expect(answer).toMatchObject({ ok: true, value: { content: '{"mood":"calm"}' } });
    expect(each.rig.server.generations[0]!.body).toMatchObject({
      max_tokens: 200,
      top_k: 40,
      frequency_penalty: 0.4,
      // Out of the provider's range: brought within it, as the person's settings are.
      presence_penalty: 2,
      seed: 7,
      stop: ['###'],
      response_format: { type: 'json_schema', json_schema: { name: 'tracker_state_', strict: true, schema } },
    });
    // json_object asks for any JSON; "off" values (top_k 0, seed -1) are left out.
    await invoke('raw', { input: { type: 'raw', messages: [{ role: 'user', content: 'JSON please.' }], parameters: { top_k: 0, seed: -1, response_format: { type: 'json_object' } }, connection_id: 'local' } });
    const second = each.rig.server.generations[1]!.body as Record<string, unknown>;
    expect(second.response_format).toEqual({ type: 'json_object' });
    expect([second.top_k, second.seed]).toEqual([undefined, undefined]);
    // A schema without strict is not sent strict (OpenAI's strict mode refuses ordinary schemas).
    each.rig.server.enqueue({ text: '{}' });
    await invoke('raw', { input: { type: 'raw', messages: [{ role: 'user', content: 'Loosely.' }], parameters: { response_format: { type: 'json_schema', json_schema: { name: 'loose', schema } } }, connection_id: 'local' } });
    expect((each.rig.server.generations[2]!.body as { response_format: unknown }).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'loose', strict: false, schema } });
    // A response_format that is neither text nor JSON is refused at its path; nothing more reaches the server.
    for (const [format, where] of [[{ type: 'xml' }, '/parameters/response_format/type'], [{ type: 'json_schema', json_schema: { name: 'x' } }, '/parameters/response_format/json_schema/schema'], ['json', '/parameters/response_format']] as const) {
      expect(await invoke('raw', { input: { type: 'raw', messages: [{ role: 'user', content: 'Hi.' }], parameters: { response_format: format }, connection_id: 'local' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: where } });
    }
    expect(each.rig.server.generations).toHaveLength(3);
  });

  it("parameters the Workbench does not map reach an OpenAI-compatible server as written, and the reasoning override its effort (the Model Evaluator's Additional parameters and Reasoning)", async () => {
    await install(['tools', 'generation']);
    each.rig.server.enqueue({ text: 'one' }, { text: 'two' });
    const extra = { chat_template_kwargs: { enable_thinking: false }, min_p: 0.05, repetition_penalty: 1.1 };
    // Fields the request is made of are not overridden by parameters of the same name.
    const parameters = { ...extra, max_tokens: 50, messages: [{ role: 'system', content: 'injected' }], stream: false, model: 'other-model', 'bad key': 1, ...(JSON.parse('{"__proto__": {"polluted": true}}') as object), huge: 'x'.repeat(70 * 1024) };
    const answer = await invoke('raw', { input: { type: 'raw', messages: [{ role: 'user', content: 'Think less.' }], parameters, reasoning: { source: 'custom', effort: 'low' }, connection_id: 'local' } });
    expect(answer).toMatchObject({ ok: true, value: { content: 'one' } });
    const body = each.rig.server.generations[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ ...extra, max_tokens: 50, reasoning_effort: 'low', model: 'other-model', stream: true, messages: [{ role: 'user', content: 'Think less.' }] });
    expect(Object.keys(body).filter((k) => ['bad key', 'huge', '__proto__', 'polluted'].includes(k))).toEqual([]);
    // The effort written into parameters wins; "off" and "inherit" add none.
    await invoke('raw', { input: { type: 'raw', messages: [{ role: 'user', content: 'Hi.' }], parameters: { reasoning_effort: 'high' }, reasoning: { source: 'custom', effort: 'low' }, connection_id: 'local' } });
    expect((each.rig.server.generations[1]!.body as Record<string, unknown>).reasoning_effort).toBe('high');
    // Off, an effort the providers do not know, no API reasoning, or the SDK's own option names: no effort is sent.
    const without = [
      { reasoning: { source: 'off' } },
      { reasoning: { source: 'custom', effort: 'auto' } },
      { reasoning: { source: 'custom', effort: 'extreme' } },
      { reasoning: { source: 'custom', effort: 'high', apiReasoning: false } },
      { parameters: { reasoningEffort: 'high', textVerbosity: 'loud', strictJsonSchema: 'yes' } },
    ];
    for (const extra of without) {
      each.rig.server.enqueue({ text: 'ok' });
      expect(await invoke('raw', { input: { type: 'raw', messages: [{ role: 'user', content: 'Hi.' }], connection_id: 'local', ...extra } })).toMatchObject({ ok: true });
      const sent = each.rig.server.generations.at(-1)!.body as Record<string, unknown>;
      expect([sent.reasoning_effort, sent.reasoningEffort, sent.textVerbosity, sent.strictJsonSchema, sent.verbosity]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    }
  });

  it("a tool loop in Lumiverse's parts (WorldForge, Psyche): tool_use is the assistant's call, tool_result the tool's answer, sent on as the provider's own", async () => {
    await install(['tools', 'generation']);
    const tools = [{ name: 'lookup_lore', description: 'Finds lore.', parameters: { type: 'object', properties: { topic: { type: 'string' } } } }];
    each.rig.server.enqueue({ toolCalls: [{ id: 'call_7', name: 'lookup_lore', args: { topic: 'the harbour' } }] }, { text: 'The harbour was built by smugglers.' });
    const ask = [{ role: 'user', content: 'Tell me of the harbour.' }];
    const first = await invoke('raw', { input: { type: 'raw', messages: ask, tools, connection_id: 'local' } });
    expect(first).toMatchObject({ ok: true, value: { finish_reason: 'tool_calls', tool_calls: [{ name: 'lookup_lore', args: { topic: 'the harbour' }, call_id: 'call_7' }] } });
    // Round two, as published agents write it: the call as the assistant's tool_use part, its answer as a user's tool_result part.
    const second = await invoke('raw', {
      input: {
        type: 'raw',
        tools,
        connection_id: 'local',
        messages: [
          ...ask,
          { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'call_7', name: 'lookup_lore', input: { topic: 'the harbour' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_7', content: 'Smugglers built it in 1702.' }, { type: 'text', text: 'Answer briefly.' }] },
        ],
      },
    });
    expect(second).toMatchObject({ ok: true, value: { content: 'The harbour was built by smugglers.', finish_reason: 'stop' } });
    const sent = (each.rig.server.generations[1]!.body as { messages: unknown[] }).messages;
    expect(sent).toEqual([
      { role: 'user', content: 'Tell me of the harbour.' },
      { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'lookup_lore', arguments: '{"topic":"the harbour"}' } }] },
      { role: 'tool', tool_call_id: 'call_7', content: 'Smugglers built it in 1702.' },
      { role: 'user', content: 'Answer briefly.' },
    ]);
    // A tool part out of place, or without what names it, is refused at its path; nothing reaches the server.
    const bad = [
      [{ role: 'user', content: [{ type: 'tool_use', id: 'x', name: 'lookup_lore', input: {} }] }, '/messages/0/content/0'],
      [{ role: 'assistant', content: [{ type: 'tool_use', name: 'lookup_lore', input: {} }] }, '/messages/0/content/0/id'],
      [{ role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'look up', input: {} }] }, '/messages/0/content/0/name'],
      [{ role: 'user', content: [{ type: 'tool_result', content: 'orphan' }] }, '/messages/0/content/0/tool_use_id'],
    ] as const;
    for (const [message, path] of bad) {
      expect(await invoke('raw', { input: { type: 'raw', messages: [message], connection_id: 'local' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path } });
    }
    expect(each.rig.server.generations).toHaveLength(2);
  });

  it("rawStream yields the model's reasoning and text as they come, and its done chunk carries the whole response: reasoning and tool calls too (Lummate, LumiScript's assistant)", async () => {
    await install(['tools', 'generation']);
    const tools = [{ name: 'parse_scene', description: 'Parses the scene.', parameters: { type: 'object', properties: { mood: { type: 'string' } } } }];
    each.rig.server.enqueue({ reasoning: ['The user wants ', 'a parse.'], text: 'Parsing.', toolCalls: [{ id: 'call_3', name: 'parse_scene', args: ['{"mood":', '"tense"}'] }] }, { reasoning: 'Short thought.', text: 'Plain.' });
    const streamed = await invoke('rawStream', { input: { type: 'raw', messages: [{ role: 'user', content: 'Parse this.' }], tools, connection_id: 'local' } });
    expect(streamed).toEqual({
      ok: true,
      value: [
        { type: 'reasoning', token: 'The user wants ' },
        { type: 'reasoning', token: 'a parse.' },
        { type: 'token', token: 'Parsing.' },
        {
          type: 'done',
          content: 'Parsing.',
          reasoning: 'The user wants a parse.',
          finish_reason: 'tool_calls',
          tool_calls: [{ name: 'parse_scene', args: { mood: 'tense' }, call_id: 'call_3' }],
          usage: { prompt_tokens: 50, completion_tokens: 12, total_tokens: 62 },
        },
      ],
    });
    // Collected, as raw answers: the reasoning beside the content.
    const raw = await invoke('raw', { input: { type: 'raw', messages: [{ role: 'user', content: 'Think, then answer.' }], connection_id: 'local' } });
    expect(raw).toMatchObject({ ok: true, value: { content: 'Plain.', reasoning: 'Short thought.', finish_reason: 'stop' } });
  });

  it("parameters.tool_choice reaches the provider, in OpenAI's words or Anthropic's; a forced tool the request does not offer is refused at its path and nothing is sent", async () => {
    await install(['tools', 'generation']);
    const tools = [
      { name: 'roll', description: 'Rolls.', parameters: { type: 'object', properties: {} } },
      { name: 'note', description: 'Notes.', parameters: { type: 'object', properties: {} } },
    ];
    const ask = (tool_choice: unknown) => invoke('raw', { input: { type: 'raw', messages: [{ role: 'user', content: 'Go.' }], tools, connection_id: 'local', parameters: { tool_choice } } });
    const choices: Array<[unknown, unknown]> = [
      ['required', 'required'],
      ['none', 'none'],
      [{ type: 'function', function: { name: 'note' } }, { type: 'function', function: { name: 'note' } }],
      [{ type: 'any' }, 'required'],
      [{ type: 'tool', name: 'roll' }, { type: 'function', function: { name: 'roll' } }],
      ['auto', 'auto'],
      // A shape no provider uses: the model decides.
      [{ mode: 'sometimes' }, 'auto'],
    ];
    for (let i = 0; i < choices.length; i++) each.rig.server.enqueue({ text: 'ok' });
    for (const [given] of choices) expect(await ask(given)).toMatchObject({ ok: true });
    expect(each.rig.server.generations.map((g) => (g.body as { tool_choice?: unknown }).tool_choice)).toEqual(choices.map(([, sent]) => sent));
    expect(await ask({ type: 'function', function: { name: 'vanish' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: '/parameters/tool_choice' } });
    expect(each.rig.server.generations).toHaveLength(choices.length);
  });

  it("tools written into parameters in a provider's own shape (Anthropic's input_schema, OpenAI's function) are offered when the request has none of its own; a tool neither shape describes is left out", async () => {
    await install(['tools', 'generation']);
    each.rig.server.enqueue({ toolCalls: [{ id: 'call_1', name: 'set_expression', args: { expression: 'smile' } }] }, { text: 'ok' });
    const schema = { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] };
    const anthropic = await invoke('quiet', {
      input: { type: 'quiet', messages: [{ role: 'user', content: 'Pick one.' }], connection_id: 'local', parameters: { tools: [{ name: 'set_expression', description: 'Sets it.', input_schema: schema }, { name: 'no schema' }], tool_choice: { type: 'tool', name: 'set_expression' } } },
    });
    expect(anthropic).toMatchObject({ ok: true, value: { tool_calls: [{ name: 'set_expression', args: { expression: 'smile' } }] } });
    const first = each.rig.server.generations[0]!.body as { tools: Array<{ function: { name: string; parameters: unknown } }>; tool_choice: unknown };
    expect(first.tools.map((t) => t.function.name)).toEqual(['set_expression']);
    expect(first.tools[0]!.function.parameters).toMatchObject(schema);
    expect(first.tool_choice).toEqual({ type: 'function', function: { name: 'set_expression' } });
    await invoke('quiet', { input: { type: 'quiet', messages: [{ role: 'user', content: 'Again.' }], connection_id: 'local', parameters: { tools: [{ type: 'function', function: { name: 'note', parameters: { type: 'object', properties: {} } } }, { type: 'function', function: { name: 'ping' } }] } } });
    // A function without a schema takes no arguments, as OpenAI reads one.
    const second = (each.rig.server.generations[1]!.body as { tools: Array<{ function: { name: string; parameters: unknown } }> }).tools;
    expect(second.map((t) => t.function.name)).toEqual(['note', 'ping']);
    expect(second[1]!.function.parameters).toMatchObject({ type: 'object', properties: {} });
  });

  it("an agent's long session runs as Lumiverse runs it (LumiAgent near its compaction point): 1.5 MB over 1,500 messages with 100 tools reaches the model whole", async () => {
    await install(['tools', 'generation']);
    each.rig.server.enqueue({ text: 'Compacted.' });
    const fill = { messages: 1500, chars: 1000, tools: 100 };
    expect(await invoke('raw', { input: { type: 'raw', connection_id: 'local' }, fill })).toMatchObject({ ok: true, value: { content: 'Compacted.' } });
    const body = each.rig.server.generations[0]!.body as { messages: unknown[]; tools: unknown[] };
    expect(body.messages).toHaveLength(1500);
    expect(body.tools).toHaveLength(100);
    expect(each.rig.server.generations[0]!.rawBody.length).toBeGreaterThan(1_500_000);
  });
});
