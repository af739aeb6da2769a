// Named council profiles: <dataDir>/council-profiles/<slug>.json; save, load, list, export, import.
import fs from 'node:fs';
import { writeFileAtomicSync } from '../util/atomic-write';
import path from 'node:path';
import { HostFailure, fail } from '../../../shared/errors';
import type { CouncilProfile, CouncilSettings, ProfileSummary } from '../../../shared/types/council';
import { assertCouncilSettings } from './validate-council';
import { sortByName } from '../util/by-name';

const MAX_PROFILE_BYTES = 2 * 1024 * 1024;

function slug(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return s || 'profile';
}

export class ProfileStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'council-profiles');
  }

  private file(name: string): string {
    return path.join(this.dir, `${slug(name)}.json`);
  }

  list(): ProfileSummary[] {
    if (!fs.existsSync(this.dir)) return [];
    const out: ProfileSummary[] = [];
    for (const f of fs.readdirSync(this.dir)) {
      if (!f.endsWith('.json')) continue;
      try {
        const p = JSON.parse(fs.readFileSync(path.join(this.dir, f), 'utf8')) as CouncilProfile;
        out.push({ name: p.name, savedAt: p.savedAt, members: p.council.members.length });
      } catch {
        // an unreadable profile is skipped; the others still list
      }
    }
    return sortByName(out, (p) => p.name);
  }

  save(name: string, council: CouncilSettings, now: number): ProfileSummary {
    const profile: CouncilProfile = { name, savedAt: now, council };
    fs.mkdirSync(this.dir, { recursive: true });
    const file = this.file(name);
    writeFileAtomicSync(file, JSON.stringify(profile, null, 2));
    return { name, savedAt: now, members: council.members.length };
  }

  get(name: string): CouncilProfile {
    const file = this.file(name);
    if (!fs.existsSync(file)) fail('NOT_FOUND', `No council profile named "${name}".`, { path: '/name' });
    return parseProfile(fs.readFileSync(file, 'utf8'));
  }

  export(name: string): { fileName: string; content: string } {
    const profile = this.get(name);
    return { fileName: `${slug(name)}.council-profile.json`, content: JSON.stringify(profile, null, 2) };
  }

  import(content: string, now: number, rename?: string): ProfileSummary {
    const profile = parseProfile(content);
    return this.save(rename ?? profile.name, profile.council, now);
  }

  remove(name: string): boolean {
    const file = this.file(name);
    if (!fs.existsSync(file)) return false;
    fs.rmSync(file);
    return true;
  }
}

export function parseProfile(content: string): CouncilProfile {
  if (content.length > MAX_PROFILE_BYTES) fail('INVALID_INPUT', 'The profile file is over 2 MB.', { path: '' });
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch (err) {
    throw new HostFailure({ code: 'INVALID_INPUT', message: `The profile is not valid JSON: ${(err as Error).message}`, path: '' });
  }
  const p = raw as Partial<CouncilProfile>;
  if (typeof p !== 'object' || p === null || typeof p.name !== 'string' || p.name.length < 1 || p.name.length > 80) {
    fail('INVALID_INPUT', 'A profile needs a name of 1–80 characters.', { path: '/name' });
  }
  const council = assertCouncilSettings(p.council, '/council');
  return { name: p.name, savedAt: typeof p.savedAt === 'number' ? p.savedAt : 0, council };
}
