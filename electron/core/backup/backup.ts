// Backup export and import. An export is everything the person made, without a single key; an import restores it over
// what is here, idempotently: the same sessions and packs by id, the settings document, each extension's switches for
// the ones installed here (the others are listed to install again), keys kept where this folder has them.
import { HostFailure } from '../../../shared/errors';
import { BACKUP_FORMAT, BACKUP_VERSION, BackupSchema, type Backup, type BackupExtension } from '../../../shared/types/backup';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import type { ExtensionInfo } from '../../../shared/events';
import { SETTINGS_VERSION, type Settings } from '../../../shared/settings';
import { STORED_SECRET } from '../../../shared/secret-mask';
import { describeAjvError, lazyValidator } from '../contract/validators';
import type { SessionStore } from '../chat/session-store';
import { checkSession } from '../chat/session-store';
import type { PackStore } from '../packs/pack-store';
import { parsePack } from '../packs/validate-pack';
import type { SettingsStore } from '../settings/settings-store';

const validateBackup = lazyValidator<Backup>(BackupSchema);

/** An MCP environment variable or header whose value is a credential by its name. */
const SECRET_NAME = /key|token|secret|passw|auth|cookie|credential/i;

/** The extension manager as a restore uses it (each switch through it, so running workers follow). */
export interface ExtensionSwitches {
  list(): ExtensionInfo[];
  enable(id: string): Promise<unknown>;
  disable(id: string): Promise<unknown>;
  grant(id: string, permissions: ExtensionPermission[]): Promise<unknown>;
  revoke(id: string, permissions: ExtensionPermission[]): Promise<unknown>;
  setTrusted(id: string, trusted: boolean): Promise<unknown>;
}

export interface BackupDeps {
  settings: SettingsStore;
  sessions: SessionStore;
  packs: PackStore;
  extensions: ExtensionSwitches;
  now: () => number;
}

/** An installed extension set as the backup has it: grants, trust, on or off. */
async function restoreSwitches(manager: ExtensionSwitches, here: ExtensionInfo, wanted: BackupExtension): Promise<void> {
  const has = (list: readonly string[], p: string) => list.includes(p);
  const revoke = here.granted.filter((p) => !has(wanted.granted, p)) as ExtensionPermission[];
  // Only what it asks for can be granted (a backup from another version may name more).
  const grant = wanted.granted.filter((p) => !has(here.granted, p) && has(here.requested, p));
  if (revoke.length) await manager.revoke(here.id, revoke);
  if (grant.length) await manager.grant(here.id, grant as ExtensionPermission[]);
  if (here.trusted !== wanted.trusted) await manager.setTrusted(here.id, wanted.trusted);
  if (here.enabled !== wanted.enabled) await (wanted.enabled ? manager.enable(here.id) : manager.disable(here.id));
}

export interface RestoreSummary {
  sessions: number;
  packs: number;
  extensions: number;
  /** Listed in the backup but not installed here: install them again. */
  missingExtensions: string[];
  /** Connections that need their key again. */
  keysNeeded: string[];
}

type Profile = NonNullable<Settings['connections']>[number];
type McpServer = NonNullable<Settings['mcpServers']>[number];

/** The settings as a backup holds them: stored keys, secret headers and credential-like MCP values left out. */
function withoutSecrets(settings: Settings, withheld: string[]): Settings {
  const connections = (settings.connections ?? []).map((p): Profile => {
    const headers = Object.fromEntries(Object.entries(p.headers).filter(([name, value]) => (value === STORED_SECRET ? (withheld.push(`connections/${p.id}: header ${name}`), false) : true)));
    if (p.keyRef?.kind === 'stored') withheld.push(`connections/${p.id}: API key`);
    const { keyRef, ...rest } = p;
    return { ...rest, headers, ...(keyRef && keyRef.kind !== 'stored' ? { keyRef } : {}) };
  });
  const blank = (server: string, kind: string, map: Record<string, string> | undefined) =>
    map && Object.fromEntries(Object.entries(map).map(([name, value]) => (SECRET_NAME.test(name) && value ? (withheld.push(`mcpServers/${server}: ${kind} ${name}`), [name, '']) : [name, value])));
  const mcpServers = settings.mcpServers?.map((s): McpServer => {
    const env = blank(s.name, 'env', s.env);
    const headers = blank(s.name, 'header', s.headers);
    return { ...s, ...(env ? { env } : {}), ...(headers ? { headers } : {}) };
  });
  return { ...settings, connections, ...(mcpServers ? { mcpServers } : {}) };
}

export function exportBackup(deps: BackupDeps): Backup {
  const withheld: string[] = [];
  const sessions = deps.sessions.list().sort((a, b) => a.id.localeCompare(b.id));
  const avatars: Record<string, string> = {};
  for (const s of sessions) {
    const png = s.avatar ? deps.sessions.avatar(s.id) : null;
    if (png) avatars[s.id] = png.toString('base64');
  }
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: deps.now(),
    settings: withoutSecrets(deps.settings.get(), withheld) as unknown as Record<string, unknown>,
    sessions: sessions as unknown as Array<Record<string, unknown>>,
    avatars,
    packs: deps.packs.all().filter((p) => p.source === 'user').map((p) => JSON.parse(deps.packs.export(p.pack.id).content) as Record<string, unknown>).sort((a, b) => String(a.id).localeCompare(String(b.id))),
    extensions: deps.extensions.list().map((e) => ({ id: e.id, name: e.name, version: e.version, source: e.source, enabled: e.enabled, granted: [...e.granted], trusted: e.trusted })).sort((a, b) => a.id.localeCompare(b.id)),
    withheld,
  };
}

function parse(json: string): Backup {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The backup is not valid JSON (${(err as Error).message}).`, path: '/json' });
  }
  if (validateBackup(value)) return value as Backup;
  const { message, path } = describeAjvError(validateBackup.errors?.[0], 'invalid');
  throw new HostFailure({ code: 'INVALID_INPUT', message: `This is not a Council Workbench backup: ${message}`, path });
}

/** Restores a backup; everything is checked before anything is written. */
export async function importBackup(deps: BackupDeps, json: string): Promise<{ summary: RestoreSummary; sessionIds: string[] }> {
  const backup = parse(json);
  if ((backup.settings as { version?: unknown }).version !== SETTINGS_VERSION) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The backup's settings are version ${String((backup.settings as { version?: unknown }).version)}; this Workbench reads version ${SETTINGS_VERSION}.`, path: '/settings/version' });
  }
  const sessions = backup.sessions.map((s, i) => {
    try {
      return checkSession(s);
    } catch (err) {
      const e = (err as HostFailure).error;
      throw new HostFailure({ ...e, path: `/sessions/${i}${e.path ?? ''}` });
    }
  });
  backup.packs.forEach((pack, i) => {
    const parsed = parsePack(JSON.stringify(pack));
    if (!parsed.ok) throw new HostFailure({ ...parsed.error, path: `/packs/${i}${parsed.error.path ?? ''}` });
    if (deps.packs.get(parsed.value.id)?.source === 'bundled') throw new HostFailure({ code: 'CONFLICT', message: `The backup's pack "${parsed.value.id}" has a bundled pack's id.`, path: `/packs/${i}/id` });
  });
  const installed = new Map(deps.extensions.list().map((e) => [e.id, e]));
  const restored = backup.extensions.filter((e) => installed.has(e.id));
  const keysNeeded: string[] = [];
  await deps.settings.update((current) => {
    const incoming = backup.settings as unknown as Settings;
    // A key this folder already holds for the same connection stays; the others are asked for again.
    const connections = (incoming.connections ?? []).map((p) => {
      const here = current.connections?.find((c) => c.id === p.id);
      if (here?.keyRef && !p.keyRef) return { ...p, keyRef: here.keyRef, headers: { ...p.headers, ...Object.fromEntries(Object.entries(here.headers).filter(([, v]) => v === STORED_SECRET)) } };
      if (backup.withheld.includes(`connections/${p.id}: API key`)) keysNeeded.push(p.name);
      return p;
    });
    // Extensions are this folder's: their switches are set below, through the manager.
    return { ...incoming, connections, extensions: current.extensions };
  });
  for (const e of restored) await restoreSwitches(deps.extensions, installed.get(e.id)!, e);
  for (const session of sessions) {
    deps.sessions.write(session);
    const picture = backup.avatars[session.id];
    if (picture && session.avatar) deps.sessions.writeAvatar(session.id, Buffer.from(picture, 'base64'));
  }
  for (const pack of backup.packs) deps.packs.import(JSON.stringify(pack), { overwrite: true });
  const summary: RestoreSummary = {
    sessions: sessions.length,
    packs: backup.packs.length,
    extensions: restored.length,
    missingExtensions: backup.extensions.filter((e) => !installed.has(e.id)).map((e) => `${e.name} (${e.id} ${e.version})`),
    keysNeeded,
  };
  return { summary, sessionIds: sessions.map((s) => s.id) };
}
