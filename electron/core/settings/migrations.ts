// Versioned settings migrations: each step turns version N into N+1.
export interface Migration {
  from: number;
  migrate(doc: Record<string, unknown>): Record<string, unknown>;
}

/** The app's migrations, in order. Version 1 is the first released shape, so none exist yet. */
export const migrations: Migration[] = [];

export function migrate(
  doc: Record<string, unknown>,
  target: number,
  steps: Migration[] = migrations,
): Record<string, unknown> {
  let current = doc;
  let version = typeof current.version === 'number' ? current.version : 0;
  while (version < target) {
    const step = steps.find((m) => m.from === version);
    if (!step) throw new Error(`no migration from settings version ${version}`);
    current = { ...step.migrate(current), version: version + 1 };
    version += 1;
  }
  return current;
}
