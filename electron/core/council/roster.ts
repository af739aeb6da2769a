// Council changes as pure functions of the council as it is now: settings patches and member add / edit / remove /
// reorder / quick-add. The service runs them inside the settings queue, so each sees the current document.
import { fail } from '../../../shared/errors';
import type { CouncilMember, CouncilSettings, CouncilToolsSettings } from '../../../shared/types/council';
import type { StoredPack } from '../packs/pack-store';
import { assertChance } from './validate-council';
import { packToolQualifiedName } from './prompt-tool-source';

export interface MemberInput {
  packId: string;
  itemId: string;
  role?: string;
  chance?: number;
  tools?: string[];
  toolHistoryRetention?: Record<string, number>;
  allowedReadPaths?: string[];
  allowedWritePaths?: string[];
}

export type MemberPatch = Partial<MemberInput>;

export interface CouncilSettingsPatch {
  councilMode?: boolean;
  atLeastOneMember?: boolean;
  toolsSettings?: Partial<CouncilToolsSettings>;
}

export interface QuickAddInput {
  packId: string;
  chance?: number;
  tools?: string[];
  role?: string;
}

/** Checks what can be checked before the queue: chance range and retention counts. */
export function checkMember(input: MemberInput | MemberPatch, at: string): void {
  if (input.chance !== undefined) assertChance(input.chance, `${at}/chance`);
  for (const [q, n] of Object.entries(input.toolHistoryRetention ?? {})) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 10) {
      fail('INVALID_INPUT', `Retention for ${q} must be a whole number from 0 to 10.`, { path: `${at}/toolHistoryRetention/${q}` });
    }
  }
}

export function patchSettings(current: CouncilSettings, patch: CouncilSettingsPatch): CouncilSettings {
  const next: CouncilSettings = {
    ...current,
    ...(patch.councilMode === undefined ? {} : { councilMode: patch.councilMode }),
    ...(patch.atLeastOneMember === undefined ? {} : { atLeastOneMember: patch.atLeastOneMember }),
    toolsSettings: { ...current.toolsSettings, ...stripUndefined(patch.toolsSettings ?? {}) },
  };
  if (next.councilMode && !current.councilMode && next.members.length === 0) {
    fail('INVALID_INPUT', 'Add at least one member before turning Council Mode on.', { path: '/councilMode' });
  }
  return next;
}

export function newMember(id: string, input: MemberInput): CouncilMember {
  const member: CouncilMember = {
    id,
    packId: input.packId,
    itemId: input.itemId,
    role: input.role ?? '',
    chance: input.chance ?? 100,
    tools: dedupe(input.tools ?? []),
  };
  if (input.toolHistoryRetention) member.toolHistoryRetention = { ...input.toolHistoryRetention };
  if (input.allowedReadPaths) member.allowedReadPaths = [...input.allowedReadPaths];
  if (input.allowedWritePaths) member.allowedWritePaths = [...input.allowedWritePaths];
  return member;
}

export function patchMember(current: CouncilSettings, memberId: string, patch: MemberPatch): CouncilSettings {
  const index = indexOfMember(current, memberId);
  const before = current.members[index]!;
  const next: CouncilMember = { ...before, ...stripUndefined(patch) };
  if (patch.tools) next.tools = dedupe(patch.tools);
  if (patch.toolHistoryRetention) next.toolHistoryRetention = { ...(before.toolHistoryRetention ?? {}), ...patch.toolHistoryRetention };
  const members = [...current.members];
  members[index] = next;
  return { ...current, members };
}

/** Council Mode goes off with the last member: a council of nobody cannot be on. */
export function withoutMember(current: CouncilSettings, memberId: string): CouncilSettings {
  indexOfMember(current, memberId);
  const members = current.members.filter((m) => m.id !== memberId);
  return { ...current, members, councilMode: members.length > 0 && current.councilMode };
}

export function reordered(current: CouncilSettings, memberIds: string[]): CouncilSettings {
  const byId = new Map(current.members.map((m) => [m.id, m]));
  if (memberIds.length !== current.members.length || new Set(memberIds).size !== memberIds.length || memberIds.some((id) => !byId.has(id))) {
    fail('INVALID_INPUT', 'memberIds must list every current member exactly once.', { path: '/memberIds' });
  }
  return { ...current, members: memberIds.map((id) => byId.get(id)!) };
}

/** Every item of the pack as a member; items already on the council are skipped. */
export function withPackMembers(current: CouncilSettings, stored: StoredPack, input: QuickAddInput, newId: () => string): CouncilSettings {
  const have = new Set(current.members.map((m) => `${m.packId}/${m.itemId}`));
  const added: CouncilMember[] = stored.pack.items
    .filter((item) => !have.has(`${stored.pack.id}/${item.id}`))
    .map((item) => ({
      id: newId(),
      packId: stored.pack.id,
      itemId: item.id,
      role: input.role ?? roleFromItemId(item.id),
      chance: input.chance ?? 100,
      // Unless told otherwise, the pack's own tools: a member without any would never take part.
      tools: dedupe(input.tools ?? (stored.pack.tools ?? []).map((t) => packToolQualifiedName(stored.pack.id, t.name))),
    }));
  return { ...current, members: [...current.members, ...added] };
}

function indexOfMember(current: CouncilSettings, memberId: string): number {
  const index = current.members.findIndex((m) => m.id === memberId);
  if (index < 0) fail('NOT_FOUND', `No member "${memberId}".`, { path: '/memberId' });
  return index;
}

function dedupe(list: string[]): string[] {
  return [...new Set(list)];
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A quick-added member's role when none is given: pack items are named for the part they play ("plot-enforcer" → "Plot Enforcer"). */
function roleFromItemId(itemId: string): string {
  return itemId
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ')
    .slice(0, 200);
}
