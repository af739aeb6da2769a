// MCP server configs: field-naming validation and import of the desktop hosts' mcpServers JSON.
import { describe, expect, it } from 'vitest';
import { checkServerConfig, validateServerConfig } from '../../../shared/mcp-config';
import { checkDraft, draftFromConfig, fieldMessage, fieldOfPath, toAddInput } from '../../../renderer/src/features/mcp/server-draft';
import { parseMcpServersJson } from '../../../electron/core/mcp/config';
import { serverEnvironment } from '../../../electron/core/mcp/environment';
import { flattenContent, toExecuteResult } from '../../../electron/core/mcp/flatten-result';
import { mapMcpTool, toDraft07 } from '../../../electron/core/mcp/map-tool';

describe('validateServerConfig', () => {
  it('accepts a stdio and an http config and fills defaults', () => {
    expect(validateServerConfig({ id: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'server'] })).toEqual({
      ok: true,
      value: { id: 'fs', name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'server'], trusted: false, enabled: true },
    });
    expect(validateServerConfig({ id: 'web', transport: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer x' }, trusted: true })).toMatchObject({
      ok: true,
      value: { url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer x' }, trusted: true },
    });
  });

  it.each([
    [{ id: 'Bad Id', transport: 'stdio', command: 'x' }, '/id'],
    [{ id: 'a', transport: 'sse', command: 'x' }, '/transport'],
    [{ id: 'a', transport: 'stdio' }, '/command'],
    [{ id: 'a', transport: 'stdio', command: 'x', args: ['ok', 3] }, '/args/1'],
    [{ id: 'a', transport: 'stdio', command: 'x', env: { 'BAD-NAME': 'v' } }, '/env/BAD-NAME'],
    [{ id: 'a', transport: 'stdio', command: 'x', env: { OK: 5 } }, '/env/OK'],
    [{ id: 'a', transport: 'stdio', command: 'x', url: 'http://127.0.0.1' }, '/url'],
    [{ id: 'a', transport: 'http', url: 'file:///etc/passwd' }, '/url'],
    [{ id: 'a', transport: 'http', url: 'http://user:pw@127.0.0.1/' }, '/url'],
    [{ id: 'a', transport: 'http', url: 'http://127.0.0.1/', headers: { 'X-A': 'v\r\nInjected: 1' } }, '/headers/X-A'],
    [{ id: 'a', transport: 'http', url: 'http://127.0.0.1/', command: 'x' }, '/command'],
    [{ id: 'a', transport: 'stdio', command: 'x', trusted: 'yes' }, '/trusted'],
    [{ id: 'a', transport: 'stdio', command: 'x', comand: 'typo' }, '/comand'],
  ])('rejects %j naming %s', (input, path) => {
    const result = validateServerConfig(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toMatchObject({ code: 'INVALID_INPUT', path });
      expect(result.error.message.startsWith(`${path}:`)).toBe(true);
    }
  });
});

describe('parseMcpServersJson', () => {
  const desktop = JSON.stringify({
    mcpServers: {
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { LOG: '1' }, autoApprove: ['read'] },
      'My Remote': { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' } },
      typed: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp' },
      legacy: { type: 'sse', url: 'https://old.example.com/sse' },
      broken: { args: ['x'] },
      notAnObject: 'nope',
    },
  });

  it('creates configs (untrusted, disabled) from the desktop-host format and names the field of each rejected entry', () => {
    const { configs, errors } = parseMcpServersJson(desktop, ['filesystem']);
    expect(configs).toEqual([
      { id: 'filesystem-2', name: 'filesystem', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { LOG: '1' }, trusted: false, enabled: false },
      { id: 'my-remote', name: 'My Remote', transport: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer t' }, trusted: false, enabled: false },
      { id: 'typed', name: 'typed', transport: 'http', url: 'http://127.0.0.1:9/mcp', trusted: false, enabled: false },
    ]);
    expect(errors.map((e) => e.path)).toEqual(['/mcpServers/legacy/type', '/mcpServers/broken/command', '/mcpServers/notAnObject']);
  });

  it('enable: true enables all but entries marked disabled; a bare map works; bad JSON is one error', () => {
    const { configs } = parseMcpServersJson(JSON.stringify({ a: { command: 'x' }, b: { command: 'y', disabled: true } }), [], { enable: true });
    expect(configs.map((c) => [c.id, c.enabled])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(parseMcpServersJson('{nope', []).errors[0]).toMatchObject({ code: 'INVALID_INPUT', path: '/' });
  });

  it('an entry named with / or ~ is one JSON Pointer segment in the error path (escaped ~1 and ~0)', () => {
    const { errors } = parseMcpServersJson(JSON.stringify({ mcpServers: { 'a/b~c': { type: 'sse', url: 'https://x.example/sse' }, 'd/e': {} } }), []);
    expect(errors.map((e) => e.path)).toEqual(['/mcpServers/a~1b~0c/type', '/mcpServers/d~1e/command']);
  });
});

describe('environment, schema dialect, results', () => {
  it('a stdio server environment is the configured env plus PATH; the SDK defaults are removed', () => {
    const env = serverEnvironment({ TOKEN: 't' }, { PATH: '/bin', HOME: '/home/me', OPENAI_API_KEY: 'sk-x', USER: 'me' });
    expect(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined))).toEqual({ PATH: '/bin', TOKEN: 't' });
    expect(serverEnvironment({ PATH: '/custom' }, { PATH: '/bin' }).PATH).toBe('/custom');
  });

  it('drops a 2020-12 $schema only when no 2020-only keyword is used', () => {
    const plain = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {} };
    expect(toDraft07(plain, '/inputSchema')).toEqual({ ok: true, value: { type: 'object', properties: {} } });
    expect(toDraft07({ ...plain, properties: { a: { unevaluatedProperties: false } } }, '/inputSchema')).toMatchObject({ ok: false, error: { code: 'INVALID_SCHEMA' } });
    expect(toDraft07({ $schema: 'https://example.com/my-dialect', type: 'object' }, '/inputSchema')).toMatchObject({ ok: false, error: { path: '/inputSchema/$schema' } });
  });

  it('maps hints to mode only for trusted servers and caps long descriptions', () => {
    const tool = { name: 't', description: 'd'.repeat(10_000), inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: false } };
    expect(mapMcpTool(tool, 'mcp-a', false).view.mode).toBe('write');
    const trusted = mapMcpTool(tool, 'mcp-a', true);
    expect(trusted.view.mode).toBe('read');
    expect(trusted.dto?.mode).toBe('read');
    expect(Buffer.byteLength(trusted.dto?.description as string)).toBeLessThanOrEqual(4096);
    expect(trusted.view.description).toHaveLength(10_000);
  });

  it('flattens content and turns isError into MCP_TOOL_ERROR', () => {
    expect(flattenContent({ content: [{ type: 'text', text: 'a' }], structuredContent: { b: 1 } })).toBe('a');
    expect(flattenContent({ content: [{ type: 'image', mimeType: 'image/jpeg', data: 'x' }], structuredContent: { b: 1 } })).toBe('[image: image/jpeg]\n{"b":1}');
    expect(toExecuteResult({ content: [], isError: true }, 'x')).toMatchObject({ ok: false, error: { code: 'MCP_TOOL_ERROR' } });
  });
});

describe('one set of config rules for the host and the form', () => {
  it('lists every problem at once, each naming its field', () => {
    const { problems } = checkServerConfig({ id: 'Bad Id', transport: 'stdio', env: { 'BAD-NAME': 'v', OK: 'x' }, cwd: '' });
    expect(problems.map((p) => p.path)).toEqual(['/id', '/command', '/env/BAD-NAME', '/cwd']);
    expect(validateServerConfig({ id: 'Bad Id', transport: 'stdio' })).toMatchObject({ ok: false, error: { path: '/id' } });
  });

  it.each([
    ['a program with a line break', { command: 'npx\nrm -rf /' }, 'command'],
    ['an argument with NUL', { args: [{ rowId: 1, value: 'a\0b' }] }, 'args.0'],
    ['a variable name with a dash', { env: [{ rowId: 1, key: 'BAD-NAME', value: 'v' }] }, 'env'],
    ['an ftp URL', { transport: 'http' as const, url: 'ftp://example.com/mcp' }, 'url'],
    ['credentials in the URL', { transport: 'http' as const, url: 'http://user:pw@127.0.0.1/mcp' }, 'url'],
    ['a header value with a line break', { transport: 'http' as const, url: 'http://127.0.0.1/mcp', headers: [{ rowId: 1, key: 'X-A', value: 'v\r\nInjected: 1' }] }, 'headers'],
  ])('the form refuses %s with the message the host gives', (_what, patch, field) => {
    const draft = { ...draftFromConfig(), id: 'files', command: 'npx', ...patch };
    const formErrors = checkDraft(draft, true);
    const host = validateServerConfig(toAddInput(draft));
    expect(host.ok).toBe(false);
    if (host.ok) return;
    expect(fieldOfPath(host.error.path)).toBe(field);
    expect(formErrors[field]).toBe(fieldMessage(host.error));
  });

  it('what the form accepts, the host accepts', () => {
    const draft = { ...draftFromConfig(), id: 'files', name: 'Files', command: 'npx', args: [{ rowId: 1, value: '-y' }], env: [{ rowId: 2, key: 'API_KEY', value: 'k' }] };
    expect(checkDraft(draft, true)).toEqual({});
    expect(validateServerConfig(toAddInput(draft))).toMatchObject({ ok: true, value: { id: 'files', name: 'Files', args: ['-y'], env: { API_KEY: 'k' } } });
  });
});

describe('the form field a host error names', () => {
  it.each([
    ['/command', 'command'],
    ['/patch/command', 'command'],
    ['/patch/args/2', 'args.2'],
    ['/args', 'args'],
    ['/env/API_KEY', 'env'],
    ['/patch/headers/X-A', 'headers'],
    ['/patch', null],
    ['/mcpServers', null],
    [undefined, null],
  ])('%s → %s', (path, field) => {
    expect(fieldOfPath(path)).toBe(field);
  });
});
