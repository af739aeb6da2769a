// `extensions …`: list, install from a folder or .zip, enable, disable, grant and revoke permissions, follow the log.
import { HostFailure } from '../../../shared/errors';
import type { ExtensionInfo } from '../../../shared/contract/events';
import { EXTENSION_PERMISSIONS, inertPermissions, type ExtensionPermission } from '../../../shared/types/spindle';
import { callHost, positional, type CliCommand } from './command';
import { TOOL_SOURCES_WAIT_MS } from './tool-sources';
import { onInterrupt } from '../interrupt';

/** How often `extensions log --follow` looks for lines other processes appended. */
const FOLLOW_POLL_MS = 500;

function permission(value: string): ExtensionPermission {
  if ((EXTENSION_PERMISSIONS as readonly string[]).includes(value)) return value as ExtensionPermission;
  throw new HostFailure({ code: 'INVALID_INPUT', message: `Unknown permission "${value}"; expected one of: ${EXTENSION_PERMISSIONS.join(', ')}.`, path: 'permission' });
}

function describe(ext: ExtensionInfo): string {
  const { notAvailable: notHere, answeredEmpty } = inertPermissions(ext.requested);
  const pending = ext.requested.filter((p) => !ext.granted.includes(p) && !notHere.includes(p));
  return [
    `${ext.id} ${ext.version} — ${ext.name} [${ext.status}]${ext.source === 'bundled' ? ' (bundled)' : ''}${ext.safeMode ? ' (safe mode: enable it when fixed)' : ''}`,
    `  permissions granted: ${ext.granted.join(', ') || 'none'}${pending.length ? `; requested but not granted: ${pending.join(', ')}` : ''}${notHere.length ? `; requested, not available here: ${notHere.join(', ')}` : ''}${answeredEmpty.length ? `; answered empty here: ${answeredEmpty.join(', ')}` : ''}`,
    `  tools: ${ext.toolCount}${ext.trusted ? ' (trusted: they run without asking)' : ''}`,
    ...(ext.lastCrash ? [`  last crash: ${ext.lastCrash}`] : []),
    ...(ext.error ? [`  error: ${ext.error}`] : []),
    ...(ext.inertTouched?.length ? [`  uses what the Workbench does not have: ${ext.inertTouched.join(', ')}`] : []),
    ...(ext.warnings ?? []).map((warning) => `  warning: ${warning}`),
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
  usage: `${words.join(' ')} <id> <permission>${method === 'extensions.grant' ? ' [--unrequested]' : ''}`,
  summary,
  ...(method === 'extensions.grant' ? { flags: { unrequested: { type: 'boolean' as const } } } : {}),
  run: (ctx) => {
    const usage = `${words.join(' ')} <id> <permission>`;
    const params = { id: positional(ctx, 0, 'id', usage), permission: permission(positional(ctx, 1, 'permission', usage)) };
    return callHost(ctx.host, method, method === 'extensions.grant' && ctx.flags.unrequested === true ? { ...params, unrequested: true } : params);
  },
  format: (value) => describe(value as ExtensionInfo),
});

const INSTALL_USAGE = 'extensions install <dir|file.zip> [--grant <list>|requested] [--trust] [--replace]';

export const extensionCommands: CliCommand[] = [
  {
    words: ['extensions', 'list'],
    usage: 'extensions list',
    summary: 'Every extension with its status, permissions, tool count and last crash.',
    run: ({ host }) => callHost(host, 'extensions.list', {}),
    format: (value) => ((value as ExtensionInfo[]).length ? (value as ExtensionInfo[]).map(describe).join('\n') : 'No extensions.'),
  },
  {
    words: ['extensions', 'install'],
    usage: INSTALL_USAGE,
    summary:
      'Install from a folder or a .zip (built when it ships only src/backend.ts); only the permissions named in --grant are granted (requested: all it asks for). --replace updates an installed one with the same id (its stored data is kept).',
    flags: { grant: { type: 'string' }, trust: { type: 'boolean' }, replace: { type: 'boolean' } },
    async run(ctx) {
      const folder = positional(ctx, 0, 'dir', INSTALL_USAGE);
      const trust = ctx.flags.trust === true;
      const replace = ctx.flags.replace === true;
      const grant =
        ctx.flags.grant === 'requested' ? ('requested' as const) : typeof ctx.flags.grant === 'string' ? ctx.flags.grant.split(',').filter(Boolean).map((p) => permission(p.trim())) : [];
      // The install's progress (copying, building) comes as log lines of the new extension.
      const { local } = ctx.host;
      const stop = local?.extensions.onEvent((event) => {
        if (event.type === 'extension.log' && event.source === 'host') ctx.progress(event.text);
      });
      try {
        let installed = await callHost(ctx.host, 'extensions.install', { folder, grant, ...(trust ? { trust } : {}), ...(replace ? { replace } : {}) });
        // The summary says how it started (running with its tools, or failed), not that it is starting. (The app,
        // when it answers, shows the rest in its window.)
        if (installed.status === 'starting' && local) {
          await local.extensions.whenSettled(TOOL_SOURCES_WAIT_MS);
          installed = local.extensions.get(installed.id);
        }
        const { notAvailable: notHere, answeredEmpty } = inertPermissions(installed.requested);
        const pending = installed.requested.filter((p) => !installed.granted.includes(p) && !notHere.includes(p));
        ctx.progress(`Requested: ${installed.requested.join(', ') || 'nothing'}.`);
        ctx.progress(`Granted: ${installed.granted.join(', ') || 'nothing'}.`);
        if (notHere.length) ctx.progress(`Requested, not available here: ${notHere.join(', ')}.`);
        if (answeredEmpty.length) ctx.progress(`Requested, answered empty here (the Workbench has no such data): ${answeredEmpty.join(', ')}.`);
        for (const warning of installed.warnings ?? []) ctx.progress(`warning: ${warning}`);
        if (pending.length) ctx.progress(`Not granted: ${pending.join(', ')}. Grant later with: extensions grant ${installed.id} <permission>`);
        ctx.progress(trust ? 'Trusted: its tools run without asking (unless they declare mode "write").' : `Its tools ask before they run; trust it with: extensions trust ${installed.id}`);
        return installed;
      } finally {
        stop?.();
      }
    },
    format: (value) => describe(value as ExtensionInfo),
  },
  {
    words: ['extensions', 'log'],
    usage: 'extensions log <id> [--follow]',
    summary: 'The extension’s log, as every process wrote it; --follow keeps printing new lines until Ctrl+C.',
    flags: { follow: { type: 'boolean' } },
    // The log is read from disk, where the app and other runs write it: reading it starts no extension.
    dataOnly: true,
    async run(ctx) {
      const id = positional(ctx, 0, 'id', 'extensions log <id> [--follow]');
      const first = await callHost(ctx.host, 'extensions.log', { id });
      if (ctx.flags.follow !== true) return first;
      for (const line of first.lines) ctx.out(line);
      let last = first.lines.at(-1);
      await new Promise<void>((resolve) => {
        // What another process (the app, a CLI turn) appends reaches the file within its next batch.
        let reading = false;
        const timer = setInterval(() => {
          // One read at a time (a slow disk must not print lines twice); a failed read waits for the next tick.
          if (reading) return;
          reading = true;
          callHost(ctx.host, 'extensions.log', { id })
            .then(({ lines }) => {
              const seen = last === undefined ? -1 : lines.lastIndexOf(last);
              for (const line of lines.slice(seen + 1)) ctx.out(line);
              last = lines.at(-1) ?? last;
            })
            .catch(() => undefined)
            .finally(() => void (reading = false));
        }, FOLLOW_POLL_MS);
        onInterrupt(() => {
          clearInterval(timer);
          resolve();
        });
      });
      return { lines: [], lastSeq: first.lastSeq };
    },
    format: (value) => (value as { lines: string[] }).lines.join('\n'),
  },
  {
    words: ['extensions', 'trust'],
    usage: 'extensions trust <id>',
    summary: 'Let its tools run without asking (tools that declare mode "write" or requires_approval still ask).',
    run: (ctx) => callHost(ctx.host, 'extensions.trust', { id: positional(ctx, 0, 'id', 'extensions trust <id>'), trusted: true }),
    format: (value) => describe(value as ExtensionInfo),
  },
  {
    words: ['extensions', 'untrust'],
    usage: 'extensions untrust <id>',
    summary: 'Make its tools ask before they run again.',
    run: (ctx) => callHost(ctx.host, 'extensions.trust', { id: positional(ctx, 0, 'id', 'extensions untrust <id>'), trusted: false }),
    format: (value) => describe(value as ExtensionInfo),
  },
  byId(['extensions', 'enable'], 'Enable and start an extension (also leaves safe mode).', 'extensions.enable'),
  byId(['extensions', 'disable'], 'Stop an extension and unregister its tools.', 'extensions.disable'),
  permissionChange(['extensions', 'grant'], "Grant a permission it asks for (any Lumiverse permission name); --unrequested grants one its manifest does not ask for.", 'extensions.grant'),
  permissionChange(['extensions', 'revoke'], 'Revoke a permission; revoking tools unregisters its tools.', 'extensions.revoke'),
];
