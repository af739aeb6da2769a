// `tools …`: list registered tools, invoke one with JSON arguments.
import { HostFailure } from '../../../shared/errors';
import type { ToolInfo, ToolOutcome } from '../../../shared/types/tools';
import { callHost, type CliCommand } from './command';

export const toolCommands: CliCommand[] = [
  {
    words: ['tools', 'list'],
    usesTools: true,
    usage: 'tools list',
    summary: 'Every registered tool with its source, mode and status.',
    run: ({ host }) => callHost(host, 'tools.list', {}),
    format(value) {
      const tools = value as ToolInfo[];
      if (!tools.length) return 'No tools registered.';
      return tools
        .map((t) => `${t.qualifiedName}  [${t.source}, ${t.mode}${t.councilEligible ? ', council' : ''}${t.status === 'available' ? '' : `, ${t.status}`}]  ${t.displayName}`)
        .join('\n');
    },
  },
  {
    words: ['tools', 'invoke'],
    usesTools: true,
    usage: "tools invoke <qualifiedName> --args '<json>' [--timeout-ms N] [--dry-run] [--approve '<glob>']…",
    summary: 'Run one tool; prints the result, or the structured error and exits non-zero. Approvals: --approve; --dry-run simulates writes.',
    flags: { args: { type: 'string' }, 'timeout-ms': { type: 'string' }, 'dry-run': { type: 'boolean' } },
    async run(ctx) {
      const qualifiedName = ctx.positionals[0];
      if (!qualifiedName) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Missing <qualifiedName>.', path: 'qualifiedName' });
      let args: Record<string, unknown> = {};
      if (typeof ctx.flags.args === 'string') {
        try {
          args = JSON.parse(ctx.flags.args) as Record<string, unknown>;
        } catch (err) {
          throw new HostFailure({ code: 'INVALID_ARGUMENTS_JSON', message: `--args is not valid JSON: ${(err as Error).message}`, path: '--args' });
        }
        if (typeof args !== 'object' || args === null || Array.isArray(args)) {
          throw new HostFailure({ code: 'INVALID_ARGUMENTS', message: '--args must be a JSON object.', path: '--args' });
        }
      }
      const timeoutMs = ctx.flags['timeout-ms'] === undefined ? undefined : Number(ctx.flags['timeout-ms']);
      const outcome = await callHost(ctx.host, 'tools.invoke', {
        qualifiedName,
        args,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(ctx.flags['dry-run'] === true ? { dryRun: true } : {}),
      });
      if (!outcome.ok) throw new HostFailure(outcome.error);
      return outcome;
    },
    format: (value) => (value as Extract<ToolOutcome, { ok: true }>).content,
  },
];
