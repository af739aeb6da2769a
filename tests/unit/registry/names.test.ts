// Qualified names and provider aliases: unique (also case-insensitively), stable across restarts, reversible.
import { describe, expect, it } from 'vitest';
import { PROVIDER_NAME, deriveAlias, qualifiedName, splitQualifiedName } from '../../../electron/core/registry/names';
import { RecordingExecutor, makeRegistry, searchDto } from './fakes';

const HASHED = /-[0-9a-f]{12}$/;

describe('qualified names', () => {
  it('joins source and tool with ":" and splits at the first ":"', () => {
    expect(qualifiedName('kb', 'search')).toBe('kb:search');
    expect(splitQualifiedName('srv:admin.tools.list')).toEqual({ sourceId: 'srv', toolName: 'admin.tools.list' });
    expect(splitQualifiedName('nocolon')).toBeNull();
    expect(splitQualifiedName(':x')).toBeNull();
  });
});

describe('deriveAlias', () => {
  it('is the readable sourceId__name when that cannot collide', () => {
    expect(deriveAlias('kb:search_knowledge_base')).toBe('kb__search_knowledge_base');
    expect(deriveAlias('my-ext:search')).toBe('my-ext__search');
  });

  it.each([
    ['an uppercase letter (case-insensitive providers)', 'kb:Search'],
    ['a dotted source id', 'com.example:search'],
    ['a source id with "__"', 'a__b:c'],
    ['a source id ending in "_"', 'a_:b'],
    ['an MCP dotted name', 'srv:admin.tools.list'],
    ['an MCP name with "-"', 'srv:list-items'],
    ['a long name', `kb:${'a'.repeat(64)}`],
  ])('hashes a qualified name with %s', (_label, q) => {
    const alias = deriveAlias(q);
    expect(alias).toMatch(PROVIDER_NAME);
    expect(alias).toMatch(HASHED);
  });

  it('is deterministic and depends only on the qualified name', () => {
    expect(deriveAlias('kb:Search')).toBe(deriveAlias('kb:Search'));
    expect(deriveAlias('kb:Search')).not.toBe(deriveAlias('kb:SEARCH'));
  });

  it('never produces a plain alias that looks like a hashed one', () => {
    const victim = deriveAlias('srv.2:foo'); // srv_2__foo-<hash>
    const attacker = deriveAlias(`srv_2:${victim.slice('srv_2__'.length)}`); // tool name "foo-<hash>"
    expect(attacker).not.toBe(victim);
    expect(attacker.toLowerCase()).not.toBe(victim.toLowerCase());
  });
});

describe('aliases in the registry', () => {
  it('R4: gives Search and search in one extension aliases that differ even case-insensitively', () => {
    const { registry } = makeRegistry();
    const a = registry.register({ kind: 'extension', id: 'kb' }, searchDto({ name: 'search' }), new RecordingExecutor());
    const b = registry.register({ kind: 'extension', id: 'kb' }, searchDto({ name: 'Search' }), new RecordingExecutor());
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.value.alias).toBe('kb__search');
    expect(a.value.alias.toLowerCase()).not.toBe(b.value.alias.toLowerCase());
    expect(registry.resolve(b.value.alias)?.qualifiedName).toBe('kb:Search');
    expect(registry.resolve(a.value.alias)?.qualifiedName).toBe('kb:search');
  });

  it('keeps sources whose ids differ only in case apart (KB vs kb)', () => {
    const { registry } = makeRegistry();
    const upper = registry.register({ kind: 'extension', id: 'KB' }, searchDto({ name: 'search' }), new RecordingExecutor());
    const lower = registry.register({ kind: 'extension', id: 'kb' }, searchDto({ name: 'search' }), new RecordingExecutor());
    expect(upper.ok && lower.ok).toBe(true);
    if (!upper.ok || !lower.ok) return;
    expect(upper.value.alias.toLowerCase()).not.toBe(lower.value.alias.toLowerCase());
  });

  it('R5: keeps the same name from two extensions live, with distinct aliases', () => {
    const { registry } = makeRegistry();
    const a = registry.register({ kind: 'extension', id: 'exta' }, searchDto({ name: 'search' }), new RecordingExecutor());
    const b = registry.register({ kind: 'extension', id: 'extb' }, searchDto({ name: 'search' }), new RecordingExecutor());
    expect(a.ok && a.value.qualifiedName).toBe('exta:search');
    expect(b.ok && b.value.qualifiedName).toBe('extb:search');
    expect(a.ok && b.ok && a.value.alias !== b.value.alias).toBe(true);
    expect(registry.list().map((t) => t.qualifiedName)).toEqual(['exta:search', 'extb:search']);
  });

  it('R6: maps an MCP name to a valid provider alias and back (resolveAlias)', () => {
    const { registry } = makeRegistry();
    const long = `admin.tools.${'x'.repeat(88)}`; // 100 chars
    for (const name of ['admin.tools.list', long]) {
      const result = registry.register({ kind: 'mcp', id: 'github' }, searchDto({ name }), new RecordingExecutor());
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      expect(result.value.alias).toMatch(PROVIDER_NAME);
      expect(result.value.name).toBe(name);
      expect(registry.resolveAlias(result.value.alias)).toBe(`github:${name}`);
    }
    expect(registry.resolveAlias('github__nothing')).toBeUndefined();
  });

  it('gives the same aliases in two fresh registries regardless of registration order', () => {
    const tools: Array<[{ kind: 'extension' | 'mcp'; id: string }, string]> = [
      [{ kind: 'extension', id: 'kb' }, 'search'],
      [{ kind: 'extension', id: 'kb' }, 'Search'],
      [{ kind: 'extension', id: 'com.example' }, 'lookup'],
      [{ kind: 'mcp', id: 'github' }, 'admin.tools.list'],
      [{ kind: 'extension', id: 'other' }, 'search'],
    ];
    const aliasesFor = (order: typeof tools) => {
      const { registry } = makeRegistry();
      for (const [source, name] of order) registry.register(source, searchDto({ name }), new RecordingExecutor());
      return Object.fromEntries(registry.list().map((t) => [t.qualifiedName, t.alias]));
    };
    const first = aliasesFor(tools);
    const second = aliasesFor([...tools].reverse());
    expect(Object.keys(first)).toHaveLength(5);
    expect(second).toEqual(first);
    expect(new Set(Object.values(first).map((a) => a.toLowerCase())).size).toBe(5);
  });

  it('frees an alias on unregister and gives the same one back on re-registration', () => {
    const { registry } = makeRegistry();
    const first = registry.register({ kind: 'extension', id: 'kb' }, searchDto({ name: 'Search' }), new RecordingExecutor());
    registry.unregister('kb', 'Search');
    expect(first.ok && registry.resolveAlias(first.value.alias)).toBeUndefined();
    const again = registry.register({ kind: 'extension', id: 'kb' }, searchDto({ name: 'Search' }), new RecordingExecutor());
    expect(first.ok && again.ok && again.value.alias === first.value.alias).toBe(true);
  });
});
