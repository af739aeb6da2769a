// Lumia packs in the shape LumiHub and Lumiverse export (`packName`, `packAuthor`, `coverUrl`, `version`,
// `lumiaItems[]` with `lumiaName`/`lumiaDefinition`/`lumiaPersonality`/`lumiaBehavior`/`avatarUrl`/`genderIdentity`,
// `loomItems[]`, `packExtras`) ↔ the Workbench's pack. Gender codes: Lumiverse 0 feminine, 1 masculine, 2 neutral,
// 3 any; LumiHub has 0–2, so 3 leaves as 2. Remote avatars are not fetched: imports make no network requests and
// the renderer's CSP loads no remote image; the links (and the loom items, which the Workbench does not use) are
// kept under `lumihub` so an export gives them back.
import type { LumiaItem, LumiaPack } from '../../../shared/types/council';

export function isLumiHubPack(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && 'packName' in raw && (Array.isArray((raw as { lumiaItems?: unknown }).lumiaItems) || Array.isArray((raw as { loomItems?: unknown }).loomItems));
}

function slug(text: string, fallback: string, max: number): string {
  const s = text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, max);
  return s.length >= 2 ? s : fallback;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function gender(value: unknown): 0 | 1 | 2 | 3 {
  const n = Number(value);
  return n === 0 || n === 1 || n === 2 || n === 3 ? n : 3;
}

/** The Workbench pack (unvalidated: the pack validator checks it next, naming fields in the Workbench shape). */
export function fromLumiHub(raw: Record<string, unknown>): Record<string, unknown> {
  const name = str(raw.packName).trim() || 'Imported pack';
  const lumia = Array.isArray(raw.lumiaItems) ? raw.lumiaItems : [];
  const taken = new Set<string>();
  const avatarUrls: Record<string, string> = {};
  const items = lumia.map((entry, i) => {
    const item = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    let id = slug(str(item.lumiaName), `item-${i + 1}`, 60);
    while (taken.has(id)) id = `${id}-${i + 1}`;
    taken.add(id);
    if (typeof item.avatarUrl === 'string' && item.avatarUrl) avatarUrls[id] = item.avatarUrl;
    return {
      id,
      name: str(item.lumiaName).trim() || id,
      definition: str(item.lumiaDefinition),
      personality: str(item.lumiaPersonality),
      behavior: str(item.lumiaBehavior),
      genderIdentity: gender(item.genderIdentity),
    };
  });
  return {
    id: slug(name, 'imported-pack', 48),
    name: name.slice(0, 120),
    version: String(raw.version ?? '1'),
    ...(str(raw.packAuthor) ? { author: str(raw.packAuthor).slice(0, 120) } : {}),
    items,
    lumihub: {
      ...(str(raw.coverUrl) ? { coverUrl: str(raw.coverUrl) } : {}),
      avatarUrls,
      loomItems: Array.isArray(raw.loomItems) ? raw.loomItems : [],
      packExtras: Array.isArray(raw.packExtras) ? raw.packExtras : [],
    },
  };
}

/** The LumiHub shape of a Workbench pack (its kept links, loom items and extras included). */
export function toLumiHub(pack: LumiaPack): Record<string, unknown> {
  const kept = (pack.lumihub ?? {}) as { coverUrl?: string; avatarUrls?: Record<string, string>; loomItems?: unknown[]; packExtras?: unknown[] };
  const version = Number(pack.version);
  return {
    packName: pack.name,
    packAuthor: pack.author ?? 'Unknown',
    coverUrl: kept.coverUrl ?? null,
    version: Number.isFinite(version) ? version : pack.version,
    packExtras: kept.packExtras ?? [],
    lumiaItems: pack.items.map((item: LumiaItem) => ({
      lumiaName: item.name,
      lumiaDefinition: item.definition,
      lumiaPersonality: item.personality,
      lumiaBehavior: item.behavior,
      avatarUrl: kept.avatarUrls?.[item.id] ?? null,
      // LumiHub's codes are the numbers 0–2: "any" (3) leaves as neutral, as Lumiverse's export does.
      genderIdentity: item.genderIdentity === 3 ? 2 : item.genderIdentity,
      authorName: pack.author ?? 'Unknown',
      version: 1,
    })),
    loomItems: kept.loomItems ?? [],
  };
}
