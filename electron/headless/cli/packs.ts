// `packs …`: list installed Lumia packs, import a pack file, export one.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { PackSummary } from '../../../shared/types/council';
import { callHost, type CliCommand } from './command';

export const packCommands: CliCommand[] = [
  {
    words: ['packs', 'list'],
    usage: 'packs list',
    dataOnly: true,
    summary: 'Installed Lumia packs with their items and prompt tools.',
    run: ({ host }) => callHost(host, 'packs.list', {}),
    format(value) {
      const packs = value as PackSummary[];
      if (!packs.length) return 'No packs installed.';
      return packs
        .map((p) =>
          [
            `${p.id}  ${p.name} v${p.version} [${p.source}]${p.author ? ` by ${p.author}` : ''}`,
            ...p.items.map((i) => `  item ${i.id}  ${i.name}${i.avatarUrl ? '' : ' (no avatar)'}`),
            ...p.tools.map((t) => `  tool ${t.qualifiedName}  ${t.displayName}`),
            ...(p.loomItems?.length ? [`  ${p.loomItems.length} loom item${p.loomItems.length === 1 ? '' : 's'} kept (not used here): ${p.loomItems.join(', ')}`] : []),
          ].join('\n'),
        )
        .join('\n');
    },
  },
  {
    words: ['packs', 'import'],
    usage: 'packs import <file> [--overwrite | --keep-both]',
    dataOnly: true,
    summary: "Install a pack file, ours or LumiHub's (validated; avatars next to it are inlined); a pack already installed is replaced (--overwrite) or kept beside (--keep-both).",
    flags: { overwrite: { type: 'boolean' }, 'keep-both': { type: 'boolean' } },
    async run(ctx) {
      const file = ctx.positionals[0];
      if (!file) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Missing <file>.', path: 'file' });
      return callHost(ctx.host, 'packs.import', { path: path.resolve(file), overwrite: ctx.flags.overwrite === true, keepBoth: ctx.flags['keep-both'] === true });
    },
    format: (value) => `Installed ${(value as PackSummary).id} (${(value as PackSummary).items.length} items).`,
  },
  {
    words: ['packs', 'export'],
    usage: 'packs export <id> [--format workbench|lumihub] [--out FILE]',
    dataOnly: true,
    summary: "Write a self-contained pack file, ours or LumiHub's shape (stdout unless --out).",
    flags: { out: { type: 'string' }, format: { type: 'string' } },
    async run(ctx) {
      const id = ctx.positionals[0];
      if (!id) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Missing <id>.', path: 'id' });
      const format = ctx.flags.format ?? 'workbench';
      if (format !== 'workbench' && format !== 'lumihub') throw new HostFailure({ code: 'INVALID_INPUT', message: '--format is workbench or lumihub.', path: 'format' });
      const file = await callHost(ctx.host, 'packs.export', { id, format });
      if (typeof ctx.flags.out === 'string') {
        fs.writeFileSync(ctx.flags.out, file.content);
        return { written: path.resolve(ctx.flags.out), fileName: file.fileName };
      }
      return JSON.parse(file.content) as unknown;
    },
  },
];
