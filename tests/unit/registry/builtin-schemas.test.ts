// The app's own tool schemas compile when first used (compile-schema.ts, deferCompile), so each is compiled here,
// the way an extension's is at registration: a builtin schema that does not compile fails this test, not a call.
import { describe, expect, it } from 'vitest';
import { NOTE_TOOLS } from '../../../electron/core/notes/note-tools';
import { SchemaCompiler } from '../../../electron/core/registry/compile-schema';
import { ToolRegistry } from '../../../electron/core/registry/tool-registry';

describe('builtin tool schemas', () => {
  it.each(NOTE_TOOLS.map((dto) => [dto.name, dto] as const))('%s compiles as an extension tool would', (_name, dto) => {
    const compiler = new SchemaCompiler();
    const parameters = compiler.compile(dto.parameters, { where: '/parameters', requireObjectRoot: true });
    expect(parameters.ok ? 'ok' : parameters.error.message).toBe('ok');
    if (dto.output_schema !== undefined) {
      const output = compiler.compile(dto.output_schema, { where: '/output_schema', requireObjectRoot: false });
      expect(output.ok ? 'ok' : output.error.message).toBe('ok');
    }
  });

  it('a builtin is registered without compiling and checked on its first call', async () => {
    const registry = new ToolRegistry();
    const executor = { execute: async () => ({ ok: true as const, value: { rolled: 4 } }) };
    const schema = { type: 'object', properties: { sides: { type: 'integer', minimum: 2 } }, required: ['sides'] };
    expect(registry.register({ kind: 'builtin', id: 'dice' }, { name: 'roll', description: 'Rolls.', parameters: schema }, executor).ok).toBe(true);
    const bad = await registry.invoke('dice:roll', { sides: 1 }, { timeoutMs: 1000 });
    expect(bad.ok ? 'ok' : bad.error.code).toBe('INVALID_ARGUMENTS');
    const good = await registry.invoke('dice:roll', { sides: 6 }, { timeoutMs: 1000 });
    expect(good.ok).toBe(true);
  });

  it('an extension schema that does not compile is still refused at registration', () => {
    const registry = new ToolRegistry();
    const executor = { execute: async () => ({ ok: true as const, value: {} }) };
    const result = registry.register({ kind: 'extension', id: 'stranger' }, { name: 'broken', description: 'x', parameters: { type: 'object', properties: { a: { type: 'nonsense' } } } }, executor);
    expect(result.ok ? 'ok' : result.error.code).toBe('INVALID_SCHEMA');
  });
});
