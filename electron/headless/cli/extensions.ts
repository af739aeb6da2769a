// `extensions …`: list, install from a folder, enable, disable, grant and revoke permissions.
import { HostFailure } from '../../../shared/errors';
import type { ExtensionInfo } from '../../../shared/events';
import { callHost, type CliCommand, type CliContext } from './command';

const PERMISSIONS = ['tools', 'generation'] as const;
type Permission = (typeof PERMISSIONS)[number];

function positional(ctx: CliContext, index: number, name: string, usage: string): string {
  const value = ctx.positionals[index];
  if (!value) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing <${name}>. Usage: ${usage}`, path: name });
  return value;
}

function permission(value: string): Permission {
  if ((PERMISSIONS as readonly string[]).includes(value)) return value as Permission;
  throw new HostFailure({ code: 'INVALID_INPUT', message: `Unknown permission "${value}"; expected one of: ${PERMISSIONS.join(', ')}.`, path: 'permission' });
}

function describe(ext: ExtensionInfo): string {
  const pending = ext.requested.filter((p) => !ext.granted.includes(p));
  return [
    `${ext.id} ${ext.version} — ${ext.name} [${ext.status}]${ext.source === 'bundled' ? ' (bundled)' : ''}`,
    `  permissions granted: ${ext.granted.join(', ') || 'none'}${pending.length ? `; requested but not granted: ${pending.join(', ')}` : ''}`,
    `  tools: ${ext.toolCount}${ext.error ? `\n  error: ${ext.error}` : ''}`,
  ].join('\n');
}

const byId = (words: string[], summary: string, method: 'extensions.enable' | 'extensions.disable'): CliCommand => ({
  words,
  usage: `${words.join(' ')} <id>`,
  summary,
  run: (ctx) => callHost(ctx.host, method, { id: positional(ctx, 0, 'id', `${words.join(' ')} <id>`) }),
  format: (value) => describe(value as ExtensionInfo),
});

const permissionChange = (words: string[], summary: string, method: 'extensions.grant' | 'extensions.revoke'): CliCommand => ({
  words,
  usage: `${words.join(' ')} <id> <permission>`,
  summary,
  run: (ctx) => {
    const usage = `${words.join(' ')} <id> <permission>`;
    return callHost(ctx.host, method, { id: positional(ctx, 0, 'id', usage), permission: permission(positional(ctx, 1, 'permission', usage)) });
  },
  format: (value) => describe(value as ExtensionInfo),
});

export const extensionCommands: CliCommand[] = [
  {
    words: ['extensions', 'list'],
    usage: 'extensions list',
    summary: 'Every extension with its status, permissions and tool count.',
    run: ({ host }) => callHost(host, 'extensions.list', {}),
    format: (value) => ((value as ExtensionInfo[]).length ? (value as ExtensionInfo[]).map(describe).join('\n') : 'No extensions.'),
  },
  {
    words: ['extensions', 'install'],
    usage: 'extensions install <dir> [--grant tools,generation]',
    summary: 'Install from a folder; only the permissions named in --grant are granted.',
    flags: { grant: { type: 'string' } },
    async run(ctx) {
      const folder = positional(ctx, 0, 'dir', 'extensions install <dir> [--grant tools,generation]');
      const grant = typeof ctx.flags.grant === 'string' ? ctx.flags.grant.split(',').filter(Boolean).map((p) => permission(p.trim())) : [];
      const installed = await callHost(ctx.host, 'extensions.install', { folder, grant });
      const pending = installed.requested.filter((p) => !installed.granted.includes(p));
      if (pending.length) ctx.progress(`Not granted: ${pending.join(', ')}. Grant later with: extensions grant ${installed.id} <permission>`);
      return installed;
    },
    format: (value) => describe(value as ExtensionInfo),
  },
  byId(['extensions', 'enable'], 'Enable and start an extension.', 'extensions.enable'),
  byId(['extensions', 'disable'], 'Stop an extension and unregister its tools.', 'extensions.disable'),
  permissionChange(['extensions', 'grant'], 'Grant a permission (tools or generation).', 'extensions.grant'),
  permissionChange(['extensions', 'revoke'], 'Revoke a permission; revoking tools unregisters its tools.', 'extensions.revoke'),
];
