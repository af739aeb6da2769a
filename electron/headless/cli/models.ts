// `models …`: the local model library — add a GGUF on disk, list, remove.
import { HostFailure } from '../../../shared/errors';
import type { LocalModelInfo } from '../../../shared/types/local-models';
import { callHost, type CliCommand } from './command';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

const describe = (m: LocalModelInfo) =>
  `${m.id}  ${m.name} [${m.architecture}] ${megabytes(m.sizeBytes)}${m.contextLength ? `  context ${m.contextLength}` : ''}  ${m.file}${m.missing ? '  MISSING' : ''}`;

function positional(args: string[], name: string, usage: string): string {
  const value = args[0];
  if (!value) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing <${name}>. Usage: ${usage}`, path: name });
  return value;
}

export const modelCommands: CliCommand[] = [
  {
    words: ['models', 'list'],
    usage: 'models list',
    dataOnly: true,
    summary: 'The local models the built-in engine can run.',
    run: ({ host }) => callHost(host, 'models.list', {}),
    format(value) {
      const list = value as LocalModelInfo[];
      return list.length ? list.map(describe).join('\n') : 'No local models. Add a GGUF with: npm run cli -- models add <file.gguf>';
    },
  },
  {
    words: ['models', 'add'],
    usage: 'models add <file.gguf>',
    dataOnly: true,
    summary: 'Adds a GGUF on disk to the local models (used where it is); then: connections add --type local --model <id>.',
    run: (ctx) => callHost(ctx.host, 'models.add', { path: positional(ctx.positionals, 'file', 'models add <file.gguf>') }),
    format: (value) => `Added ${describe(value as LocalModelInfo)}\nUse it: npm run cli -- connections add --type local --model ${(value as LocalModelInfo).id}`,
  },
  {
    words: ['models', 'remove'],
    usage: 'models remove <id>',
    dataOnly: true,
    summary: 'Removes a local model (a file it downloaded is deleted; a file you picked stays on disk).',
    run: (ctx) => callHost(ctx.host, 'models.remove', { id: positional(ctx.positionals, 'id', 'models remove <id>') }),
    format(value) {
      const { removed, deletedFile } = value as { removed: LocalModelInfo; deletedFile: boolean };
      return `Removed ${removed.id}${deletedFile ? ` and deleted ${removed.file}` : ` (${removed.file} stays on disk)`}`;
    },
  },
];
