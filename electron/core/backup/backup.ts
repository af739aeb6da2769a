// Backup export and import. An export is everything the person made, without a single key; an import restores it over
// what is here, idempotently: the same sessions and packs by id, the settings document, each extension's switches for
// the ones installed here (the others are listed to install again), keys kept where this folder has them.
import { HostFailure } from '../../../shared/errors';
import { BACKUP_FORMAT, BACKUP_VERSION, BackupSchema, type Backup, type BackupExtension, type HeldItem } from '../../../shared/types/backup';
import type { ExtensionPermission } from '../../../shared/types/spindle';
import type { ExtensionInfo } from '../../../shared/contract/events';
import { SETTINGS_VERSION, SettingsSchema, type Settings } from '../../../shared/settings';
import { describeAjvError, lazyValidator } from '../contract/validators';
import { withLocalSecrets, withoutSecrets } from './backup-secrets';
import type { SessionStore } from '../chat/session-store';
import { checkSession } from '../chat/session-store';
import type { PackStore } from '../packs/pack-store';
import { CouncilRunSchema, type CouncilRun } from '../../../shared/types/council';
import { RUN_ID_PATTERN } from '../council/run-store';
import { Acceptance, reviewRestore } from './restore-review';
import { RestoreUndo } from './restore-undo';
import { parsePack } from '../packs/validate-pack';
import type { SettingsStore } from '../settings/settings-store';
import type { PresetDto, PresetStore } from '../presets/preset-store';
import type { RegexStore } from '../regex/regex-store';
import { checkedInput, checkPattern } from '../regex/regex-script';
import { USER_OWNER, type RegexScript, type RegexScriptInput } from '../../../shared/types/regex-script';

const validateBackup = lazyValidator<Backup>(BackupSchema);
const validateSettings = lazyValidator<Settings>(SettingsSchema);
const validateRun = lazyValidator<CouncilRun>(CouncilRunSchema);

/** The extension manager as a restore uses it (each switch through it, so running workers follow). */
export interface ExtensionSwitches {
  list(): ExtensionInfo[];
  enable(id: string): Promise<unknown>;
  disable(id: string): Promise<unknown>;
  grant(id: string, permissions: ExtensionPermission[]): Promise<unknown>;
  revoke(id: string, permissions: ExtensionPermission[]): Promise<unknown>;
  setTrusted(id: string, trusted: boolean): Promise<unknown>;
}

/** The council's stored runs as a backup uses them. */
export interface RunBackups {
  all(): CouncilRun[];
  tryGet(id: string): CouncilRun | null;
  save(run: CouncilRun): Promise<void>;
  remove(id: string): Promise<void>;
}

export interface BackupDeps {
  settings: SettingsStore;
  presets: PresetStore;
  regex: RegexStore;
  runs: RunBackups;
  sessions: SessionStore;
  packs: PackStore;
  extensions: ExtensionSwitches;
  now: () => number;
  /** A reply is being written in the session (a restore waits: the turn would save over it). */
  isBusy: (sessionId: string) => boolean;
}

/**
 * An installed extension set as the backup has it: grants, trust, on or off. What loosens it (a grant it lacks here,
 * trust, turning it on) waits for the person's acceptance; what tightens it is applied.
 */
async function restoreSwitches(manager: ExtensionSwitches, here: ExtensionInfo, wanted: BackupExtension, acceptance: Acceptance): Promise<void> {
  const has = (list: readonly string[], p: string) => list.includes(p);
  const revoke = here.granted.filter((p) => !has(wanted.granted, p)) as ExtensionPermission[];
  // Only what it asks for can be granted (a backup from another version may name more).
  const grant = wanted.granted.filter((p) => !has(here.granted, p) && has(here.requested, p));
  const loosens = [
    ...(grant.length ? [`it would be granted ${grant.join(', ')}`] : []),
    ...(wanted.trusted && !here.trusted ? ['it would be trusted'] : []),
    ...(wanted.enabled && !here.enabled ? ['it would be turned on'] : []),
  ];
  const accepted = loosens.length === 0 || acceptance.allows('extension', here.id, here.name, loosens.join('; '));
  if (revoke.length) await manager.revoke(here.id, revoke);
  if (accepted && grant.length) await manager.grant(here.id, grant as ExtensionPermission[]);
  if (here.trusted !== wanted.trusted && (accepted || !wanted.trusted)) await manager.setTrusted(here.id, wanted.trusted);
  if (here.enabled !== wanted.enabled && (accepted || !wanted.enabled)) await (wanted.enabled ? manager.enable(here.id) : manager.disable(here.id));
}

export interface RestoreSummary {
  sessions: number;
  packs: number;
  runs: number;
  presets: number;
  regexScripts: number;
  extensions: number;
  /** Listed in the backup but not installed here: install them again. */
  missingExtensions: string[];
  /** Connections and MCP servers whose key or secret values this folder does not have. */
  keysNeeded: string[];
  /** Extension switches that could not be set (the rest of the restore went on). */
  problems: string[];
  /** What would run a command, reach a network or loosen safety, held until accepted. */
  held: HeldItem[];
  accepted: HeldItem[];
}

export async function exportBackup(deps: BackupDeps): Promise<Backup> {
  const withheld: string[] = [];
  const sessions = (await deps.sessions.all()).sort((a, b) => a.id.localeCompare(b.id));
  const avatars: Record<string, string> = {};
  for (const s of sessions) {
    const png = s.avatar ? await deps.sessions.avatar(s.id) : null;
    if (png) avatars[s.id] = png.toString('base64');
  }
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: deps.now(),
    settings: withoutSecrets(deps.settings.get(), withheld) as unknown as Record<string, unknown>,
    sessions: sessions as unknown as Array<Record<string, unknown>>,
    avatars,
    runs: deps.runs.all().sort((a, b) => a.id.localeCompare(b.id)) as unknown as Array<Record<string, unknown>>,
    presets: deps.presets.all() as unknown as Array<Record<string, unknown>>,
    regexScripts: deps.regex.all().filter((script) => script.owner === USER_OWNER) as unknown as Array<Record<string, unknown>>,
    packs: deps.packs.all().filter((p) => p.source === 'user').map((p) => JSON.parse(deps.packs.export(p.pack.id).content) as Record<string, unknown>).sort((a, b) => String(a.id).localeCompare(String(b.id))),
    extensions: deps.extensions.list().map((e) => ({ id: e.id, name: e.name, version: e.version, source: e.source, enabled: e.enabled, granted: [...e.granted], trusted: e.trusted })).sort((a, b) => a.id.localeCompare(b.id)),
    withheld,
  };
}

/** A backup's preset, checked for what restoring it needs (the store normalizes its blocks). */
function checkedPreset(value: Record<string, unknown>, at: string): PresetDto {
  const bad = (field: string, what: string) => {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The backup's preset ${what}.`, path: `${at}/${field}` });
  };
  if (typeof value.id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value.id)) bad('id', 'has no id of letters, digits, _ and - (64 at most)');
  if (typeof value.name !== 'string' || !value.name) bad('name', 'has no name');
  if (!Array.isArray(value.prompt_order) || value.prompt_order.some((b) => typeof b !== 'object' || b === null || Array.isArray(b))) bad('prompt_order', "has no list of blocks");
  for (const field of ['created_at', 'updated_at'] as const) if (typeof value[field] !== 'number') bad(field, `has no ${field} time`);
  return { provider: 'loom', engine: 'classic', parameters: {}, prompts: {}, metadata: {}, cache_revision: 0, ...value } as unknown as PresetDto;
}

/** A backup's regex script: its id, and its fields as a new script's are checked (name, pattern, placement…). */
function checkedScript(value: Record<string, unknown>, at: string, now: number): RegexScript {
  if (typeof value.id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(value.id)) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: "The backup's regex script has no id of letters, digits, _ and - (64 at most).", path: `${at}/id` });
  }
  try {
    const { id: _id, owner: _owner, created_at: _made, updated_at: _changed, ...fields } = value;
    checkedInput(fields as RegexScriptInput, true);
    const macros = value.substitute_macros === 'raw' || value.substitute_macros === 'escaped' || value.substitute_macros === 'after' ? value.substitute_macros : 'none';
    if (typeof value.find_regex === 'string') checkPattern(value.find_regex, typeof value.flags === 'string' ? value.flags : 'g', macros);
  } catch (err) {
    const e = (err as HostFailure).error;
    throw new HostFailure({ ...e, path: `${at}${(e.path ?? '').replace(/^\/input/, '')}` });
  }
  const seconds = Math.floor(now / 1000);
  return { created_at: seconds, updated_at: seconds, ...value, owner: USER_OWNER } as unknown as RegexScript;
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

/** Restores a backup; everything is checked before anything is written, and a failed write puts back what was. */
export async function importBackup(deps: BackupDeps, json: string, accept: readonly string[] = []): Promise<{ summary: RestoreSummary; sessionIds: string[] }> {
  const backup = parse(json);
  if ((backup.settings as { version?: unknown }).version !== SETTINGS_VERSION) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The backup's settings are version ${String((backup.settings as { version?: unknown }).version)}; this Workbench reads version ${SETTINGS_VERSION}.`, path: '/settings/version' });
  }
  if (!validateSettings(backup.settings)) {
    const { message, path } = describeAjvError(validateSettings.errors?.[0], 'invalid');
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The backup's settings are not valid: ${message}`, path: `/settings${path ?? ''}` });
  }
  const sessions = backup.sessions.map((s, i) => {
    try {
      return checkSession(s);
    } catch (err) {
      const e = (err as HostFailure).error;
      throw new HostFailure({ ...e, path: `/sessions/${i}${e.path ?? ''}` });
    }
  });
  const packs = backup.packs.map((pack, i) => {
    const parsed = parsePack(JSON.stringify(pack));
    if (!parsed.ok) throw new HostFailure({ ...parsed.error, path: `/packs/${i}${parsed.error.path ?? ''}` });
    if (deps.packs.get(parsed.value.id)?.source === 'bundled') throw new HostFailure({ code: 'CONFLICT', message: `The backup's pack "${parsed.value.id}" has a bundled pack's id.`, path: `/packs/${i}/id` });
    // A backup's packs are self-contained (avatars inlined): a path to a file beside it cannot be read.
    const away = parsed.value.items.findIndex((item) => item.avatar !== undefined && !item.avatar.startsWith('data:'));
    if (away >= 0) throw new HostFailure({ code: 'INVALID_PACK', message: 'A pack in a backup carries its avatars inline (data: URLs).', path: `/packs/${i}/items/${away}/avatar` });
    return { id: parsed.value.id, name: parsed.value.name, text: JSON.stringify(pack) };
  });
  const runs = (backup.runs ?? []).map((run, i) => {
    if (!validateRun(run)) {
      const { message, path } = describeAjvError(validateRun.errors?.[0], 'invalid');
      throw new HostFailure({ code: 'INVALID_INPUT', message: `The backup's council run ${i} is not valid: ${message}`, path: `/runs/${i}${path ?? ''}` });
    }
    if (!RUN_ID_PATTERN.test(run.id)) throw new HostFailure({ code: 'INVALID_INPUT', message: 'A council run id is letters, digits, _ and - (80 at most).', path: `/runs/${i}/id` });
    return run;
  });
  const presets = (backup.presets ?? []).map((preset, i) => checkedPreset(preset, `/presets/${i}`));
  const regexScripts = (backup.regexScripts ?? []).map((script, i) => checkedScript(script, `/regexScripts/${i}`, deps.now()));
  const busy = sessions.find((s) => deps.isBusy(s.id));
  if (busy) throw new HostFailure({ code: 'CONFLICT', message: `A reply is being written in "${busy.title}", which the backup holds.`, hint: 'Stop it or let it finish, then restore.', path: '/sessions' });
  const installed = new Map(deps.extensions.list().map((e) => [e.id, e]));
  const restored = backup.extensions.filter((e) => installed.has(e.id));
  const keysNeeded: string[] = [];
  const acceptance = new Acceptance(accept);
  const current = deps.settings.get();
  const reviewed = reviewRestore(backup.settings as unknown as Settings, current, acceptance);
  const incoming = withLocalSecrets(reviewed.settings, current, backup.withheld, keysNeeded, reviewed.localSecretsFor);

  // Checked; now written: packs and sessions, then the settings. Each step keeps what it replaced, and a failure puts
  // every written item back before it is reported.
  const undo = new RestoreUndo(deps, current);
  const step = async (path: string, what: string, write: () => unknown) => {
    try {
      await write();
    } catch (err) {
      const reason = err instanceof HostFailure ? err.error.message : (err as Error).message;
      const left = await undo.run();
      throw new HostFailure({ code: 'RESTORE_FAILED', message: `Restoring ${what} failed (${reason}). ${left.length ? `Could not put back: ${left.join(', ')}.` : 'Nothing was changed.'}`, path });
    }
  };
  for (const [i, pack] of packs.entries()) {
    await step(`/packs/${i}`, `the pack "${pack.name}"`, () => {
      undo.pack(pack.id);
      deps.packs.import(pack.text, { overwrite: true });
    });
  }
  for (const [i, session] of sessions.entries()) {
    await step(`/sessions/${i}`, `the session "${session.title}"`, async () => {
      await undo.session(session.id);
      // A restore gives the host's thread back between its steps: a reply started meanwhile stops it here.
      if (deps.isBusy(session.id)) throw new HostFailure({ code: 'CONFLICT', message: `A reply began in "${session.title}" while it was being restored.` });
      await deps.sessions.writeWhole(session);
      const picture = backup.avatars[session.id];
      if (picture && session.avatar) await deps.sessions.writeAvatar(session.id, Buffer.from(picture, 'base64'));
    });
  }
  for (const [i, run] of runs.entries()) {
    await step(`/runs/${i}`, `the council run ${run.id}`, async () => {
      undo.councilRun(run.id);
      await deps.runs.save(run);
    });
  }
  for (const [i, preset] of presets.entries()) {
    await step(`/presets/${i}`, `the preset "${preset.name}"`, () => {
      undo.preset(preset.id);
      deps.presets.restore(preset);
    });
  }
  for (const [i, script] of regexScripts.entries()) {
    await step(`/regexScripts/${i}`, `the regex script "${script.name}"`, () => {
      undo.regexScript(script.id);
      deps.regex.restore(script);
    });
  }
  // Extensions are this folder's: their switches are set below, through the manager.
  await step('/settings', 'the settings', () => deps.settings.update(() => ({ ...incoming, extensions: current.extensions })));
  const problems: string[] = [];
  for (const e of restored) {
    try {
      await restoreSwitches(deps.extensions, installed.get(e.id)!, e, acceptance);
    } catch (err) {
      problems.push(`${e.name}: ${err instanceof HostFailure ? err.error.message : (err as Error).message}`);
    }
  }
  const summary: RestoreSummary = {
    sessions: sessions.length,
    packs: packs.length,
    runs: runs.length,
    presets: presets.length,
    regexScripts: regexScripts.length,
    extensions: restored.length,
    missingExtensions: backup.extensions.filter((e) => !installed.has(e.id)).map((e) => `${e.name} (${e.id} ${e.version})`),
    keysNeeded,
    problems,
    held: acceptance.held,
    accepted: acceptance.accepted,
  };
  return { summary, sessionIds: sessions.map((s) => s.id) };
}
