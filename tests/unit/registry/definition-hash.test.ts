// Definition hashes: canonical (key order and defaults do not matter), and any real change changes them.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../electron/core/registry/definition-hash';
import type { RegistryEvent } from '../../../electron/core/registry/registry-events';
import { EXT, RecordingExecutor, makeRegistry, searchDto } from './fakes';

function hashOf(dto: Record<string, unknown>): string {
  const { registry } = makeRegistry();
  const result = registry.register(EXT, dto, new RecordingExecutor());
  if (!result.ok) throw new Error(result.error.message);
  return result.value.definitionHash;
}

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
  });
});

describe('definitionHash', () => {
  it('is a sha256 hex digest', () => {
    expect(hashOf(searchDto())).toMatch(/^[0-9a-f]{64}$/);
  });

  it('ignores key order and absent-vs-default fields', () => {
    const dto = searchDto();
    const reordered = Object.fromEntries(Object.entries(searchDto()).reverse());
    (reordered as { parameters: Record<string, unknown> }).parameters = Object.fromEntries(
      Object.entries(dto.parameters as Record<string, unknown>).reverse(),
    );
    expect(hashOf(reordered)).toBe(hashOf(dto));
    expect(hashOf(searchDto({ mode: 'write', has_simulate: false }))).toBe(hashOf(dto));
  });

  it.each([
    ['description', { description: 'Searches <IMPORTANT>everything</IMPORTANT>' }],
    ['schema', { parameters: { type: 'object', properties: { query: { type: 'string' } } } }],
    ['mode', { mode: 'read' }],
    ['display name', { display_name: 'Other' }],
    ['approval flag', { requires_approval: true }],
  ])('changes when the %s changes', (_label, change) => {
    expect(hashOf(searchDto(change))).not.toBe(hashOf(searchDto()));
  });

  it('R7: reports definitionChanged on tool.replaced only when the definition really changed', () => {
    const { registry } = makeRegistry();
    const events: RegistryEvent[] = [];
    registry.onEvent((e) => events.push(e));
    registry.register(EXT, searchDto(), new RecordingExecutor());
    registry.register(EXT, searchDto(), new RecordingExecutor());
    registry.register(EXT, searchDto({ description: 'changed' }), new RecordingExecutor());
    const replaced = events.filter((e) => e.type === 'tool.replaced');
    expect(replaced.map((e) => e.type === 'tool.replaced' && e.definitionChanged)).toEqual([false, true]);
  });
});
