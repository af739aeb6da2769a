// Which Lumiverse the Workbench answers to, and whether an extension asks for a newer one.

/** The Lumiverse version the Workbench answers to `version.getBackend()` and `host.lumiverseVersion`. */
export const LUMIVERSE_COMPAT_VERSION = '1.1.0';

/** The numeric parts of a version ("v1.2.0-beta" → [1, 2, 0]); what is not a number counts as 0. */
function parts(version: string): number[] {
  return version
    .replace(/^v/i, '')
    .split(/[-+]/, 1)[0]!
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
}

/** True when `minimum` (an extension's minimum_lumiverse_version) is newer than the version the Workbench matches. */
export function asksForNewerLumiverse(minimum: string, matched = LUMIVERSE_COMPAT_VERSION): boolean {
  const want = parts(minimum);
  const have = parts(matched);
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    const diff = (want[i] ?? 0) - (have[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return false;
}
