// Checks a whole council configuration against the schema, naming the offending field (e.g. /members/2/chance).
import { HostFailure } from '../../../shared/errors';
import { COUNCIL_TOOLS_DEFAULTS, CouncilSettingsSchema, type CouncilMember, type CouncilSettings } from '../../../shared/types/council';
import { describeAjvError, lazyValidator } from '../contract/validators';

const validate = lazyValidator<CouncilSettings>(CouncilSettingsSchema);

/** Throws INVALID_INPUT with the field path; `prefix` roots the path (e.g. '' for the document). */
export function assertCouncilSettings(value: unknown, prefix = ''): CouncilSettings {
  if (!validate(value)) {
    const { message, path } = describeAjvError(validate.errors?.[0], 'council settings are invalid');
    throw new HostFailure({ code: 'INVALID_INPUT', message: `Council settings rejected: ${message}`, path: `${prefix}${path === '/' ? '' : path}` || '/' });
  }
  const ids = new Set<string>();
  value.members.forEach((m, i) => {
    if (ids.has(m.id)) throw new HostFailure({ code: 'INVALID_INPUT', message: `Member id "${m.id}" appears twice.`, path: `${prefix}/members/${i}/id` });
    ids.add(m.id);
  });
  return value;
}

/** Chance must be a whole number 0–100; strings, NaN and out-of-range values are refused, never coerced. */
export function assertChance(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 100) {
    throw new HostFailure({
      code: 'INVALID_INPUT',
      message: `chance must be a whole number from 0 to 100 (got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 20)) : String(value)}).`,
      path,
    });
  }
  return value;
}

/** What settings.council holds, with every missing field filled from the defaults; unknown member fields dropped. */
export function normalizeCouncil(raw: unknown): CouncilSettings {
  const c = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const members = Array.isArray(c.members) ? (c.members as Array<Record<string, unknown>>) : [];
  return {
    councilMode: c.councilMode === true,
    members: members.map((m) => {
      const out: CouncilMember = {
        id: String(m.id ?? ''),
        packId: String(m.packId ?? ''),
        itemId: String(m.itemId ?? ''),
        role: String(m.role ?? ''),
        chance: typeof m.chance === 'number' ? m.chance : 100,
        tools: Array.isArray(m.tools) ? (m.tools as unknown[]).map(String) : [],
      };
      if (m.toolHistoryRetention && typeof m.toolHistoryRetention === 'object') {
        out.toolHistoryRetention = { ...(m.toolHistoryRetention as Record<string, number>) };
      }
      if (Array.isArray(m.allowedReadPaths)) out.allowedReadPaths = (m.allowedReadPaths as unknown[]).map(String);
      if (Array.isArray(m.allowedWritePaths)) out.allowedWritePaths = (m.allowedWritePaths as unknown[]).map(String);
      return out;
    }),
    toolsSettings: { ...COUNCIL_TOOLS_DEFAULTS, ...((c.toolsSettings as object | undefined) ?? {}) },
    atLeastOneMember: c.atLeastOneMember === true,
  };
}
