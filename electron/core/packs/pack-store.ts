// Lumia packs: the bundled ones (resources/packs/<id>/pack.json + avatar files) and user packs (<dataDir>/packs/<id>.json, avatars inlined).
import fs from 'node:fs';
import { Emitter } from '../util/emitter';
import { writeFileAtomicSync } from '../util/atomic-write';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HostFailure, fail } from '../../../shared/errors';
import { PACK_LIMITS, type LumiaItem, type LumiaPack, type PackSummary } from '../../../shared/types/council';
import type { Logger } from '../ports';
import { toLumiHub } from './lumihub-pack';
import { parsePack } from './validate-pack';
import { sortByName } from '../util/by-name';

export interface StoredPack {
  pack: LumiaPack;
  source: 'bundled' | 'user';
  /** Folder relative avatar paths resolve against (bundled packs). */
  dir: string | null;
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

/** The repository's bundled packs, for running from source. */
export function bundledPacksSource(): string {
  return fileURLToPath(new URL('../../../resources/packs', import.meta.url));
}

/** Relative URL naming an item's avatar (CouncilMemberContext.avatarUrl); the image itself comes from packs.avatar. */
export function avatarUrlOf(packId: string, item: LumiaItem): string | null {
  return item.avatar ? `/packs/${encodeURIComponent(packId)}/items/${encodeURIComponent(item.id)}/avatar` : null;
}

export interface PackStoreOptions {
  dataDir: string;
  bundledDir: string | null;
  log: Logger;
}

export class PackStore {
  private readonly packs = new Map<string, StoredPack>();
  private readonly listeners = new Emitter<void>((err) => this.options.log.error('pack listener failed', err));
  readonly userDir: string;

  constructor(private readonly options: PackStoreOptions) {
    this.userDir = path.join(options.dataDir, 'packs');
    this.reload();
  }

  reload(): void {
    this.packs.clear();
    const bundled = this.options.bundledDir;
    if (bundled && fs.existsSync(bundled)) {
      for (const entry of fs.readdirSync(bundled, { withFileTypes: true })) {
        if (!entry.isDirectory()) continue;
        const dir = path.join(bundled, entry.name);
        this.load(path.join(dir, 'pack.json'), 'bundled', dir);
      }
    }
    if (fs.existsSync(this.userDir)) {
      for (const name of fs.readdirSync(this.userDir)) {
        if (name.endsWith('.json')) this.load(path.join(this.userDir, name), 'user', null);
      }
    }
  }

  private load(file: string, source: 'bundled' | 'user', dir: string | null): void {
    try {
      const stat = fs.statSync(file);
      const parsed = stat.size > PACK_LIMITS.maxFileBytes ? parsePack('', stat.size) : parsePack(fs.readFileSync(file, 'utf8'), stat.size);
      if (!parsed.ok) {
        this.options.log.warn(`packs: ${file} skipped: ${parsed.error.message}`);
        return;
      }
      if (this.packs.get(parsed.value.id)?.source === 'bundled') {
        this.options.log.warn(`packs: ${file} skipped: "${parsed.value.id}" is a bundled pack`);
        return;
      }
      this.packs.set(parsed.value.id, { pack: parsed.value, source, dir });
    } catch (err) {
      this.options.log.warn(`packs: ${file} skipped: ${(err as Error).message}`);
    }
  }

  onChange(listener: () => void): () => void {
    return this.listeners.on(listener);
  }

  private changed(): void {
    this.listeners.emit();
  }

  /** Every pack in no set order: for callers that visit each one. */
  unordered(): IterableIterator<StoredPack> {
    return this.packs.values();
  }

  /** Every pack as people see them listed: bundled first, then by name. */
  all(): StoredPack[] {
    const all = [...this.packs.values()];
    const byPackName = (p: StoredPack) => p.pack.name;
    return [...sortByName(all.filter((p) => p.source === 'bundled'), byPackName), ...sortByName(all.filter((p) => p.source !== 'bundled'), byPackName)];
  }

  get(id: string): StoredPack | undefined {
    return this.packs.get(id);
  }

  item(packId: string, itemId: string): { pack: LumiaPack; item: LumiaItem } | undefined {
    const stored = this.packs.get(packId);
    const item = stored?.pack.items.find((i) => i.id === itemId);
    return stored && item ? { pack: stored.pack, item } : undefined;
  }

  summary(stored: StoredPack, toolQualifiedName: (packId: string, toolName: string) => string): PackSummary {
    const { pack } = stored;
    return {
      id: pack.id,
      name: pack.name,
      version: pack.version,
      author: pack.author ?? null,
      description: pack.description ?? null,
      source: stored.source,
      items: pack.items.map((i) => ({
        id: i.id,
        name: i.name,
        definition: i.definition,
        personality: i.personality,
        behavior: i.behavior,
        genderIdentity: i.genderIdentity,
        avatarUrl: avatarUrlOf(pack.id, i),
      })),
      tools: (pack.tools ?? []).map((t) => ({ name: t.name, displayName: t.displayName, description: t.description, qualifiedName: toolQualifiedName(pack.id, t.name) })),
      ...(Array.isArray(pack.lumihub?.loomItems) && pack.lumihub.loomItems.length
        ? { loomItems: pack.lumihub.loomItems.map((l) => String((l as { loomName?: unknown }).loomName ?? 'loom item')) }
        : {}),
    };
  }

  /** The avatar as a data: URL (CSP allows img-src data:), or null when the item has none or it cannot be read. */
  avatarDataUrl(packId: string, itemId: string): string | null {
    const stored = this.packs.get(packId);
    const item = stored?.pack.items.find((i) => i.id === itemId);
    if (!stored || !item) fail('NOT_FOUND', `No item "${itemId}" in pack "${packId}".`, { path: '/itemId' });
    if (!item.avatar) return null;
    if (item.avatar.startsWith('data:')) return item.avatar;
    return stored.dir ? readAvatarFile(stored.dir, item.avatar) : null;
  }

  /**
   * Imports a pack from JSON text. Relative avatar paths are read from `baseDir` (the folder of an
   * imported file) and inlined, so the stored pack is one self-contained file.
   */
  import(text: string, options: { baseDir?: string; overwrite?: boolean; keepBoth?: boolean; bytes?: number } = {}): StoredPack {
    const parsed = parsePack(text, options.bytes);
    if (!parsed.ok) throw new HostFailure(parsed.error);
    const pack = parsed.value;
    if (options.keepBoth && this.packs.has(pack.id)) {
      // Beside the installed one: the first free id with a number, and the name says which copy it is.
      let n = 2;
      while (this.packs.has(`${pack.id.slice(0, 44)}-${n}`)) n++;
      pack.id = `${pack.id.slice(0, 44)}-${n}`;
      pack.name = `${pack.name.slice(0, 110)} (${n})`;
    }
    const existing = this.packs.get(pack.id);
    if (existing?.source === 'bundled') fail('CONFLICT', `"${pack.id}" is a bundled pack; give your pack another id.`, { path: '/id' });
    if (existing && !options.overwrite) {
      fail('CONFLICT', `A pack with id "${pack.id}" is already installed.`, { path: '/id', hint: 'Import again to replace it (overwrite) or to keep both (keepBoth); the CLI: --overwrite or --keep-both.' });
    }
    pack.items = pack.items.map((item, i) => {
      if (!item.avatar || item.avatar.startsWith('data:')) return item;
      const inlined = options.baseDir ? readAvatarFile(options.baseDir, item.avatar) : null;
      if (!inlined) fail('INVALID_PACK', `Avatar "${item.avatar}" could not be read next to the pack file.`, { path: `/items/${i}/avatar` });
      return { ...item, avatar: inlined };
    });
    const out = JSON.stringify(pack, null, 2);
    if (Buffer.byteLength(out) > PACK_LIMITS.maxFileBytes) fail('INVALID_PACK', 'The pack with its avatars inlined is over 5 MB.', { path: '' });
    fs.mkdirSync(this.userDir, { recursive: true });
    const file = path.join(this.userDir, `${pack.id}.json`);
    writeFileAtomicSync(file, out);
    const stored: StoredPack = { pack, source: 'user', dir: null };
    this.packs.set(pack.id, stored);
    this.changed();
    return stored;
  }

  /** A self-contained pack file: avatars inlined as data URLs; or LumiHub's shape. */
  export(id: string, format: 'workbench' | 'lumihub' = 'workbench'): { fileName: string; content: string } {
    const stored = this.packs.get(id);
    if (!stored) fail('NOT_FOUND', `No pack "${id}".`, { path: '/id' });
    const pack: LumiaPack = {
      ...stored.pack,
      items: stored.pack.items.map((item) => {
        if (!item.avatar || item.avatar.startsWith('data:')) return item;
        const data = stored.dir ? readAvatarFile(stored.dir, item.avatar) : null;
        const { avatar: _drop, ...rest } = item;
        return data ? { ...rest, avatar: data } : rest;
      }),
    };
    if (format === 'lumihub') return { fileName: `${id}.lumihub.json`, content: JSON.stringify(toLumiHub(pack), null, 2) };
    return { fileName: `${id}.lumia-pack.json`, content: JSON.stringify(pack, null, 2) };
  }

  remove(id: string): boolean {
    const stored = this.packs.get(id);
    if (!stored) return false;
    if (stored.source === 'bundled') fail('CONFLICT', `"${id}" is bundled with the app and cannot be removed.`, { path: '/id' });
    fs.rmSync(path.join(this.userDir, `${id}.json`), { force: true });
    this.packs.delete(id);
    this.changed();
    return true;
  }
}

function readAvatarFile(baseDir: string, relative: string): string | null {
  const type = IMAGE_TYPES[path.extname(relative).toLowerCase()];
  if (!type) return null;
  try {
    // Real paths: a symlink inside the pack folder must not lead the import to a file outside it.
    const root = fs.realpathSync(path.resolve(baseDir));
    const file = fs.realpathSync(path.resolve(root, relative));
    if (file !== root && !file.startsWith(root + path.sep)) return null;
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > PACK_LIMITS.maxAvatarChars * 0.7) return null;
    return `data:${type};base64,${fs.readFileSync(file).toString('base64')}`;
  } catch {
    return null;
  }
}

/** An explicit folder wins; else `packs` beside the bundled extensions when it exists; else the repository's. */
export function resolveBundledPacksDir(ports: { bundledPacksDir?: string | null; bundledExtensionsDir?: string | null }): string | null {
  if (ports.bundledPacksDir !== undefined) return ports.bundledPacksDir;
  if (typeof ports.bundledExtensionsDir === 'string') {
    const sibling = path.join(path.dirname(ports.bundledExtensionsDir), 'packs');
    if (fs.existsSync(sibling)) return sibling;
  }
  return bundledPacksSource();
}
