// What a restore may not do on its own: add anything that runs a command or reaches a network, or loosen safety.
// Each such item of a backup is held — MCP servers come back off and untrusted, connections held (unused, without a
// key), safety keeps the stricter value, extension grants and trust are not added — unless the person accepted it by
// its key (`mcp:<id>`, `connection:<id>`, `safety:<field>`, `extension:<id>`, or `<kind>:*`).
import type { Settings } from '../../../shared/settings';
import { isSecretValue, STORED_SECRET } from '../../../shared/secret-mask';
import { readSafetySettings, type SafetySettings } from '../../../shared/types/safety';
import type { HeldItem, HeldKind } from '../../../shared/types/backup';

type Profile = NonNullable<Settings['connections']>[number];
type McpServer = NonNullable<Settings['mcpServers']>[number];

export class Acceptance {
  private readonly keys: Set<string>;
  readonly held: HeldItem[] = [];
  readonly accepted: HeldItem[] = [];

  constructor(keys: readonly string[]) {
    this.keys = new Set(keys);
  }

  /** True when `item` may go ahead; either way it is listed (held or accepted) for the summary. */
  allows(kind: HeldKind, id: string, name: string, reason: string): boolean {
    const item: HeldItem = { key: `${kind}:${id}`, kind, id, name, reason };
    const ok = this.keys.has(item.key) || this.keys.has(`${kind}:*`);
    (ok ? this.accepted : this.held).push(item);
    return ok;
  }
}

/** What a server runs or reaches: its transport, program, arguments, folder, address, and plain settings. */
function reach(s: McpServer): string {
  const plain = (field: 'env' | 'headers') => Object.entries(s[field] ?? {}).map(([name, value]) => [name, isSecretValue(field, name) ? '' : value]);
  return JSON.stringify([s.transport, s.command ?? null, s.args ?? [], s.cwd ?? null, s.url ?? null, plain('env'), plain('headers')]);
}

function reviewServer(s: McpServer, here: McpServer | undefined, acceptance: Acceptance): { server: McpServer; keepLocalSecrets: boolean } {
  const what = s.transport === 'http' ? `connects to ${s.url ?? '?'}` : `runs ${[s.command, ...(s.args ?? [])].join(' ')}`;
  const reasons = [
    ...(!here ? [`new: it ${what}`] : reach(here) !== reach(s) ? [`changed: it ${what}`] : []),
    ...(here && s.enabled && !here.enabled ? ['it would be turned on'] : []),
    ...(s.trusted && !here?.trusted ? ['it would be trusted'] : []),
  ];
  const unchanged = here !== undefined && reach(here) === reach(s);
  if (reasons.length === 0 || acceptance.allows('mcp', s.id, s.name, reasons.join('; '))) return { server: s, keepLocalSecrets: unchanged };
  // Held: off and untrusted, its secret values left empty, until the person turns it on.
  return { server: { ...s, enabled: false, trusted: unchanged && (here?.trusted ?? false) }, keepLocalSecrets: false };
}

function reviewConnection(p: Profile, found: Profile | undefined, acceptance: Acceptance): { profile: Profile; keepLocalSecrets: boolean } {
  // One still held here is not yet the person's: restoring again does not confirm it.
  const here = found?.held === undefined ? found : undefined;
  const moved = here !== undefined && (here.baseUrl !== p.baseUrl || here.provider !== p.provider);
  const reason = !here ? `new: it sends to ${p.baseUrl}` : moved ? `its address changed from ${here.baseUrl} to ${p.baseUrl}` : null;
  if (reason === null) return { profile: p, keepLocalSecrets: true };
  // A key goes only to the address it was stored for: accepted or not, a moved connection's key is added again.
  const { keyRef: _key, held: _held, ...rest } = p;
  const keyless = { ...rest, headers: Object.fromEntries(Object.entries(p.headers).filter(([, value]) => value !== STORED_SECRET)) };
  if (acceptance.allows('connection', p.id, p.name, reason)) return { profile: keyless, keepLocalSecrets: false };
  return { profile: { ...keyless, held: reason }, keepLocalSecrets: false };
}

const entryKey = (e: SafetySettings['alwaysAllow'][number]) => `${e.qualifiedName} ${e.definitionHash}`;
const looserPaths = (incoming: string[] | undefined, here: string[] | undefined) => here !== undefined && (incoming === undefined || incoming.some((p) => !here.includes(p)));

function reviewSafety(incomingRaw: unknown, currentRaw: unknown, acceptance: Acceptance): SafetySettings {
  const incoming = readSafetySettings(incomingRaw);
  const here = readSafetySettings(currentRaw);
  const out: SafetySettings = { ...incoming, workbench: { ...incoming.workbench } };
  const keep = (field: string, name: string, reason: string, keepHere: () => void) => {
    if (!acceptance.allows('safety', field, name, reason)) keepHere();
  };
  if (here.approveAllWrites && !incoming.approveAllWrites) keep('approveAllWrites', 'Ask before every write', 'write approvals would be turned off', () => (out.approveAllWrites = true));
  if (here.dryRun && !incoming.dryRun) keep('dryRun', 'Dry run', 'dry run would be turned off', () => (out.dryRun = true));
  const mine = new Set(here.alwaysAllow.map(entryKey));
  const added = incoming.alwaysAllow.filter((e) => !mine.has(entryKey(e)));
  if (added.length) {
    keep('alwaysAllow', 'Always allowed tools', `${added.map((e) => e.qualifiedName).join(', ')} would run without asking`, () => (out.alwaysAllow = incoming.alwaysAllow.filter((e) => mine.has(entryKey(e)))));
  }
  for (const field of ['allowedReadPaths', 'allowedWritePaths'] as const) {
    if (looserPaths(incoming.workbench[field], here.workbench[field])) {
      keep(`workbench.${field}`, field === 'allowedReadPaths' ? 'Workbench read paths' : 'Workbench write paths', 'the allowed paths would widen', () => {
        const paths = here.workbench[field];
        if (paths) out.workbench[field] = paths;
      });
    }
  }
  return out;
}

export interface ReviewedSettings {
  settings: Settings;
  /** Ids whose secret values this folder may put back (unchanged address or program). */
  localSecretsFor: Set<string>;
}

/** The backup's settings with every item that needs a person's yes held (or accepted, as `acceptance` says). */
export function reviewRestore(incoming: Settings, current: Settings, acceptance: Acceptance): ReviewedSettings {
  const localSecretsFor = new Set<string>();
  const connections = (incoming.connections ?? []).map((p) => {
    const { profile, keepLocalSecrets } = reviewConnection(p, current.connections?.find((c) => c.id === p.id), acceptance);
    if (keepLocalSecrets) localSecretsFor.add(`connections/${p.id}`);
    return profile;
  });
  const mcpServers = incoming.mcpServers?.map((s) => {
    const { server, keepLocalSecrets } = reviewServer(s, current.mcpServers?.find((c) => c.id === s.id), acceptance);
    if (keepLocalSecrets) localSecretsFor.add(`mcpServers/${s.id}`);
    return server;
  });
  const safety = reviewSafety(incoming.safety, current.safety, acceptance);
  return { settings: { ...incoming, connections, ...(mcpServers ? { mcpServers } : {}), safety }, localSecretsFor };
}
