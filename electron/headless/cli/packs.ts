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
          ].join('\n'),
        )
        .join('\n');
    },
  },
  {
    words: ['packs', 'import'],
    usage: 'packs import <file> [--overwrite]',
    summary: 'Install a pack file (validated; avatars next to it are inlined).',
    flags: { overwrite: { type: 'boolean' } },
    async run(ctx) {
      const file = ctx.positionals[0];
      if (!file) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Missing <file>.', path: 'file' });
      return callHost(ctx.host, 'packs.import', { path: path.resolve(file), overwrite: ctx.flags.overwrite === true });
    },
    format: (value) => `Installed ${(value as PackSummary).id} (${(value as PackSummary).items.length} items).`,
  },
  {
    words: ['packs', 'export'],
    usage: 'packs export <id> [--out FILE]',
    summary: 'Write a self-contained pack file (stdout unless --out).',
    flags: { out: { type: 'string' } },
    async run(ctx) {
      const id = ctx.positionals[0];
      if (!id) throw new HostFailure({ code: 'INVALID_INPUT', message: 'Missing <id>.', path: 'id' });
      const file = await callHost(ctx.host, 'packs.export', { id });
      if (typeof ctx.flags.out === 'string') {
        fs.writeFileSync(ctx.flags.out, file.content);
        return { written: path.resolve(ctx.flags.out), fileName: file.fileName };
      }
      return JSON.parse(file.content) as unknown;
    },
  },
];
