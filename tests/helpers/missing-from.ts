// What of a file's value an export lost: every field of `original` (nested ones too) must be in `exported` with the
// same value (arrays: the same length, each item likewise); new fields may be added. The paths of those missing.
export function missingFrom(original: unknown, exported: unknown, at = ''): string[] {
  if (Array.isArray(original)) {
    if (!Array.isArray(exported) || exported.length !== original.length) return [at || '/'];
    return original.flatMap((item, i) => missingFrom(item, exported[i], `${at}/${i}`));
  }
  if (typeof original === 'object' && original !== null) {
    if (typeof exported !== 'object' || exported === null || Array.isArray(exported)) return [at || '/'];
    return Object.entries(original).flatMap(([key, value]) => (key in exported ? missingFrom(value, (exported as Record<string, unknown>)[key], `${at}/${key}`) : [`${at}/${key}`]));
  }
  return Object.is(original, exported) ? [] : [at || '/'];
}
