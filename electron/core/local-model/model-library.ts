// The local models the Workbench knows: GGUF files picked on disk (used where they are) or downloaded into the data
// folder's models/ folder. Kept in models/library.json; a connection of type local names a model by its id here.
import fs from 'node:fs';
import path from 'node:path';
import { HostFailure } from '../../../shared/errors';
import type { LocalModelInfo } from '../../../shared/types/local-models';
import { writeFileAtomicSync } from '../util/atomic-write';

const GGUF_MAGIC = 'GGUF';

export interface ModelHeader {
  name: string;
  architecture: string;
  contextLength: number | null;
}

/** Reads the header of a GGUF (node-llama-cpp's reader, loaded only when a model is added). */
export type HeaderReader = (file: string) => Promise<ModelHeader>;

export const readGgufHeader: HeaderReader = async (file) => {
  const { readGgufFileInfo } = await import('node-llama-cpp');
  const info = await readGgufFileInfo(file, { readTensorInfo: false, logWarnings: false });
  const general = (info.metadata as { general?: { name?: unknown; architecture?: unknown } }).general ?? {};
  const architecture = String(general.architecture ?? 'unknown');
  const own = (info.metadata as Record<string, { context_length?: unknown } | undefined>)[architecture];
  return { name: String(general.name ?? ''), architecture, contextLength: typeof own?.context_length === 'number' ? own.context_length : null };
};

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/\.gguf$/i, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'model'
  );
}

export class ModelLibrary {
  readonly folder: string;
  private readonly index: string;

  constructor(dataDir: string, private readonly readHeader: HeaderReader = readGgufHeader) {
    this.folder = path.join(dataDir, 'models');
    this.index = path.join(this.folder, 'library.json');
  }

  list(): LocalModelInfo[] {
    let models: LocalModelInfo[];
    try {
      models = (JSON.parse(fs.readFileSync(this.index, 'utf8')) as { models?: LocalModelInfo[] }).models ?? [];
    } catch {
      return [];
    }
    // A file deleted behind our back is still listed, marked missing, so the person sees why its connection fails.
    return models.map((m) => ({ ...m, missing: !fs.existsSync(m.file) }));
  }

  get(id: string): LocalModelInfo {
    const found = this.list().find((m) => m.id === id);
    if (!found) throw new HostFailure({ code: 'NOT_FOUND', message: `No local model ${id}.`, hint: 'See the local models with: models list', path: '/modelId' });
    return found;
  }

  /** Adds a GGUF on disk, used where it is. The same file added twice is the same model. */
  async addFile(file: string, source: LocalModelInfo['source'] = { kind: 'file' }): Promise<LocalModelInfo> {
    const absolute = path.resolve(file);
    let size: number;
    try {
      const stat = fs.statSync(absolute);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
    } catch {
      throw new HostFailure({ code: 'NOT_FOUND', message: `There is no file at ${absolute}.`, path: '/path' });
    }
    const magic = Buffer.alloc(4);
    const fd = fs.openSync(absolute, 'r');
    try {
      fs.readSync(fd, magic, 0, 4, 0);
    } finally {
      fs.closeSync(fd);
    }
    if (magic.toString('latin1') !== GGUF_MAGIC) {
      throw new HostFailure({ code: 'INVALID_INPUT', message: `${path.basename(absolute)} is not a GGUF model (it does not start with "GGUF").`, hint: 'Local models are GGUF files, as llama.cpp, LM Studio and Ollama use.', path: '/path' });
    }
    const models = this.list().map(({ missing: _m, ...m }) => m);
    const existing = models.find((m) => m.file === absolute);
    if (existing) return existing;
    let header: ModelHeader;
    try {
      header = await this.readHeader(absolute);
    } catch (error) {
      throw new HostFailure({ code: 'INVALID_INPUT', message: `${path.basename(absolute)} is not a readable GGUF: ${error instanceof Error ? error.message : String(error)}`, path: '/path' });
    }
    const taken = new Set(models.map((m) => m.id));
    const base = slug(path.basename(absolute));
    let id = base;
    for (let i = 2; taken.has(id); i++) id = `${base}-${i}`;
    const model: LocalModelInfo = {
      id,
      name: header.name || path.basename(absolute, '.gguf'),
      file: absolute,
      sizeBytes: size,
      architecture: header.architecture,
      contextLength: header.contextLength,
      source,
      addedAt: Date.now(),
    };
    this.save([...models, model]);
    return model;
  }

  /** Forgets a model; a file the library downloaded into its folder is deleted, a file picked on disk is left. */
  remove(id: string): { removed: LocalModelInfo; deletedFile: boolean } {
    const models = this.list().map(({ missing: _m, ...m }) => m);
    const removed = models.find((m) => m.id === id);
    if (!removed) throw new HostFailure({ code: 'NOT_FOUND', message: `No local model ${id}.`, path: '/id' });
    this.save(models.filter((m) => m.id !== id));
    const ours = path.dirname(removed.file) === this.folder;
    if (ours) fs.rmSync(removed.file, { force: true });
    return { removed, deletedFile: ours };
  }

  private save(models: LocalModelInfo[]): void {
    fs.mkdirSync(this.folder, { recursive: true });
    writeFileAtomicSync(this.index, `${JSON.stringify({ models }, null, 2)}\n`);
  }
}
