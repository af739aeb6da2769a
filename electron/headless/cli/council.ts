// `council …`: show the council, add/set/remove members, change settings, run it on a chat file.
import fs from 'node:fs';
import { HostFailure } from '../../../shared/errors';
import type { CouncilRun, CouncilView } from '../../../shared/types/council';
import { callHost, type CliContext, type CliCommand } from './command';

function need(value: string | undefined, name: string): string {
  if (!value) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing <${name}>.`, path: name });
  return value;
}

/** Numbers from flags are parsed strictly: "50x", "" or "1e2" are refused, not coerced. */
function intFlag(ctx: CliContext, name: string): number | undefined {
  const raw = ctx.flags[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw.trim())) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `--${name} must be a whole number.`, path: `--${name}` });
  }
  return Number(raw);
}

function toolsFlag(ctx: CliContext): string[] | undefined {
  const raw = ctx.flags.tools;
  if (raw === undefined) return undefined;
  return String(raw)
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

function formatView(value: unknown): string {
  const view = value as CouncilView;
  const s = view.settings;
  const ts = s.toolsSettings;
  const lines = [
    `Council Mode: ${s.councilMode ? 'on' : 'off'}   mode: ${ts.mode}   timeout: ${ts.timeoutMs} ms   window: ${ts.sidecarContextWindow}   max words/tool: ${ts.maxWordsPerTool}   at-least-one: ${s.atLeastOneMember ? 'on' : 'off'}`,
    `Sidecar: ${view.sidecarConfigured ? 'configured' : 'not configured'}`,
    '',
  ];
  if (!view.members.length) lines.push('No members. Add one with: council add-member --pack <packId> --item <itemId>');
  for (const m of view.members) {
    lines.push(`${m.id}  ${m.name}${m.role ? ` — ${m.role}` : ''}  ${m.chance}%  (${m.packId}/${m.itemId})${m.missingItem ? '  [MISSING ITEM]' : ''}`);
    for (const t of m.toolViews) lines.push(`    ${t.qualifiedName}  ${t.displayName}  [${t.kind}${t.missing ? ', MISSING' : t.unchecked ? ', not checked: not started here' : t.available ? '' : ', unavailable'}${t.retention ? `, keep ${t.retention}` : ''}]`);
  }
  if (view.warnings.length) lines.push('', ...view.warnings.map((w) => `! ${w}`));
  return lines.join('\n');
}

export const councilCommands: CliCommand[] = [
  {
    words: ['council', 'show'],
    // Reads the folder only: the tools of extensions and MCP servers are shown as not checked (the app, or
    // `tools list`, starts them).
    dataOnly: true,
    usage: 'council show',
    summary: 'Council settings and members, with missing items and tools flagged.',
    run: ({ host }) => callHost(host, 'council.get', {}),
    format: formatView,
  },
  {
    words: ['council', 'add-member'],
    usage: 'council add-member --pack <packId> --item <itemId> [--role R] [--chance N] [--tools q1,q2]',
    summary: 'Add a member backed by a pack item.',
    flags: { pack: { type: 'string' }, item: { type: 'string' }, role: { type: 'string' }, chance: { type: 'string' }, tools: { type: 'string' } },
    async run(ctx) {
      const chance = intFlag(ctx, 'chance');
      const tools = toolsFlag(ctx);
      return callHost(ctx.host, 'council.addMember', {
        packId: need(ctx.flags.pack as string | undefined, 'pack'),
        itemId: need(ctx.flags.item as string | undefined, 'item'),
        ...(typeof ctx.flags.role === 'string' ? { role: ctx.flags.role } : {}),
        ...(chance === undefined ? {} : { chance }),
        ...(tools ? { tools } : {}),
      });
    },
    format: (value) => {
      const v = value as { memberId: string; council: CouncilView };
      return `Added ${v.memberId}.\n\n${formatView(v.council)}`;
    },
  },
  {
    words: ['council', 'set-member'],
    usage: 'council set-member <memberId> [--role R] [--chance N] [--tools q1,q2]',
    summary: "Change a member's role, chance or tools.",
    flags: { role: { type: 'string' }, chance: { type: 'string' }, tools: { type: 'string' } },
    async run(ctx) {
      const chance = intFlag(ctx, 'chance');
      const tools = toolsFlag(ctx);
      return callHost(ctx.host, 'council.setMember', {
        memberId: need(ctx.positionals[0], 'memberId'),
        patch: {
          ...(typeof ctx.flags.role === 'string' ? { role: ctx.flags.role } : {}),
          ...(chance === undefined ? {} : { chance }),
          ...(tools ? { tools } : {}),
        },
      });
    },
    format: formatView,
  },
  {
    words: ['council', 'remove-member'],
    usage: 'council remove-member <memberId>',
    summary: 'Remove a member.',
    run: (ctx) => callHost(ctx.host, 'council.removeMember', { memberId: need(ctx.positionals[0], 'memberId') }),
    format: formatView,
  },
  {
    words: ['council', 'set'],
    usage: 'council set [--mode sidecar|inline] [--timeout-ms N] [--on|--off]',
    summary: 'Change Council Mode, the tools mode or the timeout.',
    flags: { mode: { type: 'string' }, 'timeout-ms': { type: 'string' }, on: { type: 'boolean' }, off: { type: 'boolean' } },
    async run(ctx) {
      const mode = ctx.flags.mode;
      if (mode !== undefined && mode !== 'sidecar' && mode !== 'inline') {
        throw new HostFailure({ code: 'INVALID_INPUT', message: '--mode must be sidecar or inline.', path: '--mode' });
      }
      if (ctx.flags.on && ctx.flags.off) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Pass --on or --off, not both.', path: '--on' });
      const timeoutMs = intFlag(ctx, 'timeout-ms');
      return callHost(ctx.host, 'council.update', {
        patch: {
          ...(ctx.flags.on ? { councilMode: true } : ctx.flags.off ? { councilMode: false } : {}),
          ...(mode !== undefined || timeoutMs !== undefined
            ? { toolsSettings: { ...(mode ? { mode: mode as 'sidecar' | 'inline' } : {}), ...(timeoutMs === undefined ? {} : { timeoutMs }) } }
            : {}),
        },
      });
    },
    format: formatView,
  },
  {
    words: ['council', 'run'],
    usesTools: true,
    usage: "council run --chat <file.json> [--seed N] [--dry-run] [--approve '<glob>']… [--json]",
    summary: 'Run the council on a chat file; prints seed, rolls, results and the deliberation block. --dry-run simulates write tools.',
    flags: { chat: { type: 'string' }, seed: { type: 'string' }, 'dry-run': { type: 'boolean' } },
    async run(ctx) {
      const file = need(ctx.flags.chat as string | undefined, 'chat');
      let chat: unknown;
      try {
        chat = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (err) {
        throw new HostFailure({ code: 'INVALID_INPUT', message: `Could not read the chat file: ${(err as Error).message}`, path: '--chat' });
      }
      const seed = intFlag(ctx, 'seed');
      ctx.progress('Running the council…');
      const run = await callHost(ctx.host, 'council.run', {
        chat: chat as never,
        ...(seed === undefined ? {} : { seed }),
        ...(ctx.flags['dry-run'] === true ? { dryRun: true } : {}),
      });
      return {
        runId: run.id,
        seed: run.seed,
        rolls: run.rolls,
        results: run.results,
        deliberationBlock: run.deliberationBlock,
        historyBlock: run.historyBlock,
        note: run.note,
        totalDurationMs: run.totalDurationMs,
        ...(run.dryRun ? { dryRun: true } : {}),
      };
    },
    format(value) {
      const run = value as Pick<CouncilRun, 'seed' | 'rolls' | 'results' | 'deliberationBlock' | 'note' | 'totalDurationMs'> & { runId: string };
      const lines = [`Run ${run.runId}  seed ${run.seed}  ${run.totalDurationMs} ms`, ''];
      for (const r of run.rolls) lines.push(`  ${r.active ? '✓' : '·'} ${r.memberName}  roll ${r.roll.toFixed(3)} vs ${r.chance}%  (${r.reason})`);
      lines.push('');
      for (const r of run.results) {
        const flags = `${r.simulated ? ' [simulated]' : ''}${r.unvalidated ? ' [unvalidated]' : ''}${r.cached ? ' [cached]' : ''}${r.unplanned ? ` [unplanned: ${r.unplanned}]` : ''}`;
        lines.push(`  [${r.status}]${flags} ${r.memberName} / ${r.toolDisplayName}  +${r.startedAt} ms, ${r.durationMs} ms${r.error ? `  — ${r.error}` : ''}`);
      }
      if (run.note) lines.push('', `Note: ${run.note}`);
      lines.push('', run.deliberationBlock);
      return lines.join('\n');
    },
  },
];
