// `backup export|import`: everything the person made, in one file (no keys), and restored from it.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { HeldItem } from '../../../shared/types/backup';
import { callHost, positional, type CliCommand } from './command';

const EXPORT_USAGE = 'backup export [--out <file>] [--json]';
const IMPORT_USAGE = 'backup import <file> [--accept-mcp <ids|all>] [--accept-connections <ids|all>] [--accept-extensions <ids|all>] [--accept-safety] [--json]';

/** The keys the --accept-… flags name: a comma list of ids, or `all`. */
function acceptKeys(flags: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const [flag, kind] of [['accept-mcp', 'mcp'], ['accept-connections', 'connection'], ['accept-extensions', 'extension']] as const) {
    const value = flags[flag];
    if (typeof value !== 'string') continue;
    for (const id of value.split(',').map((v) => v.trim()).filter(Boolean)) keys.push(`${kind}:${id === 'all' ? '*' : id}`);
  }
  if (flags['accept-safety'] === true) keys.push('safety:*');
  return keys;
}

const heldFlag = { mcp: '--accept-mcp', connection: '--accept-connections', extension: '--accept-extensions', safety: '--accept-safety' } as const;

export const backupCommands: CliCommand[] = [
  {
    words: ['backup', 'export'],
    usage: EXPORT_USAGE,
    dataOnly: true,
    summary: 'Write everything you made here — sessions, packs, the council, settings, connections without keys, MCP servers, which extensions are installed — to --out (else standard output).',
    flags: { out: { type: 'string' } },
    async run(ctx) {
      const { fileName, backup } = await callHost(ctx.host, 'backup.export', {});
      const text = JSON.stringify(backup, null, 2);
      if (typeof ctx.flags.out !== 'string') return { fileName, written: null, text, withheld: backup.withheld };
      const file = path.resolve(ctx.flags.out);
      fs.writeFileSync(file, text, { mode: 0o600 });
      // The mode above applies to a new file only: one written over keeps only its owner's access too.
      fs.chmodSync(file, 0o600);
      return { fileName, written: file, sessions: backup.sessions.length, packs: backup.packs.length, withheld: backup.withheld };
    },
    format(value) {
      const v = value as { written: string | null; text?: string; sessions?: number; packs?: number; withheld: string[] };
      if (!v.written) return v.text ?? '';
      const left = v.withheld.length ? `\nLeft out (add again after a restore): ${v.withheld.join('; ')}.` : '';
      return `Wrote ${v.written}: ${v.sessions} session${v.sessions === 1 ? '' : 's'}, ${v.packs} pack${v.packs === 1 ? '' : 's'}.${left}`;
    },
  },
  {
    words: ['backup', 'import'],
    usage: IMPORT_USAGE,
    summary:
      'Restore a backup over what is here: its sessions and packs by id, its settings, the switches of the extensions installed here. Importing it again changes nothing. MCP servers, new or moved connections, looser safety settings and extension grants or trust are held (off, keyless, stricter) unless accepted with the --accept-… flags.',
    flags: { 'accept-mcp': { type: 'string' }, 'accept-connections': { type: 'string' }, 'accept-extensions': { type: 'string' }, 'accept-safety': { type: 'boolean' } },
    run(ctx) {
      const file = path.resolve(positional(ctx, 0, 'file', IMPORT_USAGE));
      let json: string;
      try {
        json = fs.readFileSync(file, 'utf8');
      } catch (err) {
        throw new HostFailure({ code: 'NOT_FOUND', message: `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}.`, path: 'file' });
      }
      return callHost(ctx.host, 'backup.import', { json, accept: acceptKeys(ctx.flags) });
    },
    format(value) {
      const v = value as { sessions: number; packs: number; runs: number; extensions: number; missingExtensions: string[]; keysNeeded: string[]; problems: string[]; held: HeldItem[]; accepted: HeldItem[] };
      const runs = v.runs ? `, ${v.runs} council run${v.runs === 1 ? '' : 's'}` : '';
      const lines = [`Restored ${v.sessions} session${v.sessions === 1 ? '' : 's'}, ${v.packs} pack${v.packs === 1 ? '' : 's'}${runs} and the settings; ${v.extensions} extension${v.extensions === 1 ? '' : 's'} set as they were.`];
      if (v.missingExtensions.length) lines.push(`Not installed here (install them again): ${v.missingExtensions.join(', ')}.`);
      if (v.keysNeeded.length) lines.push(`Add the key again for: ${v.keysNeeded.join(', ')}.`);
      for (const problem of v.problems) lines.push(`Not restored: ${problem}`);
      for (const item of v.accepted) lines.push(`Accepted: ${item.name} (${item.key}): ${item.reason}.`);
      if (v.held.length) {
        lines.push('Held until you accept them (off, without keys, or the stricter setting kept):');
        for (const item of v.held) lines.push(`  ${item.name} (${item.key}): ${item.reason}. Accept: ${heldFlag[item.kind]}${item.kind === 'safety' ? '' : ` ${item.id}`}`);
      }
      return lines.join('\n');
    },
  },
];
