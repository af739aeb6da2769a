// "Copy as": ToolInfo → OpenAI (plain and strict), Anthropic and MCP tool shapes, named by alias.
import { describe, expect, it } from 'vitest';
import {
  exportToolSpec,
  fromStrictArguments,
  toAnthropicTool,
  toMcpTool,
  toOpenAITool,
} from '../../../electron/core/registry/spec-export';
import type { ToolInfo } from '../../../shared/types/tools';
import { EXT, RecordingExecutor, makeRegistry, searchDto } from './fakes';

const parameters = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Search query' },
    limit: { type: 'number', description: 'Max results' },
    sort: { type: 'string', enum: ['asc', 'desc'] },
    filter: {
      type: 'object',
      properties: { tag: { type: 'string' }, since: { type: 'integer' } },
      required: ['tag'],
    },
    pick: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
  },
  required: ['query'],
};

function registered(overrides: Record<string, unknown> = {}) {
  const { registry } = makeRegistry();
  const executor = new RecordingExecutor();
  const result = registry.register(
    { kind: 'mcp', id: 'github' },
    searchDto({ name: 'admin.tools.search', parameters, ...overrides }),
    executor,
  );
  if (!result.ok) throw new Error(result.error.message);
  return { registry, info: result.value as ToolInfo, executor };
}

describe('spec export', () => {
  it('exports a non-strict OpenAI function tool named by the alias with the schema unchanged', () => {
    const { info } = registered();
    const tool = toOpenAITool(info);
    expect(tool).toEqual({
      type: 'function',
      function: { name: info.alias, description: info.description, parameters },
    });
    expect(tool.function.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(tool.function.name).not.toContain(':');
  });

  it('exports strict OpenAI: every object closed, every property required, optional ones nullable', () => {
    const { info } = registered();
    const tool = toOpenAITool(info, { strict: true });
    expect(tool.function.strict).toBe(true);
    const p = tool.function.parameters;
    expect(p).toMatchObject({ additionalProperties: false, required: ['query', 'limit', 'sort', 'filter', 'pick', 'tags'] });
    expect(p.properties).toMatchObject({
      query: { type: 'string' },
      limit: { type: ['number', 'null'] },
      sort: { type: ['string', 'null'], enum: ['asc', 'desc', null] },
      filter: {
        type: ['object', 'null'],
        additionalProperties: false,
        required: ['tag', 'since'],
        properties: { tag: { type: 'string' }, since: { type: ['integer', 'null'] } },
      },
      pick: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
      tags: { items: { additionalProperties: false, required: ['name'] } },
    });
  });

  it('does not touch the registered schema when exporting strict', () => {
    const { registry, info } = registered();
    toOpenAITool(info, { strict: true });
    expect(registry.get(info.qualifiedName)?.parameters).toEqual(parameters);
  });

  it('strict nulls fail the original schema unless mapped back with fromStrictArguments', async () => {
    const { registry, info, executor } = registered();
    const fromModel = { query: 'q', limit: null, sort: null, filter: { tag: 't', since: null }, pick: null, tags: null };
    const raw = await registry.invoke(info.alias, fromModel, { timeoutMs: 1000 });
    expect(!raw.ok && raw.error.code).toBe('INVALID_ARGUMENTS');
    const mapped = fromStrictArguments(info.parameters, fromModel);
    expect(mapped).toEqual({ query: 'q', filter: { tag: 't' } });
    expect((await registry.invoke(info.alias, mapped, { timeoutMs: 1000 })).ok).toBe(true);
    expect(executor.requests).toHaveLength(1);
  });

  it('exports an Anthropic tool', () => {
    const { info } = registered();
    expect(toAnthropicTool(info)).toEqual({ name: info.alias, description: info.description, input_schema: parameters });
  });

  it('exports an MCP tool with readOnlyHint from the mode', () => {
    const write = registered().info;
    expect(toMcpTool(write)).toEqual({
      name: write.alias,
      title: 'Search Knowledge Base',
      description: write.description,
      inputSchema: parameters,
      annotations: { readOnlyHint: false },
    });
    expect(toMcpTool(registered({ mode: 'read' }).info).annotations.readOnlyHint).toBe(true);
  });

  it('exportToolSpec dispatches on the contract format names', () => {
    const { info } = registered();
    expect(exportToolSpec(info, 'openai')).toEqual(toOpenAITool(info));
    expect(exportToolSpec(info, 'openai-strict')).toEqual(toOpenAITool(info, { strict: true }));
    expect(exportToolSpec(info, 'anthropic')).toEqual(toAnthropicTool(info));
    expect(exportToolSpec(info, 'mcp')).toEqual(toMcpTool(info));
    expect(exportToolSpec(info, 'openai')).not.toEqual(exportToolSpec(info, 'openai-strict'));
  });

  it('closes an object with no properties in strict mode', () => {
    const { registry } = makeRegistry();
    const result = registry.register(EXT, searchDto({ name: 'ping', parameters: { type: 'object' } }), new RecordingExecutor());
    if (!result.ok) throw new Error(result.error.message);
    expect(toOpenAITool(result.value, { strict: true }).function.parameters).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });
});
