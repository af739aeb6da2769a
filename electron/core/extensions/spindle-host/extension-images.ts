// spindle.images (permission `images`): the images an extension keeps, in its own data folder (`images/`, one file per
// image and an index), in Lumiverse's ImageDTO shape. Their `url` is `/api/v1/images/<id>` on the extension's frame
// origin, so its frontend shows one with an <img> as in Lumiverse (frontend-files.ts serves it there).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../ports';
import { fromBase64 } from '../../util/base64';
import { CHARACTER_IMAGE_ID } from '../../../../shared/spindle/lumiverse-ids';
import { fail, type HandlersOf } from './handlers';

/** One image, at most (its bytes cross the worker's pipe as base64 in one request). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** What one extension keeps: a count and the bytes in all. */
export const MAX_IMAGES = 2000;
export const MAX_IMAGES_BYTES = 512 * 1024 * 1024;

type Kind = { mime: string; ext: string; magic: (b: Buffer) => boolean };

/** The images kept, by their first bytes (never SVG: a document that runs script on the frame's origin). */
const IMAGE_KINDS: Kind[] = [
  { mime: 'image/png', ext: 'png', magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/jpeg', ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/gif', ext: 'gif', magic: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  { mime: 'image/webp', ext: 'webp', magic: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];
/** The MP4 brands Chromium plays (not AVIF or HEIC images, QuickTime or audio-only files, which share the box). */
const MP4_BRANDS = new Set(['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash', 'mmp4']);

/** Lumiverse's images are "image/video assets": sprite loops (LumiStage's video variants) are kept too. */
const VIDEO_KINDS: Kind[] = [
  { mime: 'video/mp4', ext: 'mp4', magic: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && MP4_BRANDS.has(b.subarray(8, 12).toString('latin1')) },
  { mime: 'video/webm', ext: 'webm', magic: (b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])) },
];
const KINDS = [...IMAGE_KINDS, ...VIDEO_KINDS];
export const IMAGE_EXTENSIONS = KINDS.map((k) => k.ext);
/** The image's type by its first bytes, or null when it is no image the Workbench keeps (a video is none). */
export const imageMime = (bytes: Buffer): string | null => IMAGE_KINDS.find((k) => k.magic(bytes))?.mime ?? null;

interface ImageRecord {
  id: string;
  original_filename: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  bytes: number;
  owner_character_id: string | null;
  owner_chat_id: string | null;
  created_at: number;
  /** Made through the person's image connection (imageGen): the chat shows it wherever a reply names it. */
  generated?: true;
}

/** Width and height where the header says them plainly (PNG, GIF); null otherwise, as Lumiverse allows. */
function dimensions(mime: string, b: Buffer): { width: number | null; height: number | null } {
  if (mime === 'image/png' && b.length >= 24) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (mime === 'image/gif' && b.length >= 10) return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  return { width: null, height: null };
}

/** An image's id (the host makes them): the only name its file and url are built from. */
export const IMAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A record of the index as this host writes it; anything else in the file (edited by hand, an older layout) is left out. */
function wellFormed(r: unknown): r is ImageRecord {
  const x = r as Partial<ImageRecord> | null;
  return typeof x?.id === 'string' && IMAGE_ID.test(x.id) && KINDS.some((k) => k.mime === x.mime_type) && Number.isSafeInteger(x.bytes) && x.bytes! >= 0 && typeof x.original_filename === 'string';
}

export class ExtensionImages {
  /** Each extension's index as last read, with its file's time: another process (the command line) may write it too. */
  private readonly indexes = new Map<string, { mtimeMs: number; records: ImageRecord[] }>();

  constructor(
    /** `<data-dir>/extension-data`: an extension's images live in `<id>/images/`. */
    private readonly dataRoot: string,
    private readonly clock: Clock,
    /** A character's picture file (its session's), null when it has none (absent: none are). */
    private readonly characterPicture: (sessionId: string) => string | null = () => null,
  ) {}

  folder(extensionId: string): string {
    return path.join(this.dataRoot, extensionId, 'images');
  }

  handlers(): HandlersOf<'images'> {
    return {
      'images.list': ({ options }, caller) => {
        const all = this.index(caller.extensionId).filter((r) => (!options?.characterId || r.owner_character_id === options.characterId) && (!options?.chatId || r.owner_chat_id === options.chatId));
        const offset = Math.max(0, options?.offset ?? 0);
        const limit = Math.max(1, Math.min(500, options?.limit ?? 50));
        return { data: all.slice(offset, offset + limit).map((r) => this.dto(caller.extensionId, r, options?.specificity)), total: all.length };
      },
      'images.get': ({ imageId, options }, caller) => {
        const found = this.index(caller.extensionId).find((r) => r.id === imageId);
        if (found) return this.dto(caller.extensionId, found, options?.specificity);
        // A character's image_id, as Lumiverse's images answer for every picture: to an extension that may read characters.
        return caller.allowed('characters') ? this.characterImage(imageId, options?.specificity) : null;
      },
      'images.upload': ({ data, filename, mime_type, owner_character_id, owner_chat_id }, caller) =>
        this.add(caller.extensionId, fromBase64(data, '/data'), { ...(filename !== undefined ? { filename } : {}), ...(mime_type !== undefined ? { mimeType: mime_type } : {}), owners: { character: owner_character_id, chat: owner_chat_id } }),
      'images.delete': ({ imageId }, caller) => this.remove(caller.extensionId, [imageId]) === 1,
      'images.deleteMany': ({ imageIds }, caller) => this.remove(caller.extensionId, imageIds),
    };
  }

  /**
   * Keeps an image for the extension (its upload, an image generated for it): a PNG, JPEG, GIF or WebP within the
   * quota, or refused with the field named. Its ImageDTO.
   */
  add(
    extensionId: string,
    bytes: Buffer,
    options: { filename?: string; mimeType?: string; owners?: { character?: string | undefined; chat?: string | undefined }; generated?: boolean; keepGenerated?: number } = {},
  ) {
    if (bytes.length > MAX_IMAGE_BYTES) fail('INPUT_TOO_LARGE', `An image is at most ${MAX_IMAGE_BYTES} bytes here; this one is ${bytes.length}.`, '/data');
    const kind = KINDS.find((k) => k.magic(bytes)) ?? fail('INVALID_INPUT', `The data is not a PNG, JPEG, GIF or WebP image, or an MP4 or WebM video${options.mimeType ? ` (it was said to be ${options.mimeType.slice(0, 60)})` : ''}.`, '/data');
    const index = this.index(extensionId);
    if (index.length >= MAX_IMAGES) fail('QUOTA_EXCEEDED', `An extension keeps at most ${MAX_IMAGES} images.`);
    if (index.reduce((n, r) => n + r.bytes, bytes.length) > MAX_IMAGES_BYTES) fail('QUOTA_EXCEEDED', `An extension's images come to at most ${MAX_IMAGES_BYTES} bytes.`);
    const record: ImageRecord = {
      id: randomUUID(),
      original_filename: (options.filename ?? `image.${kind.ext}`).slice(0, 255),
      mime_type: kind.mime,
      ...dimensions(kind.mime, bytes),
      bytes: bytes.length,
      owner_character_id: options.owners?.character ?? null,
      owner_chat_id: options.owners?.chat ?? null,
      created_at: Math.floor(this.clock.now() / 1000),
      ...(options.generated ? { generated: true as const } : {}),
    };
    fs.mkdirSync(this.folder(extensionId), { recursive: true });
    fs.writeFileSync(path.join(this.folder(extensionId), `${record.id}.${kind.ext}`), bytes);
    this.save(extensionId, [...index, record]);
    // An extension that cannot delete its images (no `images`) keeps only its newest generated ones.
    if (options.keepGenerated !== undefined) {
      const generated = this.index(extensionId).filter((r) => r.generated === true);
      if (generated.length > options.keepGenerated) this.remove(extensionId, generated.slice(0, generated.length - options.keepGenerated).map((r) => r.id));
    }
    return this.dto(extensionId, record);
  }

  /** A character's picture in ImageDTO's shape: the url its frames load it from (page-api.ts serves it there). */
  private characterImage(imageId: string, specificity = 'full') {
    const session = CHARACTER_IMAGE_ID.exec(imageId)?.[1];
    const file = session ? this.characterPicture(session) : null;
    if (!session || !file) return null;
    let bytes: Buffer;
    let created: number;
    try {
      bytes = fs.readFileSync(file);
      created = Math.floor(fs.statSync(file).mtimeMs / 1000);
    } catch {
      return null;
    }
    const mime = imageMime(bytes) ?? 'image/png';
    return { id: imageId, original_filename: 'avatar.png', mime_type: mime, ...dimensions(mime, bytes), owner_character_id: session, owner_chat_id: session, created_at: created, has_thumbnail: false, url: `/api/v1/images/${imageId}`, specificity };
  }

  private dto(extensionId: string, r: ImageRecord, specificity: string = 'full') {
    const { bytes: _bytes, generated: _generated, ...fields } = r;
    return { ...fields, has_thumbnail: false, url: `/api/v1/images/${r.id}`, specificity, owner_extension_identifier: extensionId };
  }

  /** An image's bytes and type (a frame's fetch of its url); null when it has no such image (`generated`: no such generated one). */
  read(extensionId: string, id: string, options: { generated?: boolean } = {}): { mime: string; bytes: Buffer } | null {
    const found = this.index(extensionId).find((r) => r.id === id && (!options.generated || r.generated === true));
    if (!found) return null;
    try {
      return { mime: found.mime_type, bytes: fs.readFileSync(this.fileOf(extensionId, found)) };
    } catch {
      return null;
    }
  }

  /** Its file: the folder and the record's checked id and kind, nothing else. */
  private fileOf(extensionId: string, r: ImageRecord): string {
    return path.join(this.folder(extensionId), `${r.id}.${KINDS.find((k) => k.mime === r.mime_type)!.ext}`);
  }

  private remove(extensionId: string, ids: string[]): number {
    const index = this.index(extensionId);
    const gone = index.filter((r) => ids.includes(r.id));
    if (!gone.length) return 0;
    this.save(extensionId, index.filter((r) => !ids.includes(r.id)));
    for (const r of gone) fs.rmSync(this.fileOf(extensionId, r), { force: true });
    return gone.length;
  }

  private index(extensionId: string): ImageRecord[] {
    const file = path.join(this.folder(extensionId), 'index.json');
    let mtimeMs = -1;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      // None yet.
    }
    const cached = this.indexes.get(extensionId);
    if (cached && cached.mtimeMs === mtimeMs) return cached.records;
    let records: ImageRecord[] = [];
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      records = Array.isArray(parsed) ? parsed.filter(wellFormed) : [];
    } catch {
      // None, or unreadable: no images.
    }
    this.indexes.set(extensionId, { mtimeMs, records });
    return records;
  }

  private save(extensionId: string, index: ImageRecord[]): void {
    const file = path.join(this.folder(extensionId), 'index.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(index));
    fs.renameSync(`${file}.tmp`, file);
    this.indexes.set(extensionId, { mtimeMs: fs.statSync(file).mtimeMs, records: index });
  }

  /** Its extension was removed (its folder goes with it). */
  forget(extensionId: string): void {
    this.indexes.delete(extensionId);
  }
}
