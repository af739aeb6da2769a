// Lumia packs in the shape LumiHub and Lumiverse export (`packName`, `packAuthor`, `coverUrl`, `version`,
// `lumiaItems[]` with `lumiaName`/`lumiaDefinition`/`lumiaPersonality`/`lumiaBehavior`/`avatarUrl`/`genderIdentity`/
// `authorName`, `loomItems[]`, `packExtras`), and the older Lumia shape (`name`, `author`, `items[]` with `name`/
// `definition`…, `loomTools`) ↔ the Workbench's pack. Gender codes: Lumiverse 0 feminine, 1 masculine, 2 neutral,
// 3 any; LumiHub has 0–2, so 3 leaves as 2. Remote avatars are not fetched: imports make no network requests and
// the renderer's CSP loads no remote image. The file is kept under `lumihub` (its own fields and each item as it
// came), so an export writes back what nobody edited exactly as it was — each persona's own author included.
import { isDeepStrictEqual } from 'node:util';
import type { LumiaItem, LumiaPack } from '../../../shared/types/council';

type Raw = Record<string, unknown>;
const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isLumiHubPack(raw: unknown): raw is Raw {
  return isRecord(raw) && 'packName' in raw && (Array.isArray(raw.lumiaItems) || Array.isArray(raw.loomItems));
}

/** The older Lumia shape: a name, items with name and definition, no Workbench id. */
export function isOlderLumiaPack(raw: unknown): raw is Raw {
  return isRecord(raw) && !('id' in raw) && !('packName' in raw) && typeof raw.name === 'string' && Array.isArray(raw.items) && raw.items.every((i) => isRecord(i) && typeof i.name === 'string' && !('id' in i));
}

/** The Lumia DLCs as first published (prolix-oc/ST-Presets): LumiHub's items under `name`, `author`, `coverUrl`. */
export function isOlderDlcPack(raw: unknown): raw is Raw {
  return isRecord(raw) && !('id' in raw) && !('packName' in raw) && !('items' in raw) && typeof raw.name === 'string' && (Array.isArray(raw.lumiaItems) || Array.isArray(raw.loomItems));
}

/** An older DLC in LumiHub's names (every other field travels as it is): then read as a LumiHub pack. */
export function olderDlcToLumiHub(raw: Raw): Raw {
  const { name, author, ...rest } = raw;
  return { ...rest, packName: name, ...(author !== undefined ? { packAuthor: author } : {}) };
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

/** An older Lumia pack in LumiHub's names (every other field travels as it is): then read as a LumiHub pack. */
export function olderToLumiHub(raw: Raw): Raw {
  const { name, author, items, loomTools, ...rest } = raw;
  const rename = (item: unknown) => {
    if (!isRecord(item)) return item;
    const { name: n, definition, personality, behavior, avatar, ...more } = item;
    return { ...more, lumiaName: n, lumiaDefinition: definition, lumiaPersonality: personality, lumiaBehavior: behavior, ...(avatar !== undefined ? { avatarUrl: avatar } : {}) };
  };
  return {
    ...rest,
    packName: name,
    ...(author !== undefined ? { packAuthor: author } : {}),
    lumiaItems: Array.isArray(items) ? items.map(rename) : [],
    ...(loomTools !== undefined ? { loomItems: loomTools } : {}),
  };
}

/** One LumiHub persona as the Workbench's pack item, under the id it was given. */
function itemOf(entry: unknown, id: string) {
  const item = isRecord(entry) ? entry : {};
  return {
    id,
    name: str(item.lumiaName).trim().slice(0, 120) || id,
    definition: str(item.lumiaDefinition),
    personality: str(item.lumiaPersonality),
    behavior: str(item.lumiaBehavior),
    genderIdentity: gender(item.genderIdentity),
  };
}

/** The pack's own fields as the Workbench reads them. */
function packFields(raw: Raw) {
  const name = str(raw.packName).trim() || 'Imported pack';
  return { name: name.slice(0, 120), version: String(raw.version ?? '1'), author: str(raw.packAuthor) ? str(raw.packAuthor).slice(0, 120) : undefined, slugFrom: name };
}

/** The Workbench pack (unvalidated: the pack validator checks it next, naming fields in the Workbench shape). */
export function fromLumiHub(raw: Raw): Record<string, unknown> {
  const { name, version, author, slugFrom } = packFields(raw);
  const list = Array.isArray(raw.lumiaItems) ? (raw.lumiaItems as unknown[]) : [];
  const taken = new Set<string>();
  const avatarUrls: Record<string, string> = {};
  const originals: Record<string, unknown> = {};
  const items = list.map((entry, i) => {
    const item = isRecord(entry) ? entry : {};
    let id = slug(str(item.lumiaName), `item-${i + 1}`, 60);
    while (taken.has(id)) id = `${id}-${i + 1}`;
    taken.add(id);
    originals[id] = entry;
    if (typeof item.avatarUrl === 'string' && item.avatarUrl) avatarUrls[id] = item.avatarUrl;
    return itemOf(entry, id);
  });
  const { lumiaItems: _items, ...top } = raw;
  return {
    id: slug(slugFrom, 'imported-pack', 48),
    name,
    version,
    ...(author !== undefined ? { author } : {}),
    items,
    lumihub: {
      ...(str(raw.coverUrl) ? { coverUrl: str(raw.coverUrl) } : {}),
      avatarUrls,
      loomItems: Array.isArray(raw.loomItems) ? raw.loomItems : [],
      packExtras: Array.isArray(raw.packExtras) ? raw.packExtras : [],
      top,
      items: originals,
    },
  };
}

interface Kept {
  coverUrl?: string;
  avatarUrls?: Record<string, string>;
  loomItems?: unknown[];
  packExtras?: unknown[];
  top?: Raw;
  items?: Record<string, unknown>;
}

/**
 * Sets a field only when the Workbench's value differs from what the original gave (`was`; null when there is no
 * original): unedited values stay as they came — an author left empty stays empty, and a missing one missing.
 */
function edited<T>(target: Raw, key: string, now: T, was: { value: T } | null, write: T | unknown = now): void {
  if (was === null || !isDeepStrictEqual(now, was.value)) target[key] = write;
}

/** The LumiHub shape of a Workbench pack: what it came with, and what was edited or added since. */
export function toLumiHub(pack: LumiaPack): Record<string, unknown> {
  const kept = (pack.lumihub ?? {}) as Kept;
  const originalItems = kept.items ?? {};
  // What the file said, read as on import; each persona by the id it was given then.
  const before = kept.top ? packFields(kept.top) : null;
  const version = Number(pack.version);
  const out: Raw = kept.top ? { ...kept.top } : { coverUrl: kept.coverUrl ?? null, packExtras: kept.packExtras ?? [], loomItems: kept.loomItems ?? [] };
  const was = <K extends 'name' | 'author' | 'version'>(field: K) => (before ? { value: before[field] } : null);
  edited(out, 'packName', pack.name, was('name'));
  edited(out, 'packAuthor', pack.author, was('author'), pack.author ?? 'Unknown');
  edited(out, 'version', pack.version, was('version'), Number.isFinite(version) ? version : pack.version);
  out.lumiaItems = pack.items.map((item: LumiaItem) => {
    const original = originalItems[item.id];
    const itemWas = before && isRecord(original) ? itemOf(original, item.id) : undefined;
    // LumiHub's codes are the numbers 0–2: "any" (3) leaves as neutral, as Lumiverse's export does.
    const code = item.genderIdentity === 3 ? 2 : item.genderIdentity;
    if (!isRecord(original) || !itemWas) {
      return {
        lumiaName: item.name,
        lumiaDefinition: item.definition,
        lumiaPersonality: item.personality,
        lumiaBehavior: item.behavior,
        avatarUrl: kept.avatarUrls?.[item.id] ?? null,
        genderIdentity: code,
        authorName: pack.author ?? 'Unknown',
        version: 1,
      };
    }
    const raw: Raw = { ...original };
    edited(raw, 'lumiaName', item.name, { value: itemWas.name });
    edited(raw, 'lumiaDefinition', item.definition, { value: itemWas.definition });
    edited(raw, 'lumiaPersonality', item.personality, { value: itemWas.personality });
    edited(raw, 'lumiaBehavior', item.behavior, { value: itemWas.behavior });
    edited(raw, 'genderIdentity', item.genderIdentity, { value: itemWas.genderIdentity }, code);
    return raw;
  });
  return out;
}
