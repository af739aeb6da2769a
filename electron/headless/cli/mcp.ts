// `mcp …`: list, add (stdio or http), remove, show tools and import the desktop hosts' mcpServers JSON.
import fs from 'node:fs';
import type { MethodInput } from '../../../shared/contract';
import { HostFailure } from '../../../shared/errors';
import type { McpServerInfo, McpToolView } from '../../../shared/types/mcp';
import { callHost, positional, type CliCommand } from './command';

const ADD_USAGE =
  'mcp add <id> --command <cmd> [--arg a --arg b] [--env K=V] [--cwd D] [--name N] [--trusted] [--disabled] | mcp add <id> --url <url> [--header K=V] [--name N] [--trusted] [--disabled]';

function list(value: string | boolean | string[] | undefined): string[] {
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

/** `K=V` pairs; the value may itself contain "=". */
function pairs(values: string[], flag: string): Record<string, string> | undefined {
  if (values.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const item of values) {
    const at = item.indexOf('=');
    if (at <= 0) throw new HostFailure({ code: 'INVALID_INPUT', message: `--${flag} takes NAME=VALUE, got ${JSON.stringify(item)}`, path: flag });
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

function describe(server: McpServerInfo): string {
  const { config } = server;
  const target = config.transport === 'stdio' ? [config.command, ...(config.args ?? [])].map((part) => JSON.stringify(part)).join(' ') : config.url;
  const lines = [
    `${config.id} — ${config.name} [${server.status}]${config.trusted ? ' (trusted)' : ''}${config.enabled ? '' : ' (disabled)'}`,
    `  ${config.transport}: ${target}`,
    `  tools: ${server.toolCount}${server.skippedToolCount ? `, skipped: ${server.skippedToolCount}` : ''}`,
  ];
  if (server.lastError) lines.push(`  error: ${server.lastError.code} ${server.lastError.message}`);
  return lines.join('\n');
}

function describeTool(tool: McpToolView): string {
  const hints = tool.annotations
    ? Object.entries(tool.annotations)
        .filter(([key]) => key.endsWith('Hint'))
        .map(([key, value]) => `${key}=${String(value)}`)
        .join(' ')
    : '';
  const head = tool.registered ? `${tool.qualifiedName}  (alias ${tool.alias}, ${tool.mode})` : `${tool.name}  SKIPPED: ${tool.error?.message ?? 'not registered'}`;
  return [head, tool.title ? `  title: ${tool.title}` : '', tool.description ? `  ${tool.description.split('\n')[0]}` : '', hints ? `  hints: ${hints}` : '']
    .filter(Boolean)
    .join('\n');
}

export const mcpCommands: CliCommand[] = [
  {
    words: ['mcp', 'list'],
    usage: 'mcp list',
    summary: 'Every MCP server with its status, tool count and last error.',
    run: ({ host }) => callHost(host, 'mcp.list', {}),
    format: (value) => ((value as McpServerInfo[]).length ? (value as McpServerInfo[]).map(describe).join('\n') : 'No MCP servers.'),
  },
  {
    words: ['mcp', 'add'],
    usage: ADD_USAGE,
    summary: 'Add an MCP server (stdio: run without a shell, with only --env and PATH; http: Streamable HTTP). Args starting with "-": --arg=-y.',
    flags: {
      command: { type: 'string' },
      arg: { type: 'string', multiple: true },
      env: { type: 'string', multiple: true },
      cwd: { type: 'string' },
      url: { type: 'string' },
      header: { type: 'string', multiple: true },
      name: { type: 'string' },
      trusted: { type: 'boolean' },
      disabled: { type: 'boolean' },
    },
    async run(ctx) {
      const id = positional(ctx, 0, 'id', ADD_USAGE);
      const { flags } = ctx;
      const isHttp = typeof flags.url === 'string';
      if (isHttp === (typeof flags.command === 'string')) {
        throw new HostFailure({ code: 'INVALID_INPUT', message: `Give exactly one of --command or --url. Usage: ${ADD_USAGE}`, path: 'command' });
      }
      const input: MethodInput<'mcp.add'> = {
        id,
        transport: isHttp ? 'http' : 'stdio',
        trusted: flags.trusted === true,
        enabled: flags.disabled !== true,
      };
      if (typeof flags.name === 'string') input.name = flags.name;
      if (isHttp) {
        input.url = flags.url as string;
        const headers = pairs(list(flags.header), 'header');
        if (headers) input.headers = headers;
      } else {
        input.command = flags.command as string;
        const args = list(flags.arg);
        if (args.length) input.args = args;
        const env = pairs(list(flags.env), 'env');
        if (env) input.env = env;
        if (typeof flags.cwd === 'string') input.cwd = flags.cwd;
      }
      const added = await callHost(ctx.host, 'mcp.add', input);
      // The host connects in the background; wait here so the person sees whether it worked.
      return input.enabled ? callHost(ctx.host, 'mcp.connect', { id }) : added;
    },
    format: (value) => describe(value as McpServerInfo),
  },
  {
    words: ['mcp', 'remove'],
    usage: 'mcp remove <id>',
    summary: 'Disconnect and remove an MCP server.',
    run: (ctx) => callHost(ctx.host, 'mcp.remove', { id: positional(ctx, 0, 'id', 'mcp remove <id>') }),
    format: (value) => ((value as { removed: boolean }).removed ? 'Removed.' : 'No such server.'),
  },
  {
    words: ['mcp', 'tools'],
    usesTools: true,
    usage: 'mcp tools <id>',
    summary: 'Connect a server and show its tools: names, aliases, modes, hints, and skipped tools with the reason.',
    async run(ctx) {
      const id = positional(ctx, 0, 'id', 'mcp tools <id>');
      const server = await callHost(ctx.host, 'mcp.connect', { id });
      if (server.status !== 'connected' && server.lastError) ctx.progress(`Not connected: ${server.lastError.message}`);
      return callHost(ctx.host, 'mcp.tools', { id });
    },
    format: (value) => ((value as McpToolView[]).length ? (value as McpToolView[]).map(describeTool).join('\n') : 'No tools.'),
  },
  {
    words: ['mcp', 'import'],
    usage: 'mcp import <file> [--enable]',
    summary: 'Import a { "mcpServers": { … } } file (Claude Desktop, Cursor, …); servers come in untrusted, disabled unless --enable.',
    flags: { enable: { type: 'boolean' } },
    async run(ctx) {
      const file = positional(ctx, 0, 'file', 'mcp import <file> [--enable]');
      let json: string;
      try {
        json = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new HostFailure({ code: 'NOT_FOUND', message: `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, path: 'file' });
      }
      return callHost(ctx.host, 'mcp.importJson', { json, enable: ctx.flags.enable === true });
    },
    format: (value) => {
      const { added, errors } = value as { added: McpServerInfo[]; errors: Array<{ message: string }> };
      return [
        `Added ${added.length} server${added.length === 1 ? '' : 's'}.`,
        ...added.map(describe),
        ...errors.map((error) => `Skipped: ${error.message}`),
      ].join('\n');
    },
  },
];
