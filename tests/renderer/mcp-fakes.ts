// In-memory MCP handlers for the renderer FakeHost: servers, their tools and logs, answering like the real host and recording calls.
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract';
import type { HostError, Result } from '../../shared/errors';
import { mcpSourceId, type McpServerConfig, type McpServerInfo, type McpToolView } from '../../shared/types/mcp';
import type { FakeHost } from './harness';

type Handler<M extends MethodName> = (input: MethodInput<M>) => Result<MethodOutput<M>> | Promise<Result<MethodOutput<M>>>;

export interface McpFakes {
  servers: McpServerInfo[];
  tools: Record<string, McpToolView[]>;
  logs: Record<string, string[]>;
  /** The next mcp.add / mcp.update answers this error, once. */
  nextError: HostError | null;
  /** What mcp.importJson answers; default: nothing added, no errors. */
  importAnswer: MethodOutput<'mcp.importJson'>;
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value: structuredClone(value) });
const fail = (error: HostError): Result<never> => ({ ok: false, error });

export function mcpServer(config: Partial<McpServerConfig> = {}, info: Partial<Omit<McpServerInfo, 'config'>> = {}): McpServerInfo {
  const full: McpServerConfig = {
    id: 'files',
    name: 'Files',
    transport: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ada/notes with spaces'],
    trusted: false,
    enabled: true,
    ...config,
  };
  return { config: full, status: 'connected', sourceId: mcpSourceId(full.id), toolCount: 3, skippedToolCount: 0, recentCrashes: 0, ...info };
}

export function mcpTool(partial: Partial<McpToolView> = {}): McpToolView {
  const name = partial.name ?? 'read_file';
  return {
    name,
    qualifiedName: `mcp-files:${name}`,
    alias: `mcp-files__${name}`,
    description: 'Reads a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    mode: 'write',
    registered: true,
    ...partial,
  };
}

function statusAfterStart(config: McpServerConfig): McpServerInfo['status'] {
  return config.enabled ? 'connecting' : 'stopped';
}

export function installMcp(host: FakeHost, init: Partial<McpFakes> = {}): McpFakes {
  const fakes: McpFakes = {
    servers: [],
    tools: {},
    logs: {},
    nextError: null,
    importAnswer: { added: [], errors: [] },
    ...structuredClone(init),
  };
  const find = (id: string) => fakes.servers.find((s) => s.config.id === id);
  const notFound = (id: string) => fail({ code: 'NOT_FOUND', message: `No MCP server with id "${id}"`, path: '/id' });
  const takeError = () => {
    const error = fakes.nextError;
    fakes.nextError = null;
    return error;
  };
  const set = <M extends MethodName>(method: M, handler: Handler<M>) => {
    (host.handlers as Record<string, unknown>)[method] = handler;
  };

  set('mcp.list', () => ok(fakes.servers));
  set('mcp.add', (input) => {
    const error = takeError();
    if (error) return fail(error);
    if (find(input.id)) return fail({ code: 'CONFLICT', message: `An MCP server with id "${input.id}" already exists`, path: '/id' });
    const config: McpServerConfig = { ...input, name: input.name ?? input.id, trusted: input.trusted ?? false, enabled: input.enabled ?? true };
    const info = mcpServer(config, { status: statusAfterStart(config), toolCount: 0 });
    fakes.servers.push(info);
    return ok(info);
  });
  set('mcp.update', ({ id, patch }) => {
    const error = takeError();
    if (error) return fail(error);
    const server = find(id);
    if (!server) return notFound(id);
    const merged: Record<string, unknown> = { ...server.config };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else if (value !== undefined) merged[key] = value;
    }
    server.config = merged as McpServerConfig;
    if (patch.enabled === false) server.status = 'stopped';
    if (patch.enabled === true) server.status = 'connecting';
    return ok(server);
  });
  set('mcp.remove', ({ id }) => {
    const before = fakes.servers.length;
    fakes.servers = fakes.servers.filter((s) => s.config.id !== id);
    return ok({ removed: fakes.servers.length < before });
  });
  set('mcp.importJson', () => {
    fakes.servers.push(...structuredClone(fakes.importAnswer.added));
    return ok(fakes.importAnswer);
  });
  set('mcp.connect', ({ id }) => {
    const server = find(id);
    if (!server) return notFound(id);
    Object.assign(server, { status: 'connected', lastError: undefined, restartAt: undefined });
    return ok(server);
  });
  set('mcp.restart', ({ id }) => {
    const server = find(id);
    if (!server) return notFound(id);
    Object.assign(server, { status: 'connected', lastError: undefined, restartAt: undefined, recentCrashes: 0 });
    return ok(server);
  });
  set('mcp.disconnect', ({ id }) => {
    const server = find(id);
    if (!server) return notFound(id);
    Object.assign(server, { status: 'stopped', toolCount: 0 });
    return ok(server);
  });
  set('mcp.tools', ({ id }) => (find(id) ? ok(fakes.tools[id] ?? []) : notFound(id)));
  set('mcp.log', ({ id }) => (find(id) ? ok({ lines: fakes.logs[id] ?? [] }) : notFound(id)));
  return fakes;
}
